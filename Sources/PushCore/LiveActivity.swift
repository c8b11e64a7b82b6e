/// Live Activities (push type `liveactivity`): a builder that writes Apple's keys, and a lint
/// for the mistakes APNs accepts with 200 and the device then drops without a word.
public enum LiveActivityEvent: String, CaseIterable, Sendable {
    case start, update, end
}

/// `send --live-activity …`: the `aps` of a Live Activity push.
public struct LiveActivityBuilder: Sendable {
    public var event: LiveActivityEvent
    /// UNIX seconds; nil: now.
    public var timestamp: Int64?
    public var contentState: JSONValue?
    public var staleDate: Int64?
    public var dismissalDate: Int64?
    public var relevanceScore: Double?
    public var title: String?
    public var body: String?
    public var sound: String?
    public var attributesType: String?
    public var attributes: JSONValue?
    public var inputPushToken = false
    public var inputPushChannel: String?

    public init(event: LiveActivityEvent) { self.event = event }

    public func build(now: Int64) -> Payload {
        var aps: [(String, JSONValue)] = [("timestamp", .integer(timestamp ?? now)), ("event", .string(event.rawValue))]
        if let contentState { aps.append(("content-state", contentState)) }
        if let staleDate { aps.append(("stale-date", .integer(staleDate))) }
        if let dismissalDate { aps.append(("dismissal-date", .integer(dismissalDate))) }
        if let relevanceScore {
            aps.append(
                (
                    "relevance-score",
                    relevanceScore == relevanceScore.rounded() && abs(relevanceScore) < 1e15 ? .integer(Int64(relevanceScore)) : .number(relevanceScore)
                ))
        }
        var alert: [(String, JSONValue)] = []
        if let title { alert.append(("title", .string(title))) }
        if let body { alert.append(("body", .string(body))) }
        if let sound { alert.append(("sound", .string(sound))) }
        if !alert.isEmpty { aps.append(("alert", .object(alert))) }
        if let attributesType { aps.append(("attributes-type", .string(attributesType))) }
        if let attributes { aps.append(("attributes", attributes)) }
        if inputPushToken { aps.append(("input-push-token", .integer(1))) }
        if let inputPushChannel { aps.append(("input-push-channel", .string(inputPushChannel))) }
        return Payload(json: .object([("aps", .object(aps))]))
    }
}

/// What the lint found: a refusal (the device would drop the push) or a warning.
public struct LiveActivityFinding: Sendable, Equatable {
    /// What is wrong, and so the rule broken, and whether it is a refusal (the catalog says it, and the fix).
    public let problem: LiveActivityProblem

    public init(_ problem: LiveActivityProblem) { self.problem = problem }

    /// The rule's name, as the finding's text shows it ("event", "stale-date"…).
    public var rule: String { problem.rule }
    /// Whether a device would drop the push (else it is a warning).
    public var isError: Bool { problem.isError }
}

/// Each thing the Live Activity lint finds.
public enum LiveActivityProblem: Sendable, Equatable {
    /// No "aps" object.
    case noAps
    /// A key Apple does not know that is a slip of `meant` (the device ignores it).
    case misspeltKey(shown: String, meant: String)
    /// A key Apple does not know (a warning).
    case unknownKey(shown: String)
    /// event is a string but not start, update or end.
    case unknownEvent(shown: String)
    case noEvent
    case eventNotString(JSONKind)
    case noTimestamp
    /// timestamp is not an integer; `now` gives an example.
    case timestampNotInteger(JSONKind, now: Int64?)
    case contentStateNotObject(JSONKind)
    /// A start or an update without content-state.
    case noContentState(LiveActivityEvent)
    case startWithoutAlert
    case startWithoutAttributesType
    case startWithoutAttributes
    /// `key` (input-push-token, input-push-channel, attributes-type, attributes) on an event that is not start.
    case startOnly(key: String, event: LiveActivityEvent?)
    case dismissalDateNotEnd
    /// dismissal-date over four hours ahead of `now`.
    case dismissalDateTooFar(date: Int64, now: Int64)
    case dismissalDateNotSeconds(JSONKind)
    /// stale-date before now (a warning).
    case staleDatePast(date: Int64)
    case staleDateNotSeconds(JSONKind)
    case relevanceScoreNotNumber(JSONKind)
    /// A number in content-state, under a key that names a date, that looks like UNIX seconds (a
    /// warning): `path` is where, `seconds` the value.
    case contentStateDate(path: String, seconds: Int64)
    /// Priority 10 on an update: it counts against the activity's hourly budget (a warning).
    case priorityBudget

