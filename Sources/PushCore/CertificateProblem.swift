/// What is wrong with a provider certificate given for TLS client authentication (a `.p12`, a PEM
/// certificate with its key, a DER `.cer`): each case a code with the file it was in, as given.
/// (PushCrypto reads it; the catalog says each case and what to do, naming the settings
/// `certificate`, `certificateKey` and `certificatePassword`.)
public enum CertificateProblem: InputProblem {
    /// The certificate file is empty.
    case empty(source: String)
    /// Neither a `.p12` nor a PEM or DER certificate.
    case unrecognized(source: String)
    /// A `.p12` without a certificate in it.
    case p12WithoutCertificate(source: String)
    /// A `.p12` with the certificate but not its key.
    case p12WithoutKey(source: String)
    /// A `.p12` with a password, and none was given.
    case p12NeedsPassword(source: String)
    /// The password does not open the `.p12` (its MAC check failed).
    case p12WrongPassword(source: String)
    /// A `.p12` encrypted the old way, which OpenSSL 3 reads only through its legacy provider.
    case p12LegacyEncryption(source: String, detail: String?)
    /// A `.p12` OpenSSL could not read, with OpenSSL's reason when it gave one.
    case p12Unreadable(source: String, detail: String?)
    /// A PEM file with a private key but no certificate.
    case keyWithoutCertificate(source: String)
    /// A PEM file without a readable certificate.
    case noPEMCertificate(source: String)
    /// A certificate without a private key, in the file or beside it.
    case noPrivateKey(source: String)
    /// A key given beside a file that already holds one.
    case keyGivenTwice(source: String)
    /// The PEM private key is encrypted, and no password was given.
    case keyNeedsPassword(source: String)
    /// The password does not decrypt the PEM private key.
    case keyWrongPassword(source: String)
    /// No readable PEM private key.
    case noPEMKey(source: String)
    /// The private key is not the certificate's.
    case keyDoesNotMatch(subject: String, source: String)
    /// OpenSSL could not write the key again as PKCS#8.
    case cannotReencodeKey
    /// A test certificate without any topic.
    case testCertificateNeedsTopic
    /// OpenSSL could not make the test certificates.
    case testCertificatesFailed

    /// The kind of problem: a missing password or a doubled key is usage; OpenSSL failing to make
    /// test certificates is unavailable; the rest bad data.
    public var kind: InputError.Kind {
        switch self {
        case .p12NeedsPassword, .keyNeedsPassword, .keyGivenTwice, .testCertificateNeedsTopic: return .usage
        case .testCertificatesFailed: return .unavailable
        default: return .badData
        }
    }
}

extension InputError {
    /// A certificate problem, of the kind it is.
    public init(_ problem: CertificateProblem) { self.init(problem, kind: problem.kind) }
}
