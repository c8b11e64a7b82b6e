import ArgumentParser
import PushctlSupport
import PushCore
import PushWords
import PushEngine
import PushSystem

/// `--key-file --key-id --team-id`, each falling back to its PUSHCTL_* variable (the engine's table).
struct AuthOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The .p8 private key from Apple (env PUSHCTL_KEY_FILE).", valueName: "path"), completion: .file(extensions: ["p8", "pem"]))
    var keyFile: String?

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
        return flags
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
        options.warn = { Console.warn($0) }
        return options
    }
}

extension SettingValues {
    /// The settings of this process: the flags given, over its environment.
    static func command(_ flags: [Setting: String]) -> SettingValues {
        SettingValues(flags: flags, environment: Console.environment)
    }
}
