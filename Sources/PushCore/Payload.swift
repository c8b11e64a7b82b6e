/// A notification payload: the exact bytes to send, and what pushctl learned reading them.
public struct Payload: Sendable {
    /// Sent byte for byte as given (a file's bytes are never re-encoded).
    public let bytes: [UInt8]
    public let json: JSONValue

    /// Parses and checks that the payload is a JSON object. Size is checked against the
    /// push type later, once the type is known.
    public init(bytes: [UInt8], source: String) throws(InputError) {
        guard !bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw InputError(PayloadProblem.empty(source: source))
        }
        let json: JSONValue
        guard String(validUTF8: bytes) != nil else {
            throw InputError(PayloadProblem.notUTF8(source: source))
        }
        do { json = try JSONValue.parse(bytes) } catch {
            throw InputError(PayloadProblem.notJSON(source: source, JSONDiagnosis(bytes: bytes, error: error)))
        }
        guard case .object = json else {
            throw InputError(PayloadProblem.notObject(source: source, json.kind))
        }
        self.bytes = bytes
        self.json = json
    }

    public init(json: JSONValue) {
        self.json = json
        self.bytes = json.compactBytes
    }

    /// A payload whose compact form is already at hand: `compactBytes` must be what
    /// `json.compactBytes` writes (a text `JSONValue.parseNotingCompactMembers` found compact).
    init(json: JSONValue, compactBytes: [UInt8]) {
        assert(compactBytes == json.compactBytes, "not the value's compact form")
        self.json = json
        self.bytes = compactBytes
    }

    /// Apple's rule, and pushctl's: background when `aps` holds only `content-available: 1`, else alert.
    public var inferredPushType: PushType {
        guard let aps = json["aps"]?.objectMembers, aps.count == 1, aps[0].0 == "content-available",
            aps[0].1 == .integer(1)
        else { return .alert }
        return .background
    }

    /// Things worth a warning but not a refusal.
    public func warnings(for type: PushType) -> [PayloadWarning] {
        var out: [PayloadWarning] = []
        switch json["aps"] {
        case nil:
            if type != .mdm { out.append(.noAps) }
        case .object?:
            break
        case let other?:
            out.append(.apsNotObject(other.kind))
        }
        if type == .background, let aps = json["aps"]?.objectMembers,
            aps.contains(where: { ["alert", "badge", "sound"].contains($0.0) })
        {
            out.append(.backgroundWithAlert)
        }
        return out
    }

    /// Refuses a payload over the push type's limit, saying by how many bytes.
    public func checkSize(for type: PushType) throws(InputError) {
        try Payload.checkSize(bytes.count, for: type)
    }

    /// Refuses `count` bytes of payload when they are over the push type's limit.
    static func checkSize(_ count: Int, for type: PushType) throws(InputError) {
        guard count <= type.payloadLimit else { throw InputError(PayloadProblem.tooLarge(bytes: count, pushType: type)) }
    }
}

