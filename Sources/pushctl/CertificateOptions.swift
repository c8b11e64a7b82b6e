import ArgumentParser
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto

/// `--cert --cert-key --cert-password-file`, with PUSHCTL_CERT and PUSHCTL_CERT_PASSWORD.
struct CertificateOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).", valueName: "path"),
            completion: .file(extensions: ["p12", "pfx", "pem", "crt", "cer"]))
    var cert: String?

    @Option(help: ArgumentHelp("The certificate's private key (PEM), when --cert holds only the certificate.", valueName: "path"),
            completion: .file(extensions: ["pem", "key"]))
    var certKey: String?

    @Option(help: ArgumentHelp("A file holding the .p12's (or the key's) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).", valueName: "path"),
            completion: .file())
    var certPasswordFile: String?

    /// The certificate file the flags or the environment name, if any.
    func path(env: EnvironmentVariables) -> String? { cert ?? env["PUSHCTL_CERT"].nonEmpty }

    /// The password from the file or the environment; nil when neither gives one.
    func password(env: EnvironmentVariables) throws(InputError) -> String? {
        if let certPasswordFile {
            var bytes = try InputFiles.read(certPasswordFile, what: "certificate password file")
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            guard bytes.count <= 1024, !bytes.contains(0) else {
                throw InputError(Words("the certificate password file '\(certPasswordFile)' must hold the password on one line", es: "el archivo de contraseña del certificado '\(certPasswordFile)' debe tener la contraseña en una línea"))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return env["PUSHCTL_CERT_PASSWORD"]
    }

    /// Reads and checks the certificate and its key (everything through libcrypto); asks for the
    /// password on the terminal only when one is needed, none was given, and stdin is a terminal.
    func loadIdentity(path: String, env: EnvironmentVariables) throws(InputError) -> ClientIdentity {
        let bytes = try InputFiles.read(path, what: "certificate file")
        let key = try certKey.map { keyPath throws(InputError) in (try InputFiles.read(keyPath, what: "certificate key file"), keyPath) }
        var password = try password(env: env)
        if password == nil, CertificateFile.needsPassword(key?.0 ?? bytes) || CertificateFile.needsPassword(bytes),
           let typed = CertificateOptions.askPassword(for: key?.1 ?? path) {
            password = typed
        }
        let identity = try ClientIdentity.load(bytes, source: path, key: key.map { (bytes: $0.0, source: $0.1) }, password: password,
                                               names: CertificateOptions.inputNames)
        InputFiles.sharingWarning(certKey ?? path).map(Console.warn)
        return identity
    }

    /// How the certificate's parts are given here, for the hints of libcrypto's readers.
    static let inputNames = CertificateInputNames(
        certificate: Words(verbatim: "--cert"), key: Words(verbatim: "--cert-key"),
        password: Words("--cert-password-file or PUSHCTL_CERT_PASSWORD (a trailing newline in the file is ignored)",
                        es: "--cert-password-file o PUSHCTL_CERT_PASSWORD (un salto de línea al final del archivo se ignora)"))

    /// Reads a password from the terminal with echo off; nil without a terminal (CI).
    static func askPassword(for path: String) -> String? {
        guard Terminal.isTerminal(Descriptors.standardInput) else { return nil }
        let prompt = Words("Password for \(OutsideText.display(path, limit: 120)): ", es: "Contraseña de \(OutsideText.display(path, limit: 120)): ").description
        guard let bytes = Terminal.readSecret(prompt: prompt) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The checks a certificate passes before anything is sent with it.
enum CertificateChecks {
    /// The certificate the flags or the environment choose, read and checked for validity; nil
    /// when the run authenticates with a provider token.
    static func load(_ flags: some CredentialFlags, env: EnvironmentVariables, quiet: Bool) throws(InputError) -> (path: String, identity: ClientIdentity)? {
        guard let path = try SendRequest.certificatePath(flags, env: env) else { return nil }
        let identity = try flags.certificate.loadIdentity(path: path, env: env)
        try requireValid(identity.certificate, path: path, now: WallClock.now(), quiet: quiet)
        return (path, identity)
    }

    /// Expired or not yet valid: 65. Expiring within 30 days: a warning naming the date.
    static func requireValid(_ certificate: ProviderCertificate, path: String, now: Int64, quiet: Bool) throws(InputError) {
        let place = OutsideText.display(path)
        switch certificate.validity(now: now) {
        case .valid:
            break
        case .expired:
            throw InputError(Words("the certificate in '\(place)' expired on \(UTCDate.format(unixSeconds: certificate.notAfter)) (\(OutsideText.display(certificate.subject, limit: 120)))", es: "el certificado de '\(place)' caducó el \(UTCDate.format(unixSeconds: certificate.notAfter)) (\(OutsideText.display(certificate.subject, limit: 120)))"),
                             hint: Words("make a new one in your Apple Developer account (Certificates, Identifiers & Profiles), or move to a .p8 key, which does not expire", es: "crea otro en tu cuenta de Apple Developer (Certificates, Identifiers & Profiles), o pasa a una clave .p8, que no caduca"))
        case .notYetValid:
            throw InputError(Words("the certificate in '\(place)' is not valid until \(UTCDate.format(unixSeconds: certificate.notBefore)); is this machine's clock right?", es: "el certificado de '\(place)' no es válido hasta el \(UTCDate.format(unixSeconds: certificate.notBefore)); ¿está bien el reloj de esta máquina?"),
                             hint: Words("check the clock (date -u), or wait until then", es: "comprueba el reloj (date -u), o espera hasta entonces"))
        case let .expiresSoon(days):
            if !quiet {
                let date = UTCDate.format(unixSeconds: certificate.notAfter)
                Console.warn(Words("the certificate in '\(place)' expires on \(date), in \(days) day\(days == 1 ? "" : "s"): renew it in your Apple Developer account",
                                   es: "el certificado de '\(place)' caduca el \(date), dentro de \(days) día\(days == 1 ? "" : "s"): renuévalo en tu cuenta de Apple Developer"))
            }
        }
    }

    /// A development-only certificate sent to production, or the reverse: 65 with the why.
    static func requireEnvironment(_ certificate: ProviderCertificate, _ environment: APNsEnvironment, path: String) throws(InputError) {
        guard !certificate.serves(environment) else { return }
        let other: APNsEnvironment = environment == .sandbox ? .production : .sandbox
        let shown = OutsideText.display(path), sandbox = environment == .sandbox
        throw InputError(
            Words("the certificate in '\(shown)' is for \(sandbox ? "production" : "development") only, but this run sends to \(sandbox ? "the sandbox" : "production") (\(environment.host)); APNs would answer BadCertificateEnvironment",
                  es: "el certificado de '\(shown)' es solo de \(sandbox ? "producción" : "desarrollo"), pero este envío va a \(sandbox ? "sandbox" : "producción") (\(environment.host)); APNs respondería BadCertificateEnvironment"),
            hint: Words("send with --\(other.rawValue), or use a certificate made for \(sandbox ? "development (Sandbox)" : "production")",
                        es: "envía con --\(other.rawValue), o usa un certificado hecho para \(sandbox ? "desarrollo (Sandbox)" : "producción")"))
    }
}
