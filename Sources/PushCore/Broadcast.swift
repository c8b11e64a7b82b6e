/// Broadcast push (iOS 18): Live Activity updates sent once to a channel that any number of
/// devices subscribed to, and the channel management API that makes those channels.
public enum BroadcastAPI {
    /// Broadcast payloads may be larger than device pushes'.
    public static let payloadLimit = 5120
    /// Apple's limit on channels per app and environment.
    public static let channelLimit = 10_000

    public enum StoragePolicy: String, CaseIterable, Sendable {
        /// Nothing kept for devices that are offline (policy 0; the higher send budget).
        case none
        /// The latest message kept up to 8 hours (policy 1).
        case latest

        public var code: Int64 { self == .none ? 0 : 1 }
        public init?(code: Int64) {
            switch code {
            case 0: self = .none
            case 1: self = .latest
            default: return nil
            }
        }
    }

    /// The bundle id as the paths want it: a topic with a push-type suffix is refused (APNs
    /// would answer TopicDisallowed).
    public static func bundleID(_ topic: String, name: String) throws(InputError) -> String {
        try HeaderValue.check(topic, name: name, limit: PushTemplate.topicLimit)
        guard !topic.isEmpty, topic.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: "%") }) else {
            throw InputError(Words("\(name) '\(OutsideText.display(topic))' is not a bundle id", es: "\(name) '\(OutsideText.display(topic))' no es un bundle id"), hint: Words("use your app's bundle id, e.g. com.example.app", es: "usa el bundle id de tu app, p. ej. com.example.app"))
        }
        if let type = PushType.allCases.first(where: { $0.topicSuffix.map(topic.hasSuffix) ?? false }) {
            throw InputError(Words("\(name) '\(OutsideText.display(topic))' carries the \(type.rawValue) push type's suffix; broadcasts and channels take the bare bundle id (APNs answers TopicDisallowed)", es: "\(name) '\(OutsideText.display(topic))' lleva el sufijo del tipo \(type.rawValue); las difusiones y los canales llevan el bundle id sin más (APNs responde TopicDisallowed)"),
                             hint: Words("use \(topic.dropLast(type.topicSuffix!.count))", es: "usa \(topic.dropLast(type.topicSuffix!.count))"))
        }
        return topic
    }

    /// A channel id as `channel create` printed it: base64, bounded.
    public static func channelID(_ text: String, name: String) throws(InputError) -> String {
        try HeaderValue.check(text, name: name, limit: 256)
        let base64 = text.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard !text.isEmpty, base64 else {
            throw InputError(Words("\(name) '\(OutsideText.display(text, limit: 80))' is not a channel id (base64, as `pushctl channel create` prints it)", es: "\(name) '\(OutsideText.display(text, limit: 80))' no es un id de canal (base64, tal como lo imprime `pushctl channel create`)"),
                             hint: Words("pushctl channel list shows the app's channel ids", es: "pushctl channel list muestra los ids de canal de la app"))
        }
        return text
    }

    static func requestIDHeader(_ requestID: String?) -> [(String, String)] {
        requestID.map { [("apns-request-id", $0.lowercased())] } ?? []
    }

    static func checkRequestID(_ requestID: String?, name: String) throws(InputError) {
        if let requestID, !PushTemplate.isCanonicalUUID(requestID) {
            throw InputError(Words("\(name) '\(OutsideText.display(requestID))' is not a UUID", es: "\(name) '\(OutsideText.display(requestID))' no es un UUID"), hint: Words("use the 8-4-4-4-12 hex form, or leave it out", es: "usa la forma hexadecimal 8-4-4-4-12, o quítalo"))
        }
    }

    // MARK: Channel management (api-manage-broadcast…, ports 2195 and 2196)

    public enum ChannelCall: Sendable, Equatable {
        case create(StoragePolicy)
        case list
        case read(channelID: String)
        case delete(channelID: String)

        /// The call as a result names it (`"call"` in json): "create", "list", "read ID", "delete ID".
        public var label: String {
            switch self {
            case .create: return "create"
            case .list: return "list"
            case let .read(id): return "read \(id)"
            case let .delete(id): return "delete \(id)"
            }
        }
    }

    /// The request for one channel management call.
    public static func channelRequest(_ call: ChannelCall, bundleID: String, requestID: String?) throws(InputError) -> PushRequest {
        try checkRequestID(requestID, name: Setting.requestID.description)
        let base = "/1/apps/" + bundleID
        switch call {
        case let .create(storage):
            let body = JSONValue.object([("message-storage-policy", .integer(storage.code)), ("push-type", .string("LiveActivity"))]).compactBytes
            return PushRequest(path: base + "/channels", shape: RequestShape(method: .post, headers: requestIDHeader(requestID), body: RequestBody(body)))
        case .list:
            return PushRequest(path: base + "/all-channels", shape: RequestShape(method: .get, headers: requestIDHeader(requestID), body: nil))
        case let .read(id):
            return PushRequest(path: base + "/channels", shape: RequestShape(method: .get, headers: [("apns-channel-id", id)] + requestIDHeader(requestID), body: nil))
        case let .delete(id):
            return PushRequest(path: base + "/channels", shape: RequestShape(method: .delete, headers: [("apns-channel-id", id)] + requestIDHeader(requestID), body: nil))
        }
    }
}