    /// The rule it breaks, as the finding's text names it.
    public var rule: String {
        switch self {
        case .noAps: return "aps"
        case .misspeltKey: return "known-keys"
        case .unknownKey: return "unknown-key"
        case .unknownEvent, .noEvent, .eventNotString: return "event"
        case .noTimestamp, .timestampNotInteger: return "timestamp"
        case .contentStateNotObject, .noContentState: return "content-state"
        case .startWithoutAlert: return "start-alert"
        case .startWithoutAttributesType, .startWithoutAttributes: return "start-attributes"
        case .startOnly: return "start-only"
        case .dismissalDateNotEnd, .dismissalDateTooFar, .dismissalDateNotSeconds: return "dismissal-date"
        case .staleDatePast, .staleDateNotSeconds: return "stale-date"
        case .relevanceScoreNotNumber: return "relevance-score"
        case .contentStateDate: return "content-state-date"
        case .priorityBudget: return LiveActivityLint.budgetRule
        }
    }

    /// Whether a device would drop the push (else it is a warning).
    public var isError: Bool {
        switch self {
        case .unknownKey, .staleDatePast, .contentStateDate, .priorityBudget: return false
        default: return true
        }
    }
}

public enum LiveActivityLint {
    /// The rule of the budget warning (priority 10 on an update): worth saying when a run sends
    /// many updates, noise for one test push.
    public static let budgetRule = "priority"

    /// Apple's `aps` keys for Live Activities, and the other `aps` keys that may come along.
    public static let keys = [
        "timestamp", "event", "content-state", "stale-date", "dismissal-date", "relevance-score", "alert",
        "attributes-type", "attributes", "input-push-token", "input-push-channel",
    ]
    static let otherApsKeys = [
        "sound", "badge", "content-available", "mutable-content", "interruption-level", "category",
        "thread-id", "target-content-id", "filter-criteria",
    ]
    /// Wrong names seen in the wild that are more than a typo away from Apple's.
    static let knownMistakes = [
        "target-content-identifier": "target-content-id", "content": "content-state",
        "state": "content-state", "stale": "stale-date", "dismiss-date": "dismissal-date",
        "relevance": "relevance-score", "attribute-type": "attributes-type",
    ]

    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    public static let referenceDateOffset: Int64 = 978_307_200
    /// `dismissal-date` may be at most this far ahead (Apple: four hours).
    public static let dismissalWindow: Int64 = 4 * 3600

    /// What the rules found, errors and warnings kept apart.
    struct Found {
        var errors: [LiveActivityFinding] = []
        var warnings: [LiveActivityFinding] = []
        mutating func add(_ problem: LiveActivityProblem) {
            if problem.isError { errors.append(.init(problem)) } else { warnings.append(.init(problem)) }
        }
    }

    /// Every finding for this payload, errors first. `now` is UNIX seconds (nil skips the rules
    /// that need the time).
    public static func findings(_ payload: JSONValue, priority: Priority, now: Int64?) -> [LiveActivityFinding] {
        var found = Found()
        guard let aps = payload["aps"]?.objectMembers else {
            found.add(.noAps)
            return found.errors
        }
        checkKeyNames(aps, &found)
        let event = checkEvent(payload["aps"]?["event"], &found)
        checkTimestampAndState(payload["aps"], event: event, now: now, &found)
        checkStartKeys(Set(aps.map(\.0)), event: event, &found)
        checkDatesAndScore(payload["aps"], event: event, now: now, &found)
        if priority == .immediate { found.add(.priorityBudget) }
        return found.errors + found.warnings
    }

    /// Keys Apple does not know: a likely misspelling is an error (the device ignores the key),
    /// anything else a warning.
    private static func checkKeyNames(_ aps: [(String, JSONValue)], _ found: inout Found) {
        for (key, _) in aps where !keys.contains(key) && !otherApsKeys.contains(key) {
            let shown = OutsideText.display(key, limit: 40)
            if let meant = knownMistakes[key.lowercased()] ?? (keys + otherApsKeys).first(where: { RequestLine.close(key, $0) }) {
                found.add(.misspeltKey(shown: shown, meant: meant))
            } else {
                found.add(.unknownKey(shown: shown))
            }
        }
    }

