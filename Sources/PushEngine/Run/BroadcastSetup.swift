public import PushCore
import PushCurl
import PushFiles
public import PushWords

extension Credentials {
    /// --topic, PUSHCTL_TOPIC, or the certificate's bundle id: the app of a channel call or broadcast.
    func app(_ values: SettingValues) throws(InputError) -> String {
        guard let topic = values.value(.topic) ?? certificate?.certificate.uid else {
            throw InputError(RunInputProblem.missingChannelTopic, kind: .usage)
        }
        return topic
    }

    /// The connection to `destination` as the settings say: their proxy, this certificate.
    func connection(
        _ given: ConnectionSettings, to destination: Destination, _ values: SettingValues,
        proxyCredentialsFile: String?
    ) throws(InputError) -> ConnectionSettings {
        try requireEnvironment(destination.environment)
        var connection = given
        try ProxyPolicy(values, credentialsFile: proxyCredentialsFile).apply(to: &connection)
        connection.clientCertificate = clientCertificate
        return connection
    }
}

/// `send --channel-id ID …` (iOS 18 broadcasts): one payload POSTed to each channel, read and
/// checked before anything is sent, as the engine's plan.
public struct BroadcastSetup {
    public let plan: SendPlan
    public let warnings: [Words]
    /// `--dry-run`: the first request as it would go out.
    public let dryRunLines: [String]

    public init(_ o: SendOptions) throws(InputError) {
        let credentials = try Credentials.resolve(o.settings, o.credentials)
        let now = WallClock.now()
        let (payload, _) = try SendSetup.payload(o.payload, now: now, naming: o.settings.naming)
        var spec = PushSpec(
            topic: try credentials.app(o.settings), pushType: o.pushType, priority: o.priority, expiration: o.expiration,
            name: o.fieldName)
        spec.lint = o.lint
        spec.now = now
        let template = try BroadcastTemplate(spec, payload: payload, requestID: o.requestID, requestIDName: o.settings.naming.name(.requestID))
        var channels: [String] = []
        for id in o.channelIDs {
            let checked = try BroadcastAPI.channelID(id, name: o.settings.naming.name(.channelID))
            if !channels.contains(checked) { channels.append(checked) }
        }
        let destination = try Destination.resolve(o.settings, service: .push, port: o.port)
        var connection = try credentials.connection(o.connection, to: destination, o.settings, proxyCredentialsFile: o.proxyCredentialsFile)
        (connection.concurrency, connection.connections) = (1, 1)
        warnings = template.warnings.map(\.words)
        plan = SendPlan(
            notifications: .broadcast(template, channels: channels), destination: destination, connection: connection,
            authorization: credentials.authorization, policy: o.policy)

        let request = template.request(channelID: channels[0])
        var out = ["\(request.shape.method.rawValue) \(destination.baseURL)\(request.path)"]
        out.append(
            credentials.certificatePath != nil ? "(no authorization header: the client certificate authenticates)" : "authorization: bearer [JWT redacted]")
        out += request.shape.headerLines
        out += ["", String(decoding: payload.bytes, as: UTF8.self), ""]
        if channels.count > 1 { out.append("… and the same to \(channels.count - 1) more channel(s)") }
        out.append("\(payload.bytes.count) bytes of payload (limit \(BroadcastAPI.payloadLimit)); nothing was sent (\(o.settings.naming.name(.dryRun))).")
        dryRunLines = out
    }
}

/// A call to Apple's channel API (create, list, read, delete a broadcast channel), as a run of
/// one through the same engine.
public enum ChannelCallSetup {
    public static func plan(
        _ call: BroadcastAPI.ChannelCall, _ values: SettingValues, credentials options: CredentialOptions, requestID: String?,
        connection: ConnectionSettings, policy: RetryPolicy
    ) throws(InputError) -> SendPlan {
        let credentials = try Credentials.resolve(values, options)
        let bundle = try BroadcastAPI.bundleID(try credentials.app(values), name: values.naming.name(.topic))
        let request = try BroadcastAPI.channelRequest(call, bundleID: bundle, requestID: requestID, requestIDName: values.naming.name(.requestID))
        let destination = try Destination.resolve(values, service: .channels)
        return SendPlan(
            notifications: .channelCall(call, request), destination: destination,
            connection: try credentials.connection(connection, to: destination, values, proxyCredentialsFile: nil),
            authorization: credentials.authorization, policy: policy)
    }

    /// What an accepted call gave, read from Apple's answer: the text for stdout (a created
    /// channel's id, the ids listed, one channel's policy), a note for people, and the members
    /// `--output json` adds. `bundle` is the app as shown.
    public static func describe(_ call: BroadcastAPI.ChannelCall, _ result: PushResult, bundle: String) -> (
        text: [String], note: Words?, json: [(String, JSONValue)]
    ) {
        let json = try? JSONValue.parse(result.channelAnswer?.body ?? [])
        switch call {
        case .create(let policy):
            let id = result.channelAnswer?.channelID ?? ""
            return (
                [id],
                Words(
                    "created channel \(id) (storage \(policy.rawValue)) for \(bundle)",
                    es: "canal \(id) creado (almacenamiento \(policy.rawValue)) para \(bundle)"),
                [("channelId", .string(id)), ("storage", .string(policy.rawValue)), ("messageStoragePolicy", .integer(policy.code))]
            )
        case .list:
            var items: [JSONValue] = []
            if case .array(let listed)? = json?["channels"] { items = listed }
            let ids = items.prefix(BroadcastAPI.channelLimit).compactMap { $0.stringValue.map { OutsideText.display($0, limit: 256) } }
            return (
                ids,
                Words("\(ids.count) channel\(ids.count == 1 ? "" : "s") for \(bundle)", es: "\(ids.count) canal\(ids.count == 1 ? "" : "es") para \(bundle)"),
                [("channels", .array(ids.map(JSONValue.string)))]
            )
        case .read(let id):
            let code = json?["message-storage-policy"]?.integerValue
            let storage = code.flatMap(BroadcastAPI.StoragePolicy.init(code:))?.rawValue ?? "unknown"
            let type = json?["push-type"]?.stringValue.map { OutsideText.display($0, limit: 40) } ?? "unknown"
            return (
                ["\(id)  storage \(storage) (message-storage-policy \(code.map(String.init) ?? "?")), push type \(type)"], nil,
                [
                    ("channelId", .string(id)), ("storage", .string(storage)), ("messageStoragePolicy", code.map(JSONValue.integer) ?? .null),
                    ("pushType", .string(type)),
                ]
            )
        case .delete(let id):
            return ([], Words("deleted channel \(id)", es: "canal \(id) borrado"), [("channelId", .string(id)), ("deleted", .bool(true))])
        }
    }
}
