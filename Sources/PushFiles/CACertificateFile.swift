public import PushCore

/// A CA certificate file to trust besides the system's (`pushctl mock` writes one).
public enum CACertificateFile {
    /// Reads it through the one file reader, and says what is wrong with it before anything connects.
    public static func check(_ path: String) throws(InputError) {
        let bytes = try InputFiles.read(path, what: .caCertificateFile)
        guard !bytes.allSatisfy(\.isASCIIWhitespace) else { throw InputError(FileProblem.emptyCACertificate(path: path)) }
        guard PastedForm.contains(bytes, PastedForm.pemCertificateMarker) else { throw InputError(FileProblem.noPEMCertificate(path: path)) }
    }
}
