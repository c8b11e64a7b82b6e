/// What a temporary file is for, as a message says when one cannot be made or written.
public enum TemporaryFilePurpose: Sendable, Equatable {
    /// A copy of an input that is not a regular file, to be read again.
    case spool(FileRole, path: String)
    /// The checked lines of a requests file, kept for the run.
    case keepCheckedLines(path: String)
    /// A provider token written to the cache.
    case cacheJWT
}

/// A file a command writes (through `OutputFiles`, the one way files are written), as a message
/// names it.
public enum OutputFile: Sendable, Equatable, CaseIterable {
    /// The run's metrics (Prometheus' text format).
    case metricsFile
    /// The device tokens APNs said are no longer valid.
    case deadTokenFile
    /// The notifications to send again.
    case retryFile
    /// The mock's CA certificate.
    case caCertificate
    /// The Simulator's `.apns` file.
    case simulatorFile
    /// A signing key made by `key generate`: never overwritten.
    case signingKey
    /// A key's public half, written beside it.
    case publicKey
    /// A test certificate, its CA, key or password (`cert generate`): never overwritten.
    case testCertificate
    /// GitHub's step summary (`GITHUB_STEP_SUMMARY`), appended to.
    case stepSummary
}

/// What went wrong writing what a command makes: its files, its folders, its temporary files, and
/// reading back the results it wrote. Paths are as given, unless a parameter is named `shown`.
/// The catalog says each and what to do.
public enum OutputProblem: InputProblem {
    /// A file could not be opened, written or put in place.
    case cannotWrite(OutputFile, path: String, SystemReason)
    /// A file written whole and renamed into place has a device, a pipe or a folder at its path.
    case notAFile(OutputFile, path: String)
    /// A new file (a test key or certificate) is there already: pushctl never overwrites one.
    case exists(OutputFile, path: String)
    /// A folder to make is a file (`file`: the part of the path that is).
    case folderIsAFile(path: String, file: String)
    /// A folder could not be made.
    case cannotMakeFolder(path: String, SystemReason)
    /// No temporary folder could be made in `folder`.
    case noTemporaryFolder(folder: String, SystemReason)
    /// No temporary file could be made in `folder` (shown).
    case noTemporaryFile(TemporaryFilePurpose, folder: String, SystemReason)
    /// Writing a temporary file failed.
    case temporaryWriteFailed(TemporaryFilePurpose, SystemReason)
    /// An input could not be copied to a temporary file.
    case cannotSpool(path: String, SystemReason)
    /// Not every dead token could be written (they are in the results).
    case cannotWriteDeadTokenFile(path: String, SystemReason)
    /// A journal or results file to report on is not a regular file or a pipe.
    case notAResultsFile(path: String)
    /// No device results in the files given.
    case noDeviceResults(paths: [String])
}
