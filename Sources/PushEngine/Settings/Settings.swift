public import PushCore
import PushFiles
public import PushWords

/// The one table of what a user may set by a flag or by a `PUSHCTL_*` variable, and the one rule
/// that resolves them: a flag wins; else its variable when set and not empty; else the default.
///
/// Two kinds of setting go together, and a flag for one silences the variables of the rest:
/// - **where** (`environment`, `endpoint`): `--sandbox` with `PUSHCTL_ENDPOINT` set sends to the
///   sandbox; `--endpoint` with `PUSHCTL_ENV` set sends to the endpoint.
/// - **how to authenticate** (`keyFile`, `jwt`, `certificate`): `--key-file` with `PUSHCTL_JWT` set
///   signs with the key. Without a flag, two of those variables set at once is a usage error.
extension Setting {
    /// Every `PUSHCTL_*` variable pushctl reads.
    public static let variables: [String] = allCases.compactMap(\.variable)

    /// The settings that say where requests go.
    static let whereSettings: Set<Setting> = [.environment, .endpoint]

    /// The settings that each choose a way to authenticate: a key file (or a `pkcs11:` URI),
    /// the key's PEM itself (`PUSHCTL_KEY`), an external signer, a JWT, a certificate.
    public static let credentialChoices: [Setting] = [.keyFile, .key, .signer, .jwt, .certificate]

    /// The variables that hold secrets: taken out of the environment at start (no child inherits them).
    public static let secretVariables = ["PUSHCTL_KEY", "PUSHCTL_CACHE_KEY"]

    /// How a value of this setting is shown on a command line (`Redaction.argument`): the secret it
    /// may carry, and the variable that would carry it instead.
    public var argumentKind: Redaction.ArgumentKind {
        switch self {
        case .jwt, .signer: .secret(variable: variable ?? "\(self)")
        case .proxy, .metricsPush, .endpoint: .url(variable: variable)
        case .keyFile: .keyLocation(variable: variable)
        default: .plain
        }
    }

    /// The settings whose values may carry a secret, by the names `naming` gives them: what a
    /// command line shown back (the resume hint) redacts.
    public static func secretArguments(_ naming: SettingNaming) -> [String: Redaction.ArgumentKind] {
        Dictionary([Setting.jwt, .signer, .proxy, .metricsPush, .endpoint, .keyFile].map { (naming.name($0), $0.argumentKind) }) { first, _ in first }
    }
}

/// Where a setting's value came from.
public enum SettingSource: Sendable, Equatable {
    case flag
    case variable(String)
}

/// The values of one command's settings: the flags it was given, over the process's variables.
public struct SettingValues: Sendable {
    /// The flags given, by setting, as typed (paths, names, URLs).
    public var flags: [Setting: String]
    /// The environment a flag chose (`--sandbox`, `--production`): a value, not text to parse again.
    public var environmentFlag: APNsEnvironment?
    public let environment: EnvironmentVariables
    /// How the program that read these settings names them (pushctl: its flags), for what the
    /// engine shows as text of its own (a resume command, a dry run, a key's source).
    public var naming: SettingNaming

    public init(
        flags: [Setting: String] = [:], environmentFlag: APNsEnvironment? = nil, environment: EnvironmentVariables, naming: SettingNaming = .plain
    ) {
        self.flags = flags
        self.environmentFlag = environmentFlag
        self.environment = environment
        self.naming = naming
    }

    /// Whether a flag gave `setting`.
    func flagged(_ setting: Setting) -> Bool { flags[setting] != nil || (setting == .environment && environmentFlag != nil) }

    /// The value and where it came from, by the table's rule; nil when neither gives one.
    public func given(_ setting: Setting) -> (value: String, source: SettingSource)? {
        if let flag = flags[setting] { return (flag, .flag) }
        if setting == .environment, let environmentFlag { return (environmentFlag.rawValue, .flag) }
        guard let name = setting.variable, let value = environment[name], !value.isEmpty else { return nil }
        if Setting.whereSettings.contains(setting), Setting.whereSettings.contains(where: flagged) { return nil }
        if Setting.credentialChoices.contains(setting), flags.keys.contains(where: Setting.credentialChoices.contains) { return nil }
        return (value, .variable(name))
    }

    public func value(_ setting: Setting) -> String? { given(setting)?.value }

    /// How a message names where `setting` came from: its flag, or the variable that gave it.
    public func sourceName(_ setting: Setting) -> String {
        switch given(setting)?.source {
        case .variable(let name)?: name
        default: naming.name(setting)
        }
    }

