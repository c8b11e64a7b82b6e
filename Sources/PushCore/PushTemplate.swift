/// The fields of a notification's headers that a user gives, by the name APNs' docs use.
public enum PushField: String, Sendable, CaseIterable {
    case topic
    case pushType = "push-type"
    case priority
    case collapseID = "collapse-id"
    case expiration
    case apnsID = "apns-id"
}

/// A number as the user gave it: a flag's text (the core checks it and says what was wrong), or
/// a JSON field's integer (taken as it is, not turned into text and parsed again).
public enum GivenNumber: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case integer(Int64)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// When it is a calendar date ("2026-12-01"), the seconds that date is (`DateGiven`).
    func dateSuggestion(name: String) -> DateSuggestion? {
        guard case .text(let text) = self else { return nil }
        return DateGiven.suggestion(text, name: name)
    }

    /// The integer it says, if it says one.
    public var integer: Int64? {
        switch self {
        case .text(let text): return Int64(text)
        case .integer(let value): return value
        }
    }

    /// As the user wrote it, fit for a message.
    public var shown: String {
        switch self {
        case .text(let text): return OutsideText.display(text)
        case .integer(let value): return String(value)
        }
    }
}

/// What to send, before the rules APNs applies to it together are checked: the header fields,
/// typed where APNs' values are a set (push type, priority) or a number (expiration). What a
/// person wrote (a flag, a field of a requests file's line) becomes these types through
/// `PushSpec.pushType(given:name:)`, `priority(given:name:)` and `expiration(given:name:)`, which
/// say what was wrong with it; whether the values go together (a background push at priority 10)
/// is `PushTemplate`'s to check.
public struct PushSpec: Sendable {
    public var topic: String
    /// Nil: the payload's own (`Payload.inferredPushType`).
    public var pushType: PushType?
    /// Nil: the push type's default.
    public var priority: Priority?
    public var collapseID: String?
    /// UNIX seconds; 0 = deliver once or drop; nil: APNs stores it up to 30 days.
    public var expiration: Int64?
    public var apnsID: String?
    /// How a message names a field: the caller knows whether it came from a flag
    /// (`--collapse-id`) or a field of a JSON line (`"collapse-id"`); the core does not.
    public var name: @Sendable (PushField) -> String
    /// Check Live Activity payloads (``LiveActivityLint``) and refuse the ones a device drops.
    public var lint = true
    /// UNIX seconds, for the lint's time rules (stale-date past, dismissal-date ahead); nil skips them.
    public var now: Int64?

    public init(
        topic: String, pushType: PushType? = nil, priority: Priority? = nil, collapseID: String? = nil,
        expiration: Int64? = nil, apnsID: String? = nil, name: @escaping @Sendable (PushField) -> String = { $0.rawValue }
    ) {
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
        self.apnsID = apnsID
        self.name = name
    }

    // MARK: what a person wrote, checked into the spec's types

    /// A push type as written; a typo ("alrt", "Background") gets the type meant. `name` is how
    /// a message names the field (`--push-type`, `"push-type"`).
    public static func pushType(given text: String, name: String) throws(InputError) -> PushType {
        if let type = PushType(rawValue: text) { return type }
        let meant = PushType.allCases.first { RequestLine.close(text, $0.rawValue) }
        throw InputError(HeaderProblem.unknownPushType(name: name, shown: OutsideText.display(text), meant: meant))
    }

    /// A priority as written: 10, 5 or 1.
    public static func priority(given: GivenNumber, name: String) throws(InputError) -> Priority {
        guard let value = given.integer, let priority = Priority(rawValue: Int(clamping: value)) else {
            throw InputError(HeaderProblem.priority(name: name, shown: given.shown))
        }
        return priority
    }

    /// An expiration as written: UNIX seconds, 0 or more (a calendar date gets its seconds suggested).
    public static func expiration(given: GivenNumber, name: String) throws(InputError) -> Int64 {
        guard let value = given.integer, value >= 0 else {
            throw InputError(HeaderProblem.expiration(name: name, shown: given.shown, date: given.dateSuggestion(name: name)))
        }
        return value
    }
}

/// One notification, checked against every rule APNs applies, ready for any number of
/// device tokens: the headers and payload are fixed, only the path changes.
public struct PushTemplate: Sendable {
    public let payload: Payload
    public let pushType: PushType
    public var priority: Priority { checked.priority }
    public var topic: String { checked.topic }
    public var collapseID: String? { checked.given.collapseID }
    public var expiration: Int64? { checked.expiration }
    public var apnsID: String? { checked.apnsID }
    /// The headers as checked, shared with later templates made `sharing:` them.
    let checked: CheckedHeaders
    private let lintWarnings: [PayloadWarning]
    /// The lint's findings, by rule (a warning may be only for runs that send several).
    private let lintFindings: [LiveActivityFinding]

