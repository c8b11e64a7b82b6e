/// What a user sets that the libraries' messages point at ("send it anyway with --no-lint"). The
/// libraries say which setting, never how it is spelled: words keep the setting until they are
/// said, and whoever says them names it (`SettingNaming`: pushctl's console by its flags, anyone
/// else by its plain name, APNs' own word for it or the library's). So no library string holds a
/// flag, and a library user's messages name what that user can change.
public enum Setting: String, CaseIterable, Sendable, CustomStringConvertible {
    case topic, pushType, priority, expiration, requestID, deviceToken
    case title, body, custom, liveActivity, noLint, storage
    case journal, resume, showSecrets, mockCA, requestsFile
    case mockPort, webViewPort, caPort, mockFailure
    // The mock's own files: its class's key folder, the CAs of client certificates, its CA's file.
    case mockKeyFolder, mockClientCA, mockCAOut
    // How a run authenticates and where it sends (each may come from a PUSHCTL_* variable too).
    case keyFile, keyID, teamID, jwt, noJWTCache, certificate, certificateKey, certificatePassword
    case key, signer, publicKey, pkcs11Module, cacheKey
    case environment, endpoint, port, caCertificate, proxy, proxyCredentials, cacheDirectory, language
    // What the hints of a failed connection and of `doctor` point at.
    case production, verbose, simulator, mockCAOutput
    // What `send` sends to, and with what.
    case tokensFile, payload, payloadJSON, apnsID
    // The app a notification is for (`--app`): what the phone will do with it.
    case app
    // A fleet of runs: which part of the list this one sends.
    case shard
    // A Live Activity's fields, a broadcast's channels, and what a command writes.
    case timestamp, staleDate, dismissalDate, relevanceScore, contentState, attributes, inputPushChannel, channelID
    case dryRun, simulatorFile, outputFolder, unregisteredOut, retryOut
    // How a send runs and what it adds, as options that may contradict one another (`OptionConflict`).
    case sandbox, skipInDoubt, metricsFile, metricsPush, detectEnvironment, connectTo, concurrency, connections, retries, timeout
    case collapseID, sound, noCollapseID, rate, spread, follow

    /// The plain name: no program's spelling (that is a `SettingNaming`'s to give).
    public var description: String { plainName }

    /// The domain's word for it, used where no program names it.
    public var plainName: String { Setting.plainNames[self] ?? rawValue }