    /// The way to authenticate the settings choose: the one credential setting given, or nil.
    /// Two given by variables (no flag chose) is a usage error naming both. Decided once by each
    /// way in (`Credentials.resolve`, `SigningKey.identity`…) and handed to what reads the key.
    public func credentialChoice() throws(InputError) -> CredentialChoice? {
        let chosen = Setting.credentialChoices.filter { given($0) != nil }
        guard chosen.count > 1 else { return chosen.first.map(choice) }
        if chosen.contains(where: { flags[$0] != nil }) {
            throw InputError(CredentialProblem.severalChoices(settings: chosen), kind: .usage)
        }
        throw InputError(CredentialProblem.severalVariables(variables: chosen.compactMap(\.variable), settings: chosen), kind: .usage)
    }

    /// The choice `setting` (one of `Setting.credentialChoices`, given) makes.
    private func choice(_ setting: Setting) -> CredentialChoice {
        let value = self.value(setting) ?? ""
        switch setting {
        case .keyFile: return PKCS11URI(value).map(CredentialChoice.tokenKey) ?? .keyFile(value)
        case .key: return .environmentKey
        case .signer: return .signer(value)
        case .jwt: return .providerToken
        default: return .certificate
        }
    }
}

/// How the settings say a run authenticates, decided once and handed to what reads the key, the
/// token or the certificate.
public enum CredentialChoice: Sendable, Equatable {
    /// A `.p8` file (`--key-file PATH`).
    case keyFile(String)
    /// A key in a PKCS#11 token (`--key-file pkcs11:…`).
    case tokenKey(PKCS11URI)
    /// The key's PEM itself, in `PUSHCTL_KEY`.
    case environmentKey
    /// An external signer (`--signer COMMAND`).
    case signer(String)
    /// A provider token made elsewhere (`--jwt`).
    case providerToken
    /// A client certificate (`--cert`).
    case certificate

    /// A key with no file, so no file name to take its id from: `PUSHCTL_KEY`'s, or a signer's.
    public var keyHasNoFile: Bool {
        switch self {
        case .environmentKey, .signer: true
        case .keyFile, .tokenKey, .providerToken, .certificate: false
        }
    }

    /// Whether the provider token is signed here, by a key of one of the four kinds.
    public var signsTokens: Bool {
        switch self {
        case .keyFile, .tokenKey, .environmentKey, .signer: true
        case .providerToken, .certificate: false
        }
    }
}

/// The variables of pushctl's that say nothing: one set but empty, and one a slip away from a
/// name pushctl reads (`PUSHCTL_KEYFILE`). Each is ignored, and said, so that the error that
/// follows ("missing --key-file") is understood.
public enum VariableCheck {
    public static func warnings(_ environment: EnvironmentVariables) -> [Words] {
        var warnings: [Words] = []
        for name in Setting.variables where name != "PUSHCTL_LANG" && environment[name]?.isEmpty == true {
            warnings.append(
                Words(
                    "\(name) is set but empty; it is ignored (unset it, or give it a value)",
                    es: "\(name) está definida pero vacía; se ignora (elimínala o dale un valor)"))
        }
        // Only a name that starts PUSHCTL_ in any case is looked at (a single push reads ~30 others).
        let ours = environment.names(startingWith: "PUSHCTL_").filter { $0.utf8.count > 8 }
        for name in ours.sorted() {
            guard let meant = meant(name) else { continue }
            let shown = OutsideText.display(name, limit: 60)
            warnings.append(
                Words(
                    "\(shown) is set, but pushctl reads \(meant); \(shown) is ignored",
                    es: "\(shown) está definida, pero pushctl lee \(meant); \(shown) se ignora"))
        }
        return warnings
    }

    /// The variable pushctl reads that `name` is one slip from: underscores (`PUSHCTL_KEYFILE`),
    /// case, a name cut short (`PUSHCTL_TEAM`), or one letter (`PUSHCTL_TOPICS`). A name further
    /// from all of them (a script's own `PUSHCTL_BIN`) is not pushctl's to judge.
    public static func meant(_ name: String) -> String? {
        let upper = name.uppercased()
        let read = Setting.variables
        guard upper.hasPrefix("PUSHCTL_"), !read.contains(name) else { return nil }
        let typed = Array(upper.dropFirst(8))
        let ours = read.map { (name: $0, rest: Array($0.dropFirst(8))) }
        if upper != name, let same = ours.first(where: { $0.rest == typed }) { return same.name }
        if let same = ours.first(where: { $0.rest.filter { $0 != "_" } == typed.filter { $0 != "_" } }) { return same.name }
        let longer = ours.filter { $0.rest.starts(with: typed + ["_"]) }
        if longer.count == 1 { return longer[0].name }
        let near = ours.filter { EditDistance.between(typed, $0.rest) == 1 }
        return near.count == 1 ? near[0].name : nil
    }
}