    /// Warnings for the user (stderr; none stops the send) for a run that sends `count`
    /// notifications with this template: one update
    /// cannot spend an activity's hourly budget, so that warning is for runs that send several.
    public func warnings(sending count: Int) -> [PayloadWarning] {
        payload.warnings(for: pushType) + lintWarnings
            + lintFindings.filter { count > 1 || $0.rule != LiveActivityLint.budgetRule }.map(PayloadWarning.liveActivity)
    }
    /// Method, headers and body as a transport sends them, built once for every token.
    public let shape: RequestShape

    /// Applies the pre-send rules (push type, priority, topic, collapse id, expiration, apns-id, size, the Live Activity lint). Any violation throws (exit 65), so nothing is sent.
    public init(_ spec: PushSpec, payload: Payload) throws(InputError) {
        try self.init(spec, payload: payload, sharing: nil)
    }

    /// The same rules, where `previous` (the headers of another payload's template, such as the
    /// line before in a requests file) may already have checked these headers: when its header
    /// fields are `spec`'s and its push type is this payload's, the header rules held for exactly
    /// these values, so only the payload's rules run and the header lines are shared.
    init(_ spec: PushSpec, payload: Payload, sharing previous: CheckedHeaders?) throws(InputError) {
        let pushType = Self.pushType(spec, payload: payload)
        let checked = try Self.checkHeaders(spec, pushType: pushType, sharing: previous)
        let priority = checked.priority
        try payload.checkSize(for: pushType)
        var lintWarnings: [PayloadWarning] = []
        var lintFindings: [LiveActivityFinding] = []
        if pushType == .liveactivity && spec.lint {
            lintFindings = try LiveActivityLint.check(payload.json, priority: priority, now: spec.now)
        } else if pushType != .liveactivity && LiveActivityLint.looksLikeLiveActivity(payload.json) {
            lintWarnings = [.liveActivityKeys(pushType: pushType)]
        }
        self.lintWarnings = lintWarnings
        self.lintFindings = lintFindings
        self.payload = payload
        self.pushType = pushType
        self.checked = checked
        self.shape = RequestShape(method: .post, headerLines: checked.lines, body: RequestBody(payload.bytes))
    }

    /// The header rules for `spec` sent as `pushType`. When `previous` checked the same fields for
    /// the same push type, they held for exactly these values: it is the answer.
    static func checkHeaders(_ spec: PushSpec, pushType: PushType, sharing previous: CheckedHeaders?) throws(InputError) -> CheckedHeaders {
        let given = GivenHeaders(spec)
        if let previous, previous.pushType == pushType, previous.given == given { return previous }
        let priority = try Self.priority(spec, pushType: pushType)
        let bundle = try Self.bundleID(spec)
        try Self.checkCollapseID(spec)
        let expiration = try Self.expiration(spec)
        try Self.checkAPNsID(spec)
        return CheckedHeaders(
            given: given, pushType: pushType, priority: priority, topic: pushType.topic(forBundleID: String(bundle)),
            expiration: expiration, apnsID: spec.apnsID?.lowercased())
    }

    /// A spec's header fields, as given.
    fileprivate struct GivenHeaders: Equatable, Sendable {
        let topic: String, pushType: PushType?, priority: Priority?, collapseID: String?, expiration: Int64?, apnsID: String?

        init(_ spec: PushSpec) {
            (topic, pushType, priority) = (spec.topic, spec.pushType, spec.priority)
            (collapseID, expiration, apnsID) = (spec.collapseID, spec.expiration, spec.apnsID)
        }
    }

    /// Header fields that passed the header rules for a push type, and the header lines they make.
    final class CheckedHeaders: Sendable {
        fileprivate let given: GivenHeaders
        let pushType: PushType
        let priority: Priority
        let topic: String
        let expiration: Int64?
        let apnsID: String?
        let lines: [String]

        fileprivate init(given: GivenHeaders, pushType: PushType, priority: Priority, topic: String, expiration: Int64?, apnsID: String?) {
            (self.given, self.pushType, self.priority, self.topic, self.expiration, self.apnsID) = (given, pushType, priority, topic, expiration, apnsID)
            lines = PushTemplate.headers(
                pushType: pushType, topic: topic, priority: priority, collapseID: given.collapseID,
                expiration: expiration, apnsID: apnsID
            ).map { $0.0 + ": " + $0.1 }
        }
    }

    // MARK: the pre-send rules, one header at a time

    private static func pushType(_ spec: PushSpec, payload: Payload) -> PushType {
        spec.pushType ?? payload.inferredPushType
    }

    private static func priority(_ spec: PushSpec, pushType: PushType) throws(InputError) -> Priority {
        if let p = spec.priority {
            guard p.isAllowed(for: pushType) else {
                throw InputError(HeaderProblem.backgroundPriority(name: spec.name(.priority)))
            }
            return p
        } else {
            return Priority.default(for: pushType)
        }
    }

