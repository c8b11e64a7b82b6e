/// One line of a requests file (JSON Lines): a notification for one device, with its own
/// payload and, optionally, its own headers.
///
///     {"token":"a1b2…","payload":{"aps":{"badge":3}},"priority":5,"collapse-id":"inbox"}
///
/// `token` and `payload` are required; `push-type`, `priority`, `collapse-id`, `expiration`,
/// `apns-id` and `topic` override the run's defaults. The payload is sent as its compact
/// re-serialisation (key order and string contents kept, whitespace dropped), so the line's
/// formatting does not matter and the size checked is the size sent.
public enum RequestLine {
    public static let fields = ["token", "payload", "topic"] + PushField.allCases.filter { $0 != .topic }.map(\.rawValue)

    /// The longest line accepted: a payload of 5,120 bytes fits many times over, even escaped.
    public static let lengthLimit = 64 * 1024

    /// Parses and checks a line against every rule a `send` applies. `defaults` gives what a line
    /// leaves out (its `topic` may be empty when every line names its own).
    public static func parse(_ bytes: [UInt8], defaults: PushSpec) throws(InputError) -> DeviceNotification {
        var reader = Reader(defaults: defaults)
        return try reader.parse(bytes)
    }

    /// Reads a file's lines one after another, each as `RequestLine.parse` would. A line whose
    /// header fields and push type are the line before's (most lines of most files) shares that
    /// line's checked header lines: its headers are neither checked nor built again.
    public struct Reader {
        /// What a line leaves out (its `topic` may be empty when every line names its own).
        public let defaults: PushSpec
        /// The headers the line before had, checked.
        var previous: PushTemplate.CheckedHeaders?

        public init(defaults: PushSpec) { self.defaults = defaults }

        public mutating func parse(_ bytes: [UInt8]) throws(InputError) -> DeviceNotification {
            if let notification = quick(bytes) { return notification }
            return try full(bytes)
        }

        /// The run's defaults with what a line gives (its `apns-id` is its own, never a default);
        /// a message names a field as the line wrote it (`"priority"`).
        func spec(
            topic: String?, pushType: String?, priority: GivenNumber?, collapseID: String?, expiration: GivenNumber?, apnsID: String?
        ) throws(InputError) -> PushSpec {
            var spec = defaults
            spec.name = Self.lineName
            if let topic { spec.topic = topic }
            if let pushType { spec.pushType = try PushSpec.pushType(given: pushType, name: Self.lineName(.pushType)) }
            if let priority { spec.priority = try PushSpec.priority(given: priority, name: Self.lineName(.priority)) }
            if let collapseID { spec.collapseID = collapseID }
            if let expiration { spec.expiration = try PushSpec.expiration(given: expiration, name: Self.lineName(.expiration)) }
            spec.apnsID = apnsID
            return spec
        }

        @Sendable static func lineName(_ field: PushField) -> String { "\"\(field.rawValue)\"" }

