/// What a user sets that the libraries' messages point at ("send it anyway with --no-lint"). The
/// libraries say which setting, never how it is spelled: its name defaults to APNs' own word for
/// it (a header, a payload key) or the library's, and the program that reads the settings names
/// them once at start (`pushctl` names its flags: `Setting.name(_:)`). So no library string holds
/// a flag, and a library user's messages name what that user can change.
public enum Setting: String, CaseIterable, Sendable, CustomStringConvertible {
    case topic, pushType, priority, expiration, requestID, deviceToken
    case title, body, custom, liveActivity, noLint, storage
    case journal, resume, showSecrets, mockCA, requestsFile
    case mockPort, webViewPort, caPort, mockFailure
    // How a run authenticates and where it sends (each may come from a PUSHCTL_* variable too).
    case keyFile, keyID, teamID, jwt, noJWTCache, certificate, certificateKey, certificatePassword
    case key, signer, publicKey, pkcs11Module, cacheKey
    case environment, endpoint, port, caCertificate, proxy, proxyCredentials, cacheDirectory, language
    // What the hints of a failed connection and of `doctor` point at.
    case production, verbose, simulator, mockCAOutput
    // What `send` sends to, and with what.
    case tokensFile, payload, payloadJSON, apnsID
    // A fleet of runs: which part of the list this one sends.
    case shard
    // A Live Activity's fields, a broadcast's channels, and what a command writes.
    case timestamp, staleDate, dismissalDate, relevanceScore, contentState, attributes, inputPushChannel, channelID
    case dryRun, simulatorFile, outputFolder, unregisteredOut, retryOut
    // How a send runs and what it adds, as options that may contradict one another (`OptionConflict`).
    case sandbox, skipInDoubt, metricsFile, metricsPush, detectEnvironment, connectTo, concurrency, connections, retries, timeout
    case collapseID, sound

    /// The name a message uses: the program's, else the domain's.
    public var description: String { Setting.names[self] ?? plainName }

    /// The domain's word for it, used until a program names it.
    public var plainName: String {
        switch self {
        case .topic: return "apns-topic"
        case .pushType: return "apns-push-type"
        case .priority: return "apns-priority"
        case .expiration: return "apns-expiration"
        case .requestID: return "apns-request-id"
        case .deviceToken: return "the device token"
        case .title: return "alert.title"
        case .body: return "alert.body"
        case .custom: return "a custom key"
        case .liveActivity: return "aps.event"
        case .noLint: return "PushSpec.lint = false"
        case .storage: return "message-storage-policy"
        case .journal: return "JournalSetting"
        case .resume: return "JournalSetting.resume"
        case .showSecrets: return "showSecrets"
        case .mockCA: return "the mock's CA certificate"
        case .requestsFile: return "a requests file"
        case .mockPort: return "MockAPNsConfiguration.port"
        case .webViewPort: return "the web view's port"
        case .caPort: return "the CA certificate's port"
        case .mockFailure: return "a failure"
        case .keyFile: return "the key file"
        case .keyID: return "the key id"
        case .teamID: return "the team id"
        case .jwt: return "the provider token"
        case .noJWTCache: return "no provider token cache"
        case .key: return "the key's PEM"
        case .signer: return "the external signer"
        case .publicKey: return "the signing key's public half"
        case .pkcs11Module: return "the PKCS#11 module"
        case .cacheKey: return "the provider token cache's key"
        case .certificate: return "the client certificate"
        case .certificateKey: return "the client certificate's key"
        case .certificatePassword: return "the client certificate's password"
        case .environment: return "the APNs environment"
        case .endpoint: return "the endpoint"
        case .port: return "the port"
        case .caCertificate: return "the CA certificate"
        case .proxy: return "the proxy"
        case .proxyCredentials: return "the proxy's credentials"
        case .cacheDirectory: return "the cache directory"
        case .language: return "the language"
        case .production: return "APNsEnvironment.production"
        case .verbose: return "ConnectionSettings.trace"
        case .simulator: return "a Simulator device"
        case .mockCAOutput: return "the mock's CA file"
        case .tokensFile: return "a tokens file"
        case .payload: return "the payload file"
        case .payloadJSON: return "the payload's JSON"
        case .apnsID: return "apns-id"
        case .shard: return "the shard"
        case .timestamp: return "aps.timestamp"
        case .staleDate: return "aps.stale-date"
        case .dismissalDate: return "aps.dismissal-date"
        case .relevanceScore: return "aps.relevance-score"
        case .contentState: return "aps.content-state"
        case .attributes: return "aps.attributes"
        case .inputPushChannel: return "aps.input-push-channel"
        case .channelID: return "the channel id"
        case .dryRun: return "a dry run"
        case .simulatorFile: return "the Simulator file"
        case .outputFolder: return "the output folder"
        case .unregisteredOut: return "the unregistered tokens' file"
        case .retryOut: return "the file of tokens to retry"
        case .sandbox: return "APNsEnvironment.sandbox"
        case .skipInDoubt: return "JournalSetting.skipInDoubt"
        case .metricsFile: return "the metrics file"
        case .metricsPush: return "the Pushgateway URL"
        case .detectEnvironment: return "SendPlan.detectEnvironment"
        case .connectTo: return "ConnectionSettings.connectTo"
        case .concurrency: return "ConnectionSettings.concurrency"
        case .connections: return "ConnectionSettings.connections"
        case .retries: return "RetryPolicy.maxRetries"
        case .timeout: return "RetryPolicy.requestTimeout"
        case .collapseID: return "apns-collapse-id"
        case .sound: return "aps.sound"
        }
    }

    /// Names the settings as this program spells them; called once at start, before any message
    /// is made (the table is read without a lock afterwards).
    public static func name(_ names: [Setting: String]) { Setting.names = names }

    nonisolated(unsafe) private static var names: [Setting: String] = [:]
}