    /// The bundle id the topic names (a push type's suffix is added later).
    private static func bundleID(_ spec: PushSpec) throws(InputError) -> Substring {
        try HeaderValue.check(spec.topic, name: spec.name(.topic), limit: PushTemplate.topicLimit)
        // A plain ASCII bundle id (every real one) needs no Unicode whitespace rules.
        let plain = spec.topic.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        if plain && !spec.topic.isEmpty { return Substring(spec.topic) }
        let bundle = Substring(spec.topic).trimmingWhitespace()
        guard !bundle.isEmpty, !bundle.contains(where: { $0.isWhitespace }) else {
            throw InputError(HeaderProblem.notABundleID(name: spec.name(.topic), shown: OutsideText.display(spec.topic)))
        }

        return bundle
    }

    private static func checkCollapseID(_ spec: PushSpec) throws(InputError) {
        if let collapseID = spec.collapseID {
            try HeaderValue.check(collapseID, name: spec.name(.collapseID))
            guard collapseID.utf8.count <= APNsHeader.collapseIDLimit else {
                throw InputError(HeaderProblem.collapseIDTooLong(name: spec.name(.collapseID), bytes: collapseID.utf8.count))
            }
            guard !collapseID.isEmpty else {
                throw InputError(HeaderProblem.collapseIDEmpty(name: spec.name(.collapseID)))
            }
        }
    }

    private static func expiration(_ spec: PushSpec) throws(InputError) -> Int64? {
        guard let value = spec.expiration else { return nil }
        // A library caller's negative number is refused as a written one is.
        return try PushSpec.expiration(given: .integer(value), name: spec.name(.expiration))
    }

    private static func checkAPNsID(_ spec: PushSpec) throws(InputError) {
        if let id = spec.apnsID, !PushTemplate.isCanonicalUUID(id) {
            throw InputError(HeaderProblem.notAUUID(name: spec.name(.apnsID), shown: OutsideText.display(id)))
        }
    }

    /// This notification for one device.
    public func notification(to token: DeviceToken) -> DeviceNotification {
        PushTemplate.notification(to: token, shape: shape)
    }

    /// A notification to `token` with a request `shape` (a template's, a requests-file line's).
    static func notification(to token: DeviceToken, shape: RequestShape) -> DeviceNotification {
        DeviceNotification(token: token, request: PushRequest(deviceToken: token, shape: shape))
    }

    /// The apns-* headers, lower-case, in a fixed order (authorization is added per request).
    public var headers: [(String, String)] {
        PushTemplate.headers(pushType: pushType, topic: topic, priority: priority, collapseID: collapseID, expiration: expiration, apnsID: apnsID)
    }

    private static func headers(
        pushType: PushType, topic: String, priority: Priority, collapseID: String?, expiration: Int64?,
        apnsID: String?
    ) -> [(String, String)] {
        var headers: [(String, String)] = [
            (APNsHeader.pushType, pushType.rawValue),
            (APNsHeader.topic, topic),
            (APNsHeader.priority, String(priority.rawValue)),
        ]
        if let collapseID { headers.append((APNsHeader.collapseID, collapseID)) }
        if let expiration { headers.append((APNsHeader.expiration, String(expiration))) }
        if let apnsID { headers.append((APNsHeader.id, apnsID)) }
        return headers
    }

    /// Apple's bundle ids are at most 155 characters; with the longest push-type suffix a topic
    /// stays well under this.
    public static let topicLimit = 255

    /// The 8-4-4-4-12 form in ASCII hex.
    public static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (i, byte) in bytes.enumerated() {
            guard i == 8 || i == 13 || i == 18 || i == 23 ? byte == UInt8(ascii: "-") : byte.isASCIIHexDigit else { return false }
        }
        return true
    }
}

/// What is wrong with a notification's header field (`name` is how the user gave it: a flag, a
/// field of a line), or with any value bound for a header.
public enum HeaderProblem: InputProblem {
    /// A control byte (a line break…) at byte `position` (1-based) of the value.
    case controlCharacter(name: String, byte: UInt8, position: Int)
    /// The value is `bytes` long, over the `limit` pushctl sends.
    case tooLong(name: String, bytes: Int, limit: Int)
    /// Not a push type APNs knows; `meant` when it is a slip of one.
    case unknownPushType(name: String, shown: String, meant: PushType?)
    /// Not 10, 5 or 1.
    case priority(name: String, shown: String)
    /// Priority 10 on a background push (APNs answers BadPriority).
    case backgroundPriority(name: String)
    /// The topic is not a bundle id (empty, or blanks inside).
    case notABundleID(name: String, shown: String)
    /// apns-collapse-id over APNs' 64 bytes.
    case collapseIDTooLong(name: String, bytes: Int)
    case collapseIDEmpty(name: String)
    /// apns-expiration not UNIX seconds; `date` when a calendar date was given.
    case expiration(name: String, shown: String, date: DateSuggestion?)
    /// apns-id not a canonical UUID.
    case notAUUID(name: String, shown: String)
}
