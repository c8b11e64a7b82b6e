public import PushCore
public import PushCrypto
import PushFiles
public import PushWords

/// Where a send's payload comes from.
public enum PayloadInput {
    /// A file, or `-` for standard input: sent byte for byte.
    case file(String)
    /// JSON given inline.
    case json(String)
    /// Built from the caller's fields (`PayloadBuilder`, `LiveActivityBuilder`), at the run's "now".
    case built((Int64) throws(InputError) -> Payload)
}

/// Everything a send is given — by a command line, a script or a library caller — before any of
/// it is read or checked: the settings (flags over `PUSHCTL_*`), the recipients, the payload, the
/// headers as given, and how hard to try.
public struct SendOptions {
    public var settings: SettingValues
    public var credentials = CredentialOptions()

    public var deviceTokens: [String] = []
    public var tokensFile: String?
    public var requestsFile: String?
    /// `K/N`, or `auto`/`auto/N` (a job engine's variables say it): this machine's share of the recipients.
    public var shard: String?

    public var payload: PayloadInput?
    /// The header fields (nil: the payload's push type, the push type's priority, APNs' storage;
    /// a command line turns what was typed into these with `PushSpec.pushType(given:name:)` and its
    /// siblings). In a requests file they are the lines' defaults.
    public var pushType: PushType?
    public var priority: Priority?
    public var collapseID: String?
    /// UNIX seconds; 0 = deliver once or drop.
    public var expiration: Int64?
    public var apnsID: String?
    /// Refuse what a device would drop (the Live Activity lint).
    public var lint = true
    /// How a message names a request field (the command line names its flags).
    public var fieldName: @Sendable (PushField) -> String = { $0.rawValue }

    /// Apple's port, 443 or 2197.
    public var port: Int?
    public var proxyCredentialsFile: String?
    public var connection = ConnectionSettings()
    public var policy = RetryPolicy()
    public var detectEnvironment = false
    /// `--rate`: requests a second; `--spread`: seconds to spread the notifications over (the rate
    /// is then their count over it).
    public var rate: Double?
    public var spread: Double?
    /// `--follow`: the tokens or requests file is read as its lines arrive.
    public var follow = false
    /// `--journal` (the run keeps it; a requests file is then read with its digest), and
    /// `--unregistered-out`: output files that must not be the input being sent.
    public var journal: JournalSetting?
    public var unregisteredOut: String?
    /// A broadcast's channels (`BroadcastSetup`) and its apns-request-id.
    public var channelIDs: [String] = []
    public var requestID: String?

    public init(settings: SettingValues) { self.settings = settings }
}

/// A send read and checked before anything is sent: the engine's plan, and what a dry run shows
/// besides (the payload's file, the proxy, the certificate's files). Any problem throws, and
/// nothing is sent.
public struct SendSetup {
    public let plan: SendPlan
    /// The payload's file, when it came from one (a dry run's curl command reads it there).
    public let payloadFile: String?
    public let proxy: ProxyPolicy
    public let certificate: ClientIdentity?
    public let certificatePath: String?
    public let certificateKeyPath: String?
    /// What the user should hear before anything is sent (repeats skipped, unusual tokens, lint).
    public let warnings: [Words]
    /// The shard sent, and where it came from (`auto`: a job engine's variables).
    public let shardChoice: ShardChoice?

    public var notifications: NotificationSource { plan.notifications }
    public var template: PushTemplate? { plan.notifications.template }

    public init(_ options: SendOptions) throws(InputError) {
        let values = options.settings
        // A certificate is read first: its UID is the default topic. A key is read last, so that a
        // mistake in what is sent is said before one in how it is signed.
        let choice = try values.credentialChoice()
        if choice != .certificate { try CertificateCredential.refuseStrayFlags(values) }
        let certificateCredentials = choice == .certificate ? try Credentials.resolve(values, choice: choice, options.credentials) : nil
        certificate = certificateCredentials?.certificate
        certificatePath = certificateCredentials?.certificatePath
        certificateKeyPath = certificate == nil ? nil : values.flags[.certificateKey]
        let topic = values.value(.topic) ?? certificate?.certificate.defaultTopic
        if topic == nil, let certificate, options.requestsFile == nil {
            let topics = certificate.certificate.allowedTopics.map { OutsideText.display($0, limit: 120) }
            throw InputError(CredentialProblem.certificateTopicNeeded(topics: topics), kind: .usage)
        }
        shardChoice = try options.shard.map { text throws(InputError) in try ShardChoice(parsing: text, environment: values.environment) }
        let recipients = try SendSetup.notifications(options, topic: topic, shard: shardChoice?.shard, certificate: certificate)
        payloadFile = recipients.payloadFile
        warnings = recipients.warnings
        let destination = try Destination.resolve(values, service: .push, port: options.port)
        try certificateCredentials?.requireEnvironment(destination.environment)
        proxy = try ProxyPolicy(values, credentialsFile: options.proxyCredentialsFile)
        let credentials: Credentials
        if let certificateCredentials {
            credentials = certificateCredentials
        } else {
            credentials = try Credentials.resolve(values, choice: choice, options.credentials)
        }
        var connection = options.connection
        proxy.apply(to: &connection)
        connection.clientCertificate = credentials.clientCertificate
        var plan = SendPlan(
            notifications: recipients.source, destination: destination, connection: connection,
            authorization: credentials.authorization, policy: options.policy)
        plan.detectEnvironment = options.detectEnvironment
        // A spread shorter than the list allows is as fast as the fastest rate taken, no faster.
        plan.rate = options.rate ?? options.spread.map { min(1_000_000, Double(max(1, recipients.source.count)) / $0) }
        plan.likelyCauses = credentials.likelyCauses
        plan.journal = options.journal
        self.plan = plan
    }

