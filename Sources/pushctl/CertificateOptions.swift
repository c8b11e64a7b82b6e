import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

/// `--cert --cert-key --cert-password-file`, with PUSHCTL_CERT and PUSHCTL_CERT_PASSWORD.
struct CertificateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).",
            valueName: "path"),
        completion: .file(extensions: ["p12", "pfx", "pem", "crt", "cer"]))
    var cert: String?

    @Option(
        help: ArgumentHelp("The certificate's private key (PEM), when --cert holds only the certificate.", valueName: "path"),
        completion: .file(extensions: ["pem", "key"]))
    var certKey: String?

    @Option(
        help: ArgumentHelp("A file holding the .p12's (or the key's) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).", valueName: "path"),
        completion: .file())
    var certPasswordFile: String?

    /// These flags in the engine's settings.
    var settings: [Setting: String] {
        var flags: [Setting: String] = [:]
        flags[.certificate] = cert
        flags[.certificateKey] = certKey
        flags[.certificatePassword] = certPasswordFile
        return flags
    }

    /// Reads a password from the terminal with echo off; nil without a terminal (CI).
    static func askPassword(for path: String) -> String? {
        guard Terminal.isTerminal(Descriptors.standardInput) else { return nil }
        let prompt = Words("Password for \(OutsideText.display(path, limit: 120)): ", es: "Contraseña de \(OutsideText.display(path, limit: 120)): ")
            .description
        guard let bytes = Terminal.readSecret(prompt: prompt) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