    /// Each setting's plain name: APNs' word (a header, a payload key) or the library's.
    private static let plainNames: [Setting: String] = [
        .topic: "apns-topic",
        .pushType: "apns-push-type",
        .priority: "apns-priority",
        .expiration: "apns-expiration",
        .requestID: "apns-request-id",
        .deviceToken: "the device token",
        .title: "alert.title",
        .body: "alert.body",
        .custom: "a custom key",
        .liveActivity: "aps.event",
        .noLint: "PushSpec.lint = false",
        .storage: "message-storage-policy",
        .journal: "JournalSetting",
        .resume: "JournalSetting.resume",
        .showSecrets: "showSecrets",
        .mockCA: "the mock's CA certificate",
        .requestsFile: "a requests file",
        .mockPort: "MockAPNsConfiguration.port",
        .webViewPort: "the web view's port",
        .caPort: "the CA certificate's port",
        .mockFailure: "a failure",
        .mockKeyFolder: "MockSettings.keyDirectory",
        .mockClientCA: "MockSettings.clientCAPaths",
        .mockCAOut: "MockSettings.caOut",
        .keyFile: "the key file",
        .keyID: "the key id",
        .teamID: "the team id",
        .jwt: "the provider token",
        .noJWTCache: "no provider token cache",
        .key: "the key's PEM",
        .signer: "the external signer",
        .publicKey: "the signing key's public half",
        .pkcs11Module: "the PKCS#11 module",
        .cacheKey: "the provider token cache's key",
        .certificate: "the client certificate",
        .certificateKey: "the client certificate's key",
        .certificatePassword: "the client certificate's password",
        .environment: "the APNs environment",
        .endpoint: "the endpoint",
        .port: "the port",
        .caCertificate: "the CA certificate",
        .proxy: "the proxy",
        .proxyCredentials: "the proxy's credentials",
        .cacheDirectory: "the cache directory",
        .language: "the language",
        .production: "APNsEnvironment.production",
        .verbose: "ConnectionSettings.trace",
        .simulator: "a Simulator device",
        .mockCAOutput: "the mock's CA file",
        .tokensFile: "a tokens file",
        .payload: "the payload file",
        .payloadJSON: "the payload's JSON",
        .apnsID: "apns-id",
        .app: "the app",
        .shard: "the shard",
        .timestamp: "aps.timestamp",
        .staleDate: "aps.stale-date",
        .dismissalDate: "aps.dismissal-date",
        .relevanceScore: "aps.relevance-score",
        .contentState: "aps.content-state",
        .attributes: "aps.attributes",
        .inputPushChannel: "aps.input-push-channel",
        .channelID: "the channel id",
        .dryRun: "a dry run",
        .simulatorFile: "the Simulator file",
        .outputFolder: "the output folder",
        .unregisteredOut: "the unregistered tokens' file",
        .retryOut: "the file of tokens to retry",
        .sandbox: "APNsEnvironment.sandbox",
        .skipInDoubt: "JournalSetting.skipInDoubt",
        .metricsFile: "the metrics file",
        .metricsPush: "the Pushgateway URL",
        .detectEnvironment: "SendPlan.detectEnvironment",
        .connectTo: "ConnectionSettings.connectTo",
        .concurrency: "ConnectionSettings.concurrency",
        .connections: "ConnectionSettings.connections",
        .retries: "RetryPolicy.maxRetries",
        .timeout: "RetryPolicy.requestTimeout",
        .collapseID: "apns-collapse-id",
        .sound: "aps.sound",
        .noCollapseID: "JournalSetting.collapseIDs = false",
        .rate: "the rate",
        .spread: "the spread",
        .follow: "following the input",
    ]
}

/// How words name the settings they point at: a program's own spellings (pushctl's flags), else
/// each setting's plain name (APNs' word or the library's). A value held by whoever says the
/// words, never a global: the same words name `--topic` to pushctl's user and `apns-topic` to a
/// library caller.
public struct SettingNaming: Sendable, Hashable {
    private let names: [Setting: String]

    public init(_ names: [Setting: String]) { self.names = names }

    /// Every setting by its plain name: what a library caller reads.
    public static let plain = SettingNaming([:])

    public func name(_ setting: Setting) -> String { names[setting] ?? setting.plainName }
}

extension Setting {
    /// The variable that gives this setting when its flag is not given, if one does.
    public var variable: String? {
        switch self {
        case .keyFile: "PUSHCTL_KEY_FILE"
        case .keyID: "PUSHCTL_KEY_ID"
        case .teamID: "PUSHCTL_TEAM_ID"
        case .jwt: "PUSHCTL_JWT"
        case .certificate: "PUSHCTL_CERT"
        case .certificatePassword: "PUSHCTL_CERT_PASSWORD"
        case .topic: "PUSHCTL_TOPIC"
        case .environment: "PUSHCTL_ENV"
        case .endpoint: "PUSHCTL_ENDPOINT"
        case .caCertificate: "PUSHCTL_CACERT"
        case .proxy: "PUSHCTL_PROXY"
        case .cacheDirectory: "PUSHCTL_CACHE_DIR"
        case .language: "PUSHCTL_LANG"
        case .key: "PUSHCTL_KEY"
        case .signer: "PUSHCTL_SIGNER"
        case .pkcs11Module: "PUSHCTL_PKCS11_MODULE"
        case .cacheKey: "PUSHCTL_CACHE_KEY"
        case .metricsPush: "PUSHCTL_METRICS_PUSH"
        case .app: "PUSHCTL_APP"
        default: nil
        }
    }
}