    /// The notifications: a requests file's lines, or one template to the tokens; the payload's file
    /// and the warnings choosing them raised.
    static func notifications(
        _ o: SendOptions, topic: String?, shard: Shard?,
        certificate: ClientIdentity?
    ) throws(InputError) -> (source: NotificationSource, payloadFile: String?, warnings: [Words]) {
        let now = WallClock.now()
        if let path = o.requestsFile {
            // Each line carries token and payload; the header values given are defaults for the lines.
            var defaults = PushSpec(
                topic: topic ?? "", pushType: o.pushType, priority: o.priority, collapseID: o.collapseID, expiration: o.expiration,
                name: o.fieldName)
            defaults.lint = o.lint
            defaults.now = now
            if o.follow { return (.follow(try FollowInput(path, requests: defaults, shard: shard)), nil, []) }
            // A journal tells its run by the lines' digest; without one, no line is hashed.
            let file = try RequestsFile(path, defaults: defaults, shard: shard, digesting: o.journal != nil)
            try refuseOverwriting(file.file, role: .requestsFile, with: [o.unregisteredOut, o.journal?.path])
            return (.requests(file), nil, [])
        }
        guard let topic else {
            throw InputError(RunInputProblem.missingTopic, kind: .usage)
        }
        if o.deviceTokens.isEmpty && o.tokensFile == nil {
            throw InputError(RunInputProblem.missingDeviceToken, kind: .usage)
        }
        let (payload, payloadFile) = try SendSetup.payload(o.payload, now: now, naming: o.settings.naming)
        var spec = PushSpec(
            topic: topic, pushType: o.pushType, priority: o.priority, collapseID: o.collapseID, expiration: o.expiration,
            apnsID: o.apnsID, name: o.fieldName)
        spec.lint = o.lint
        spec.now = now
        let template = try PushTemplate(spec, payload: payload)
        if let problem = certificate?.certificate.refusal(topic: template.topic, pushType: template.pushType) {
            throw InputError(CredentialProblem.certificateRefuses(problem))
        }
        let source: NotificationSource
        var chosenWarnings: [Words] = []
        if let path = o.tokensFile, o.follow {
            source = .follow(try FollowInput(path, template: template, shard: shard))
        } else if let path = o.tokensFile {
            let file = try DeviceTokenFile(path, shard: shard)
            try refuseOverwriting(file.file, role: .tokensFile, with: [o.unregisteredOut, o.journal?.path])
            source = .file(template, file)
        } else {
            let chosen = try NotificationSource.tokens(o.deviceTokens, template: template, shard: shard)
            source = chosen.0
            chosenWarnings = chosen.warnings
        }
        if o.apnsID != nil && source.count > 1 {
            throw InputError(RunInputProblem.apnsIDForSeveral(count: source.count))
        }
        return (source, payloadFile, source.templateWarnings + chosenWarnings)
    }

    /// The payload and the file it came from (for the equivalent curl command).
    public static func payload(_ input: PayloadInput?, now: Int64, naming: SettingNaming = .plain) throws(InputError) -> (Payload, String?) {
        switch input {
        case .file(let path)?:
            let bytes: [UInt8]
            do { bytes = try InputFiles.read(path, what: .payloadFile) } catch {
                // The JSON itself where its file belongs: a first-hour mix-up, said by name.
                guard error.kind == .missingInput, let first = path.first(where: { !$0.isWhitespace }), first == "{" || first == "[" else { throw error }
                throw InputError(RunInputProblem.payloadFileIsJSON(shown: OutsideText.display(path, limit: 40)), kind: .usage)
            }
            return (
                try Payload(bytes: bytes, source: path), path == "-" ? nil : path
            )
        case .json(let text)?:
            return (try Payload(bytes: Array(text.utf8), source: naming.name(.payloadJSON)), nil)
        case .built(let build)?:
            return (try build(now), nil)
        case nil:
            throw InputError(RunInputProblem.missingPayload, kind: .usage)
        }
    }

    /// A results file or journal must not name the file being sent: writing it would destroy the list.
    static func refuseOverwriting(_ input: CheckedLineFile, role: FileRole, with outputs: [String?]) throws(InputError) {
        for case let output? in outputs where input.isSameFile(as: output) {
            throw InputError(RunInputProblem.outputIsInput(shown: OutsideText.display(output, limit: 200), input: role), kind: .usage)
        }
    }
}
