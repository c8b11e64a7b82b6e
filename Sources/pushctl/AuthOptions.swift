import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

/// `--key-file --key-id --team-id`, each falling back to its PUSHCTL_* variable (the engine's table).
struct AuthOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.",
            valueName: "path"), completion: .file(extensions: ["p8", "pem"]))
    var keyFile: String?

    @Option(
        help: ArgumentHelp(
            "Sign with this command instead of a key (a KMS, Vault): it reads the JWT's signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.",
            valueName: "command"))
    var signer: String?

    @Option(
        help: ArgumentHelp(
            "The signing key's public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).",
            valueName: "path"), completion: .file(extensions: ["pem", "crt"]))
    var publicKey: String?

    @Option(help: ArgumentHelp("The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).", valueName: "id"))
    var keyId: String?

    @Option(help: ArgumentHelp("The 10-character Team ID (env PUSHCTL_TEAM_ID).", valueName: "id"))
    var teamId: String?

    /// These flags in the engine's settings.
    var settings: [Setting: String] {
        var flags: [Setting: String] = [:]
        flags[.keyFile] = keyFile
        flags[.keyID] = keyId
        flags[.teamID] = teamId
        flags[.signer] = signer
        flags[.publicKey] = publicKey
        return flags
    }

    /// Asks for a PKCS#11 token's PIN when someone at a terminal can type it.
    static func askPIN(for token: String) -> String? {
        guard Terminal.isTerminal(Descriptors.standardInput) else { return nil }
        let prompt = Words("PIN for \(token): ", es: "PIN de \(token): ").description
        return Terminal.readSecret(prompt: prompt).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The flags that say how to authenticate, shared by `send` and `channel`.
protocol CredentialFlags {
    var auth: AuthOptions { get }
    var certificate: CertificateOptions { get }
    var jwt: String? { get }
    var noJwtCache: Bool { get }
}

extension CredentialFlags {
    /// The authentication flags in the engine's settings.
    var credentialSettings: [Setting: String] {
        var flags = auth.settings.merging(certificate.settings) { $1 }
        flags[.jwt] = jwt
        return flags
    }

    /// How the engine may talk to the person running the command while it reads the credentials.
    func credentialOptions(quiet: Bool) -> CredentialOptions {
        var options = CredentialOptions()
        options.noCache = noJwtCache
        options.quiet = quiet
        options.askPassword = CertificateOptions.askPassword
        options.askPIN = AuthOptions.askPIN
        options.warn = { Console.warn($0) }
        return options
    }
}

extension SettingValues {
    /// The settings of this process: the flags given (and the environment `--sandbox` or
    /// `--production` chose), over its environment variables, named as pushctl spells them.
    static func command(_ flags: [Setting: String], environment chosen: APNsEnvironment? = nil) -> SettingValues {
        SettingValues(flags: flags, environmentFlag: chosen, environment: Console.environment, naming: FlagNames.naming)
    }
}