        /// The line parsed whole, as a JSON tree: any line, and every refusal's words.
        mutating func full(_ bytes: [UInt8]) throws(InputError) -> DeviceNotification {
            let json: JSONValue
            let compactMembers: [Range<Int>?]
            do { (json, compactMembers) = try JSONValue.parseNotingCompactMembers(bytes) } catch {
                throw RequestLine.notJSON(bytes, error)
            }
            guard let members = json.objectMembers else { throw InputError(RequestLineProblem.notObject(json.kind)) }
            for (position, (key, _)) in members.enumerated() {
                guard fields.contains(key) else {
                    let meant = fields.first { RequestLine.close(key, $0) }
                    throw InputError(RequestLineProblem.unknownField(shown: OutsideText.display(key, limit: 40), meant: meant))
                }
                // Every key before this one is a known field, so this looks at eight at most.
                guard !members[..<position].contains(where: { $0.0 == key }) else { throw InputError(RequestLineProblem.repeatedField(key)) }
            }
            guard case .string(let tokenText)? = json["token"] else {
                throw InputError(json["token"] == nil ? RequestLineProblem.noToken : RequestLineProblem.tokenNotString)
            }
            let token = try DeviceToken(parsing: tokenText)
            guard let payloadValue = json["payload"] else { throw InputError(RequestLineProblem.noPayload) }
            guard case .object = payloadValue else { throw InputError(RequestLineProblem.payloadNotObject(payloadValue.kind)) }

            func text(_ field: PushField) throws(InputError) -> String? {
                switch json[field.rawValue] {
                case nil, .null?: return nil
                case .string(let s)?: return s
                case let other?: throw InputError(RequestLineProblem.fieldNotString(field, other.kind))
                }
            }
            // An integer field takes a JSON integer as it is, or text for the core to check.
            func number(_ field: PushField) throws(InputError) -> GivenNumber? {
                switch json[field.rawValue] {
                case nil, .null?: return nil
                case .integer(let i)?: return .integer(i)
                case .string(let s)?: return .text(s)
                case let other?: throw InputError(RequestLineProblem.fieldNotInteger(field, other.kind))
                }
            }
            // The topic first: a line without one is refused for that before its other fields.
            let topic = try text(.topic)
            guard !(topic ?? defaults.topic).isEmpty else { throw InputError(RequestLineProblem.noTopic) }
            let spec = try spec(
                topic: topic, pushType: text(.pushType), priority: number(.priority), collapseID: text(.collapseID),
                expiration: number(.expiration), apnsID: text(.apnsID))
            // Mostly the line's own bytes already are the payload's compact form, sent as they are.
            let payloadAt = members.firstIndex { $0.0 == "payload" }
            let payload =
                if let payloadAt, payloadAt < compactMembers.count, let span = compactMembers[payloadAt] {
                    Payload(json: payloadValue, compactBytes: Array(bytes[span]))
                } else {
                    Payload(json: payloadValue)
                }
            let template = try PushTemplate(spec, payload: payload, sharing: previous)
            previous = template.checked
            return template.notification(to: token)
        }
    }

    /// What is wrong with a line that is not JSON, and what to do.
    static func notJSON(_ bytes: [UInt8], _ error: JSONParseError) -> InputError {
        // A JSON document laid over several lines (an array of requests, a pretty-printed
        // object): its first line opens a value and ends where the value goes on.
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
        if error.offset >= bytes.count, let first = bytes.first(where: { !blank.contains($0) }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{"),
            let last = bytes.last(where: { !blank.contains($0) }), "[{,:".utf8.contains(last)
        {
            return InputError(RequestLineProblem.spansLines)
        }
        return InputError(RequestLineProblem.notJSON(JSONDiagnosis(bytes: bytes, error: error)))
    }

    /// One edit apart (a typo), or the same but for `_`/`-` and case.
    static func close(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().replacingUnderscores)
        let y = Array(b)
        if x == y { return true }
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0
        var j = 0
        var edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] {
                i += 1
                j += 1
                continue
            }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count {
                i += 1
            } else if y.count > x.count {
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }
}

/// What is wrong with a line of a requests file (JSON Lines).
public enum RequestLineProblem: InputProblem {
    /// JSON, but not an object (an array: the file is one JSON array, not JSON Lines).
    case notObject(JSONKind)
    /// A field that is not one of `RequestLine.fields`; `meant` when it is a slip of one.
    case unknownField(shown: String, meant: String?)
    case repeatedField(String)
    case noToken
    case tokenNotString
    case noPayload
    case payloadNotObject(JSONKind)
    case fieldNotString(PushField, JSONKind)
    case fieldNotInteger(PushField, JSONKind)
    /// No "topic", and no default topic for the run.
    case noTopic
    /// The first line of a JSON document laid over several lines.
    case spansLines
    case notJSON(JSONDiagnosis)
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
