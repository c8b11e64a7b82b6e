/// Why a system call on a file failed: the reasons a user meets with paths, permissions and disks,
/// each a case a caller can branch on. Any other is the system's own text (`strerror`), kept as
/// it came. (PushFiles reads the errno; the catalog says each case.)
public enum SystemReason: Sendable, Hashable {
    case noSuchFile, permissionDenied, notPermitted, isDirectory, notDirectory, exists, nameTooLong
    /// A symbolic link where pushctl follows none (`O_NOFOLLOW`), or a path that loops.
    case symbolicLinkLoop
    case noSpace, quotaExceeded, readOnlyFileSystem, tooManyOpenFiles, inputOutput, brokenPipe, notExecutable
    /// Any other reason: the system's text for it.
    case other(String)
}

/// What a file pushctl reads is for: how a message names it.
public enum FileRole: Sendable, Hashable {
    case keyFile, tokensFile, requestsFile, payloadFile, certificateFile, certificateKeyFile, certificatePasswordFile
    case proxyCredentialsFile, journal, journalOrResultsFile, caCertificateFile
    /// One of the files of the app a notification is for (`--app`: strings, plists, Swift).
    case appFile
    /// A provider token given as a file (`jwt --verify -`).
    case token
    /// JSON a setting reads from a file (`--content-state @state.json`).
    case settingFile(Setting)
}

/// What went wrong reading a file the user pointed at (or standard input, the path `-`), with the
/// path as given: missing or unreadable is `.missingInput`, present but unusable `.badData`.
public enum FileProblem: InputProblem {
    /// The path names nothing (or a part of it cannot be searched).
    case notFound(FileRole, path: String, SystemReason)
    /// The path is a folder.
    case directory(FileRole, path: String)
    /// The file is there but cannot be opened (permissions, a link pushctl does not follow).
    case cannotOpen(FileRole, path: String, SystemReason)
    /// Reading failed after the file was opened.
    case cannotRead(FileRole, path: String, SystemReason)
    /// A stop signal ended the read (of a pipe that had not ended).
    case stoppedReading(FileRole, path: String)
    /// Larger than anything of its role can be.
    case tooLarge(FileRole, path: String, limitKiB: Int)
    /// A CA certificate file that holds nothing.
    case emptyCACertificate(path: String)
    /// A CA certificate file without a PEM certificate in it.
    case noPEMCertificate(path: String)

    /// What kind of problem it is: a file that cannot be read is missing input, one that can is bad data.
    public var kind: InputError.Kind {
        switch self {
        case .notFound, .directory, .cannotOpen, .cannotRead: return .missingInput
        case .stoppedReading: return .temporaryFailure
        case .tooLarge, .emptyCACertificate, .noPEMCertificate: return .badData
        }
    }

    /// The path it was about (`-` for standard input).
    public var path: String {
        switch self {
        case .notFound(_, let path, _), .directory(_, let path), .cannotOpen(_, let path, _), .cannotRead(_, let path, _),
            .stoppedReading(_, let path), .tooLarge(_, let path, _), .emptyCACertificate(let path), .noPEMCertificate(let path):
            return path
        }
    }
}

extension InputError {
    /// A file problem, of the kind it is.
    public init(_ problem: FileProblem) { self.init(problem, kind: problem.kind) }
}

/// A private key whose file others may read: worth a warning, not a refusal.
public struct SharedKeyFile: Sendable, Hashable {
    public let path: String
    /// Its permission bits (`0o644`).
    public let mode: UInt32

    public init(path: String, mode: UInt32) {
        self.path = path
        self.mode = mode
    }
}
