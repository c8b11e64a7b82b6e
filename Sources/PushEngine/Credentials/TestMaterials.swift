public import PushCore
import PushCrypto
import PushFiles
import PushSystem
import PushWords

/// Test keys and certificates for the mock, tests and class (`pushctl key generate`, `pushctl
/// cert generate`): made with libcrypto, written mode 0600 where secret, never over an existing
/// file. None of them is Apple's: APNs refuses what they sign.
public enum TestMaterials {
    /// A key written by `writeKey`: the `.p8` and, when it could be written, its public half.
    public struct WrittenKey: Sendable {
        public let keyID: String
        public let path: String
        public let publicPath: String?
    }

    /// A new P-256 key in Apple's `.p8` form, `AuthKey_<ID>.p8` in `out` (a folder, made when
    /// missing, or the file itself; default: here), with its public half `<ID>.pem` beside it
    /// (what a class mock's `--key-dir` takes).
    public static func writeKey(keyID given: String?, out: String?) throws(InputError) -> WrittenKey {
        var generator = SystemRandomNumberGenerator()
        let keyID = try AppleIdentifier(.keyID, given ?? AppleIdentifier.random(using: &generator))
        let fileName = "AuthKey_\(keyID).p8"
        let path: String
        if let out, FileOutput.isDirectory(out) {
            path = out.hasSuffix("/") ? out + fileName : out + "/" + fileName
        } else if let out, out.hasSuffix("/") || !(out.split(separator: "/").last?.contains(".") ?? false) {
            // A folder that is not there yet (`--out keys/`): made, private, then the key in it.
            try OutputFolder.make(out)
            path = out.hasSuffix("/") ? out + fileName : out + "/" + fileName
        } else {
            if let out, let slash = out.lastIndex(of: "/"), slash != out.startIndex { try OutputFolder.make(String(out[..<slash])) }
            path = out ?? fileName
        }
        let key = ES256PrivateKey.generate()
        try OutputFiles.writeNew(Array(key.pkcs8PEM.utf8), to: path, .signingKey, mode: 0o600)
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let publicPath = folder + "\(keyID).pem"
        // The public half is a convenience (the mock's key folder): not writing it is no failure.
        let wrotePublic = (try? OutputFiles.writeNew(Array(key.publicKey.pem.utf8), to: publicPath, .publicKey, mode: 0o644)) != nil
        return WrittenKey(keyID: "\(keyID)", path: path, publicPath: wrotePublic ? publicPath : nil)
    }

    /// Which environments a test certificate serves.
    public enum Environments: String, CaseIterable, Sendable {
        case development, production, both
    }

    /// What `writeCertificates` wrote, in order, and the certificate made.
    public struct WrittenCertificates {
        public let paths: [String]
        public let certificate: ProviderCertificate
        /// `<out>/<bundle id>`, the stem of the certificate's files.
        public let base: String
        public let directory: String
    }

    /// A test CA and a client certificate shaped like Apple's push certificates, for `topics`
    /// (the first is the bundle id), written to `out` (default: here): the CA, a `.p12` with
    /// `password` (random and written beside it when nil), and the same as PEM.
    public static func writeCertificates(
        topics names: [String], environments: Environments, validFromDays: Int, days: Int,
        password given: String?, out: String?, naming: SettingNaming = .plain
    ) throws(InputError) -> WrittenCertificates {
        guard let bundleID = names.first else {
            throw InputError(CredentialProblem.testCertificateNeedsTopic, kind: .usage)
        }
        for name in names {
            try HeaderValue.check(name, name: naming.name(.topic), limit: PushTemplate.topicLimit)
            guard !name.isEmpty, !name.contains("/"), name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw InputError(CredentialProblem.notATopic(shown: OutsideText.display(name)), kind: .usage)
            }
        }
        let topics = names.map { ProviderCertificate.Topic(name: $0, kinds: [kind(of: $0, bundleID: bundleID)]) }
        let password = given ?? randomPassword()
        let made = try TestCertificates.make(
            topics: topics, development: environments != .production, production: environments != .development,
            validFrom: validFromDays * 86_400, validity: days * 86_400, password: password)
        if let out { try OutputFolder.make(out) }
        let directory = out.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        let base = directory + bundleID
        var written: [String] = []
        func write(_ bytes: [UInt8], _ path: String, mode: UInt16) throws(InputError) {
            try OutputFiles.writeNew(bytes, to: path, .testCertificate, mode: mode)
            written.append(path)
        }
        try write(made.caPEM, directory + "pushctl-test-ca.pem", mode: 0o644)
        try write(made.pkcs12, base + ".p12", mode: 0o600)
        if given == nil { try write(Array((password + "\n").utf8), base + ".password", mode: 0o600) }
        try write(made.certificatePEM, base + ".pem", mode: 0o644)
        try write(made.privateKeyPEM, base + ".key.pem", mode: 0o600)
        return WrittenCertificates(paths: written, certificate: made.certificate, base: base, directory: directory)
    }

    /// Apple's word for a topic in the topics extension: `app` for the bundle id, else the
    /// push type whose suffix it carries.
    static func kind(of topic: String, bundleID: String) -> String {
        if topic == bundleID { return "app" }
        let type = PushType.allCases.first { $0.topicSuffix.map { topic == bundleID + $0 } ?? false }
        return type?.rawValue ?? "app"
    }

    /// Twenty letters and digits with none that read alike (no 0/O, 1/l/I).
    static func randomPassword() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}

/// Output folders the user names (`--out keys/`): made when missing, like `mkdir -p`, each new
/// level mode 0700 (a key goes in); an existing path that is not a folder is refused.
public enum OutputFolder {
    public static func make(_ path: String) throws(InputError) {
        var built = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            built += (built.isEmpty || built.hasSuffix("/") ? "" : "/") + part
            if let info = FileSystem.status(built) {
                guard info.kind == .directory else {
                    throw InputError(OutputProblem.folderIsAFile(path: path, file: built), kind: .cannotCreateOutput)
                }
                continue
            }
            guard FileSystem.makeDirectory(built, mode: 0o700) || Errno.current == Errno.exists else {
                throw InputError(OutputProblem.cannotMakeFolder(path: built, SystemError.code(Errno.current)), kind: .cannotCreateOutput)
            }
        }
    }
}