/// The payload from `send`'s builder flags (`--title --body --badge …`).
public struct PayloadBuilder: Sendable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var badge: Int?
    public var sound: String?
    public var category: String?
    public var threadID: String?
    public var contentAvailable = false
    public var mutableContent = false
    public var interruptionLevel: String?
    /// `KEY=JSON` pairs, placed beside `aps`; a value that is not JSON is taken as a string.
    public var custom: [String] = []

    public init() {}

    public static let interruptionLevels = ["passive", "active", "time-sensitive", "critical"]

    public var isEmpty: Bool {
        title == nil && subtitle == nil && body == nil && badge == nil && sound == nil && category == nil
            && threadID == nil && !contentAvailable && !mutableContent && interruptionLevel == nil && custom.isEmpty
    }

    public func build() throws(InputError) -> Payload {
        var aps: [(String, JSONValue)] = []
        var alert: [(String, JSONValue)] = []
        if let title { alert.append(("title", .string(title))) }
        if let subtitle { alert.append(("subtitle", .string(subtitle))) }
        if let body { alert.append(("body", .string(body))) }
        if !alert.isEmpty { aps.append(("alert", .object(alert))) }
        if let badge {
            guard badge >= 0 else { throw InputError(PayloadProblem.negativeBadge(badge)) }
            aps.append(("badge", .integer(Int64(badge))))
        }
        if let sound { aps.append(("sound", .string(sound))) }
        if let category { aps.append(("category", .string(category))) }
        if let threadID { aps.append(("thread-id", .string(threadID))) }
        if contentAvailable { aps.append(("content-available", .integer(1))) }
        if mutableContent { aps.append(("mutable-content", .integer(1))) }
        if let interruptionLevel {
            guard PayloadBuilder.interruptionLevels.contains(interruptionLevel) else {
                // A slip ("timesensitive", "Critical") gets the level meant.
                let meant = PayloadBuilder.interruptionLevels.first { RequestLine.close(interruptionLevel, $0) }
                throw InputError(PayloadProblem.interruptionLevel(shown: OutsideText.display(interruptionLevel), meant: meant))
            }
            aps.append(("interruption-level", .string(interruptionLevel)))
        }
        var root: [(String, JSONValue)] = aps.isEmpty && !custom.isEmpty ? [] : [("aps", .object(aps))]
        for pair in custom {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw InputError(PayloadProblem.customNotKeyValue(shown: OutsideText.display(pair)))
            }
            let key = String(pair[..<eq])
            let text = String(pair[pair.index(after: eq)...])
            guard key != "aps" else { throw InputError(PayloadProblem.customAps) }
            let value: JSONValue
            do {
                value = try JSONValue.parse(text)
            } catch {
                // A value that starts like JSON and does not parse is a mistake, not a string to send.
                let first = text.utf8.first { $0 != 0x20 && $0 != 0x09 }
                if let first,
                    [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-")].contains(first)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                {
                    throw InputError(
                        PayloadProblem.customNotJSON(
                            key: OutsideText.display(key, limit: 40),
                            JSONDiagnosis(bytes: Array(text.utf8), error: error)))
                }
                value = .string(text)
            }
            root.removeAll { $0.0 == key }
            root.append((key, value))
        }
        return Payload(json: .object(root))
    }
}

/// What is wrong with a payload, or with the flags that build one.
public enum PayloadProblem: InputProblem {
    /// Nothing but whitespace (`source` says where it came from: a file, a flag).
    case empty(source: String)
    case notUTF8(source: String)
    case notJSON(source: String, JSONDiagnosis)
    /// JSON, but not an object.
    case notObject(source: String, JSONKind)
    /// Over the push type's limit.
    case tooLarge(bytes: Int, pushType: PushType)
    case negativeBadge(Int)
    /// Not one of `PayloadBuilder.interruptionLevels`; `meant` when it is a slip of one.
    case interruptionLevel(shown: String, meant: String?)
    /// A custom key not given as KEY=JSON.
    case customNotKeyValue(shown: String)
    /// A custom key named "aps".
    case customAps
    /// A custom value that starts like JSON and is not.
    case customNotJSON(key: String, JSONDiagnosis)
    /// A Live Activity a device would drop: the lint's errors (`LiveActivityLint.check`).
    case liveActivityDropped([LiveActivityFinding])
}

/// What is worth a warning in a notification, but not a refusal.
public enum PayloadWarning: Sendable, Equatable {
    /// No "aps" dictionary (iOS shows nothing).
    case noAps
    /// "aps" is not a dictionary.
    case apsNotObject(JSONKind)
    /// A background push with alert, badge or sound.
    case backgroundWithAlert
    /// Live Activity keys in a push of another type.
    case liveActivityKeys(pushType: PushType)
    /// What the Live Activity lint warns of.
    case liveActivity(LiveActivityFinding)
    /// apns-expiration 0, chosen for a broadcast that gave none.
    case broadcastExpirationDefaulted
}
