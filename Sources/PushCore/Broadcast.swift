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
        guard !topic.isEmpty,
            topic.utf8.allSatisfy({
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: "%")
            })
        else {
            throw InputError(HeaderProblem.notABundleID(name: name, shown: OutsideText.display(topic)))
        }
        if let type = PushType.allCases.first(where: { $0.topicSuffix.map(topic.hasSuffix) ?? false }) {
            throw InputError(
                BroadcastProblem.topicHasSuffix(
                    name: name, shown: OutsideText.display(topic), pushType: type,
                    bundleID: String(topic.dropLast(type.topicSuffix!.count))))
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
            throw InputError(BroadcastProblem.notAChannelID(name: name, shown: OutsideText.display(text, limit: 80)))
        }
        return text
    }

    static func requestIDHeader(_ requestID: String?) -> [(String, String)] {
        requestID.map { [("apns-request-id", $0.lowercased())] } ?? []
    }

    static func checkRequestID(_ requestID: String?, name: String) throws(InputError) {
        if let requestID, !PushTemplate.isCanonicalUUID(requestID) {
            throw InputError(BroadcastProblem.requestIDNotUUID(name: name, shown: OutsideText.display(requestID)))
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
            case .read(let id): return "read \(id)"
            case .delete(let id): return "delete \(id)"
            }
        }
    }

    /// The request for one channel management call.
    public static func channelRequest(
        _ call: ChannelCall, bundleID: String, requestID: String?, requestIDName: String = Setting.requestID.plainName
    ) throws(InputError) -> PushRequest {
        try checkRequestID(requestID, name: requestIDName)
        let base = "/1/apps/" + bundleID
        switch call {
        case .create(let storage):
            let body = JSONValue.object([("message-storage-policy", .integer(storage.code)), ("push-type", .string("LiveActivity"))]).compactBytes
            return PushRequest(path: base + "/channels", shape: RequestShape(method: .post, headers: requestIDHeader(requestID), body: RequestBody(body)))
        case .list:
            return PushRequest(path: base + "/all-channels", shape: RequestShape(method: .get, headers: requestIDHeader(requestID), body: nil))
        case .read(let id):
            return PushRequest(
                path: base + "/channels", shape: RequestShape(method: .get, headers: [("apns-channel-id", id)] + requestIDHeader(requestID), body: nil))
        case .delete(let id):
            return PushRequest(
                path: base + "/channels", shape: RequestShape(method: .delete, headers: [("apns-channel-id", id)] + requestIDHeader(requestID), body: nil))
        }
    }
}

extension BroadcastTemplate {
    // A broadcast's header fields as a person wrote them, said in a broadcast's own words (its
    // push type is liveactivity, its priority 10 or 5).

    public static func pushType(given text: String, name: String) throws(InputError) -> PushType {
        guard let type = PushType(rawValue: text), type == .liveactivity else {
            throw InputError(BroadcastProblem.pushTypeNotLiveActivity(name: name, shown: OutsideText.display(text)), kind: .usage)
        }
        return type
    }

    /// A device push's priority (`PushSpec.priority(given:name:)`) that a broadcast takes: 10 or 5.
    public static func priority(given: GivenNumber, name: String) throws(InputError) -> Priority {
        guard let priority = try? PushSpec.priority(given: given, name: name), priority != .low else {
            throw InputError(BroadcastProblem.priority(name: name, shown: given.shown))
        }
        return priority
    }

    /// A device push's expiration (`PushSpec.expiration(given:name:)`), said in a broadcast's words.
    public static func expiration(given: GivenNumber, name: String) throws(InputError) -> Int64 {
        guard let value = try? PushSpec.expiration(given: given, name: name) else {
            throw InputError(BroadcastProblem.expiration(name: name, shown: given.shown, date: given.dateSuggestion(name: name)))
        }
        return value
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
    public let warnings: [PayloadWarning]

    /// `spec.topic` is the bundle id (no suffix); the push type is always liveactivity.
    public init(_ spec: PushSpec, payload: Payload, requestID: String?, requestIDName: String = Setting.requestID.plainName) throws(InputError) {
        if let type = spec.pushType { _ = try Self.pushType(given: type.rawValue, name: spec.name(.pushType)) }
        bundleID = try BroadcastAPI.bundleID(spec.topic, name: spec.name(.topic))
        try BroadcastAPI.checkRequestID(requestID, name: requestIDName)
        self.requestID = requestID?.lowercased()
        if let p = spec.priority {
            priority = try Self.priority(given: .integer(Int64(p.rawValue)), name: spec.name(.priority))
        } else {
            priority = .immediate
        }
        if let value = spec.expiration {
            expiration = try Self.expiration(given: .integer(value), name: spec.name(.expiration))
            expirationDefaulted = false
        } else {
            expiration = 0
            expirationDefaulted = true
        }
        guard payload.bytes.count <= BroadcastAPI.payloadLimit else {
            throw InputError(BroadcastProblem.tooLarge(bytes: payload.bytes.count))
        }
        var warnings: [PayloadWarning] = []
        if spec.lint {
            if payload.json["aps"]?["event"]?.stringValue == LiveActivityEvent.start.rawValue {
                throw InputError(BroadcastProblem.startsActivity)
            }
            warnings = try LiveActivityLint.check(payload.json, priority: priority, now: spec.now).map(PayloadWarning.liveActivity)
        }
        if expirationDefaulted { warnings.append(.broadcastExpirationDefaulted) }
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

/// What is wrong with a broadcast (`name` is how the user gave the field).
public enum BroadcastProblem: InputProblem {
    /// The topic carries a push type's suffix; broadcasts and channels take `bundleID`.
    case topicHasSuffix(name: String, shown: String, pushType: PushType, bundleID: String)
    /// Not base64 as `channel create` prints a channel id.
    case notAChannelID(name: String, shown: String)
    /// apns-request-id not a canonical UUID.
    case requestIDNotUUID(name: String, shown: String)
    /// A push type other than liveactivity.
    case pushTypeNotLiveActivity(name: String, shown: String)
    /// Not 10 or 5.
    case priority(name: String, shown: String)
    /// Not UNIX seconds; `date` when a calendar date was given.
    case expiration(name: String, shown: String, date: DateSuggestion?)
    /// Over the 5,120 bytes a broadcast may carry.
    case tooLarge(bytes: Int)
    /// Event start: a broadcast cannot start a Live Activity.
    case startsActivity
}

extension APNsEnvironment {
    /// The channel management host and port.
    public var channelManagementBaseURL: String {
        self == .sandbox ? "https://api-manage-broadcast.sandbox.push.apple.com:2195" : "https://api-manage-broadcast.push.apple.com:2196"
    }
}