/// One broadcast (`send --channel-id`): the same Live Activity update for every channel given.
public struct BroadcastTemplate: Sendable {
    public let bundleID: String
    public let payload: Payload
    public let priority: Priority
    public let expiration: Int64
    /// Whether apns-expiration was chosen by pushctl (0) because none was given.
    public let expirationDefaulted: Bool
    public let requestID: String?
    public let warnings: [Words]

    /// `spec.topic` is the bundle id (no suffix); the push type is always liveactivity.
    public init(_ spec: PushSpec, payload: Payload, requestID: String?) throws(InputError) {
        if let type = spec.pushType, type != PushType.liveactivity.rawValue {
            throw InputError(Words("broadcasts are Live Activity updates: \(spec.name(.pushType)) must be liveactivity (or left out); got '\(OutsideText.display(type))'", es: "las difusiones son actualizaciones de Live Activity: \(spec.name(.pushType)) debe ser liveactivity (o no ponerse); se recibió '\(OutsideText.display(type))'"), kind: .usage)
        }
        bundleID = try BroadcastAPI.bundleID(spec.topic, name: spec.name(.topic))
        try BroadcastAPI.checkRequestID(requestID, name: Setting.requestID.description)
        self.requestID = requestID?.lowercased()
        if let given = spec.priority {
            guard let value = given.integer, let p = Priority(rawValue: Int(clamping: value)), p != .low else {
                throw InputError(Words("\(spec.name(.priority)) for a broadcast is 10 or 5; got '\(given.shown)'", es: "\(spec.name(.priority)) en una difusión es 10 o 5; se recibió '\(given.shown)'"))
            }
            priority = p
        } else {
            priority = .immediate
        }
        if let given = spec.expiration {
            guard let value = given.integer, value >= 0 else {
                throw InputError(Words("\(spec.name(.expiration)) must be UNIX seconds (0 or more); got '\(given.shown)'", es: "\(spec.name(.expiration)) va en segundos UNIX (0 o más); se recibió '\(given.shown)'"),
                                 hint: given.dateHint(name: spec.name(.expiration)))
            }
            expiration = value
            expirationDefaulted = false
        } else {
            expiration = 0
            expirationDefaulted = true
        }
        guard payload.bytes.count <= BroadcastAPI.payloadLimit else {
            let size = payload.bytes.count, over = payload.bytes.count - BroadcastAPI.payloadLimit
            throw InputError(Words("the payload is \(size) bytes, \(over) over APNs' limit of 5120 bytes for broadcasts",
                                   es: "la carga útil ocupa \(size) bytes, \(over) más que el límite de APNs de 5120 bytes para las difusiones"))
        }
        var warnings: [Words] = []
        if spec.lint {
            if payload.json["aps"]?["event"]?.stringValue == LiveActivityEvent.start.rawValue {
                throw InputError(Words("a broadcast cannot start a Live Activity (event start)", es: "una difusión no puede iniciar una Live Activity (event start)"),
                                 hint: Words("start it with a push-to-start to each device (\(Setting.liveActivity) start), then update it through the channel",
                                             es: "iníciala con un push-to-start a cada dispositivo (\(Setting.liveActivity) start), y luego actualízala por el canal"))
            }
            warnings = try LiveActivityLint.check(payload.json, priority: priority, now: spec.now).map(\.text)
        }
        if expirationDefaulted {
            warnings.append(Words("apns-expiration: 0, the default for broadcasts (deliver now or drop; a channel without storage takes nothing else); \(Setting.expiration) UNIX keeps it longer on a \(Setting.storage) latest channel",
                                  es: "apns-expiration: 0, lo predeterminado en las difusiones (se entrega ya o se descarta; un canal sin almacenamiento no admite otra cosa); \(Setting.expiration) UNIX la guarda más tiempo en un canal \(Setting.storage) latest"))
        }
        self.payload = payload
        self.warnings = warnings
    }

    /// The request for one channel.
    public func request(channelID: String) -> PushRequest {
        var headers: [(String, String)] = [
            ("apns-channel-id", channelID),
            (APNsHeader.pushType, PushType.liveactivity.rawValue),
            (APNsHeader.priority, String(priority.rawValue)),
            (APNsHeader.expiration, String(expiration)),
        ]
        headers += BroadcastAPI.requestIDHeader(requestID)
        return PushRequest(path: "/4/broadcasts/apps/" + bundleID, shape: RequestShape(method: .post, headers: headers, body: RequestBody(payload.bytes)))
    }
}

extension APNsEnvironment {
    /// The channel management host and port.
    public var channelManagementBaseURL: String {
        self == .sandbox ? "https://api-manage-broadcast.sandbox.push.apple.com:2195" : "https://api-manage-broadcast.push.apple.com:2196"
    }
}