    private static func checkEvent(_ value: JSONValue?, _ found: inout Found) -> LiveActivityEvent? {
        switch value {
        case .string(let text)?:
            let event = LiveActivityEvent(rawValue: text)
            if event == nil { found.add(.unknownEvent(shown: OutsideText.display(text, limit: 20))) }
            return event
        case nil:
            found.add(.noEvent)
        case let other?:
            found.add(.eventNotString(other.kind))
        }
        return nil
    }

    private static func checkTimestampAndState(_ aps: JSONValue?, event: LiveActivityEvent?, now: Int64?, _ found: inout Found) {
        switch aps?["timestamp"] {
        case .integer?: break
        case nil: found.add(.noTimestamp)
        case let other?: found.add(.timestampNotInteger(other.kind, now: now))
        }
        if let contentState = aps?["content-state"] {
            if contentState.objectMembers == nil {
                found.add(.contentStateNotObject(contentState.kind))
            } else {
                checkDates(contentState, path: "content-state", depth: 0) { found.add($0) }
            }
        } else if let event, event == .start || event == .update {
            found.add(.noContentState(event))
        }
    }

    /// What only a start may carry, and what a start needs.
    private static func checkStartKeys(_ names: Set<String>, event: LiveActivityEvent?, _ found: inout Found) {
        if event == .start {
            if !names.contains("alert") { found.add(.startWithoutAlert) }
            if !names.contains("attributes-type") { found.add(.startWithoutAttributesType) }
            if !names.contains("attributes") { found.add(.startWithoutAttributes) }
            return
        }
        for key in ["input-push-token", "input-push-channel", "attributes-type", "attributes"] where names.contains(key) {
            found.add(.startOnly(key: key, event: event))
        }
    }

    /// dismissal-date (end only, at most four hours ahead), stale-date, relevance-score.
    private static func checkDatesAndScore(_ aps: JSONValue?, event: LiveActivityEvent?, now: Int64?, _ found: inout Found) {
        if let dismissal = aps?["dismissal-date"] {
            if event != .end { found.add(.dismissalDateNotEnd) }
            if case .integer(let value) = dismissal {
                if let now, OutsideNumber.difference(value, now) > dismissalWindow { found.add(.dismissalDateTooFar(date: value, now: now)) }
            } else {
                found.add(.dismissalDateNotSeconds(dismissal.kind))
            }
        }
        if let stale = aps?["stale-date"] {
            if case .integer(let value) = stale {
                if let now, value < now { found.add(.staleDatePast(date: value)) }
            } else {
                found.add(.staleDateNotSeconds(stale.kind))
            }
        }
        if let score = aps?["relevance-score"] {
            switch score {
            case .integer, .number: break
            default: found.add(.relevanceScoreNotNumber(score.kind))
            }
        }
    }

    /// A number under a key that names a date, in UNIX seconds: ActivityKit decodes content-state
    /// with JSONDecoder's default, which reads a Date as seconds since 2001-01-01.
    private static func checkDates(_ value: JSONValue, path: String, depth: Int, warn: (LiveActivityProblem) -> Void) {
        guard depth < 8, let members = value.objectMembers else { return }
        for (key, item) in members.prefix(200) {
            let lower = key.lowercased()
            let named =
                lower.contains("date") || lower.contains("time") || lower.hasSuffix("at") || lower.contains("until")
                || lower.contains("deadline") || lower.hasSuffix("eta")
            let seconds: Double?
            switch item {
            case .integer(let i): seconds = Double(i)
            case .number(let d): seconds = d
            default: seconds = nil
            }
            if named, let seconds, seconds >= 1_000_000_000, seconds < 10_000_000_000 {
                warn(.contentStateDate(path: OutsideText.display(path + "." + key, limit: 80), seconds: Int64(seconds)))
            }
            if item.objectMembers != nil { checkDates(item, path: path + "." + key, depth: depth + 1, warn: warn) }
        }
    }

    /// Refuses (65) a payload a device would drop, with every rule broken and its fix; returns
    /// the warnings otherwise.
    public static func check(_ payload: JSONValue, priority: Priority, now: Int64?) throws(InputError) -> [LiveActivityFinding] {
        let found = findings(payload, priority: priority, now: now)
        let errors = found.filter(\.isError)
        if !errors.isEmpty { throw InputError(PayloadProblem.liveActivityDropped(errors)) }
        return found
    }

    /// A payload sent as another push type that carries Live Activity keys.
    public static func looksLikeLiveActivity(_ payload: JSONValue) -> Bool {
        guard let aps = payload["aps"]?.objectMembers else { return false }
        return aps.contains { $0.0 == "event" || $0.0 == "content-state" }
    }
}
