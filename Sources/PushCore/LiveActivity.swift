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
        if let relevanceScore { aps.append(("relevance-score", relevanceScore == relevanceScore.rounded() && abs(relevanceScore) < 1e15 ? .integer(Int64(relevanceScore)) : .number(relevanceScore))) }
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
    public let rule: String
    public let message: String
    public let fix: String
    public let isError: Bool

    public var text: String { "Live Activity: \(message) (\(rule)); \(fix)" }
}

public enum LiveActivityLint {
    /// The start of the warning about priority 10's hourly budget: worth saying when a run sends
    /// many updates, noise for one test push.
    public static let budgetWarning = "priority 10 counts against the activity's hourly budget of high-priority updates"

    /// Apple's `aps` keys for Live Activities, and the other `aps` keys that may come along.
    public static let keys = ["timestamp", "event", "content-state", "stale-date", "dismissal-date", "relevance-score", "alert",
                              "attributes-type", "attributes", "input-push-token", "input-push-channel"]
    static let otherApsKeys = ["sound", "badge", "content-available", "mutable-content", "interruption-level", "category",
                               "thread-id", "target-content-id", "filter-criteria"]
    /// Wrong names seen in the wild that are more than a typo away from Apple's.
    static let knownMistakes = ["target-content-identifier": "target-content-id", "content": "content-state",
                                "state": "content-state", "stale": "stale-date", "dismiss-date": "dismissal-date",
                                "relevance": "relevance-score", "attribute-type": "attributes-type"]

    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    public static let referenceDateOffset: Int64 = 978_307_200
    /// `dismissal-date` may be at most this far ahead (Apple: four hours).
    public static let dismissalWindow: Int64 = 4 * 3600

    /// Every finding for this payload, errors first. `now` is UNIX seconds (nil skips the rules
    /// that need the time).
    public static func findings(_ payload: JSONValue, priority: Priority, now: Int64?) -> [LiveActivityFinding] {
        var errors: [LiveActivityFinding] = []
        var warnings: [LiveActivityFinding] = []
        func error(_ rule: String, _ message: String, _ fix: String) { errors.append(.init(rule: rule, message: message, fix: fix, isError: true)) }
        func warn(_ rule: String, _ message: String, _ fix: String) { warnings.append(.init(rule: rule, message: message, fix: fix, isError: false)) }

        guard let aps = payload["aps"]?.objectMembers else {
            error("aps", "the payload has no \"aps\" object", "put the Live Activity's keys in \"aps\"")
            return errors
        }
        let names = Set(aps.map(\.0))
        for (key, _) in aps where !keys.contains(key) && !otherApsKeys.contains(key) {
            let shown = OutsideText.display(key, limit: 40)
            if let meant = knownMistakes[key.lowercased()] ?? (keys + otherApsKeys).first(where: { RequestLine.close(key, $0) }) {
                error("known-keys", "\"\(shown)\" is not one of Apple's keys; did you mean \"\(meant)\"?", "rename it; APNs accepts the push and the device ignores the key")
            } else {
                warn("unknown-key", "aps holds \"\(shown)\", which is not one of Apple's keys", "Apple's keys are \(keys.joined(separator: ", ")); custom data goes in content-state")
            }
        }

        let event: LiveActivityEvent?
        switch payload["aps"]?["event"] {
        case let .string(text)?:
            event = LiveActivityEvent(rawValue: text)
            if event == nil {
                error("event", "event is \"\(OutsideText.display(text, limit: 20))\"", "use start, update or end")
            }
        case nil:
            event = nil
            error("event", "there is no event", "add \"event\": \"update\" (or start, end)")
        case let other?:
            event = nil
            error("event", "event is \(other.typeName)", "use the string start, update or end")
        }

        switch payload["aps"]?["timestamp"] {
        case .integer?: break
        case nil: error("timestamp", "there is no timestamp", "add \"timestamp\": the UNIX seconds of this update (the device ignores an older one)")
        case let other?: error("timestamp", "timestamp is \(other.typeName), not an integer", "give whole UNIX seconds\(now.map { ", e.g. \($0)" } ?? "")")
        }

        let contentState = payload["aps"]?["content-state"]
        if let contentState {
            if contentState.objectMembers == nil {
                error("content-state", "content-state is \(contentState.typeName)", "give an object that decodes as your activity's ContentState")
            } else {
                checkDates(contentState, path: "content-state", depth: 0, warn: warn)
            }
        } else if event == .start || event == .update {
            error("content-state", "\(event!.rawValue) has no content-state", "add \"content-state\": {…}, the values your ContentState decodes")
        }

        if event == .start {
            if !names.contains("alert") { error("start-alert", "start has no alert", "a push-to-start without an alert never shows; add --title/--body (\"alert\")") }
            if !names.contains("attributes-type") { error("start-attributes", "start has no attributes-type", "add \"attributes-type\": the Swift name of your ActivityAttributes type") }
            if !names.contains("attributes") { error("start-attributes", "start has no attributes", "add \"attributes\": {…}, the static values of your ActivityAttributes") }
        } else {
            for key in ["input-push-token", "input-push-channel", "attributes-type", "attributes"] where names.contains(key) {
                error("start-only", "\(key) is only for start (this is \(event?.rawValue ?? "not a start"))", "leave it out, or send it with event start")
            }
        }

        if let dismissal = payload["aps"]?["dismissal-date"] {
            if event != .end {
                error("dismissal-date", "dismissal-date is only for end", "leave it out, or send event end")
            }
            if case let .integer(value) = dismissal {
                if let now, OutsideNumber.difference(value, now) > dismissalWindow {
                    error("dismissal-date", "dismissal-date is more than 4 hours ahead (\(UTCDate.format(unixSeconds: value)))",
                          "iOS removes an ended activity within 4 hours at most; use a time before \(UTCDate.format(unixSeconds: now + dismissalWindow)), or one in the past to dismiss it now")
                }
            } else {
                error("dismissal-date", "dismissal-date is \(dismissal.typeName), not UNIX seconds", "give an integer")
            }
        }

        if let stale = payload["aps"]?["stale-date"] {
            if case let .integer(value) = stale {
                if let now, value < now {
                    warn("stale-date", "stale-date is already past (\(UTCDate.format(unixSeconds: value)))",
                         "the activity shows as stale at once (or never appears); give a later time, UNIX seconds")
                }
            } else {
                error("stale-date", "stale-date is \(stale.typeName), not UNIX seconds", "give an integer")
            }
        }
        if let score = payload["aps"]?["relevance-score"] {
            switch score {
            case .integer, .number: break
            default: error("relevance-score", "relevance-score is \(score.typeName)", "give a number")
            }
        }
        if priority == .immediate {
            warn("priority", LiveActivityLint.budgetWarning,
                 "send routine updates with --priority 5; keep 10 for what must show at once")
        }
        return errors + warnings
    }

    /// A number under a key that names a date, in UNIX seconds: ActivityKit decodes content-state
    /// with JSONDecoder's default, which reads a Date as seconds since 2001-01-01.
    private static func checkDates(_ value: JSONValue, path: String, depth: Int, warn: (String, String, String) -> Void) {
        guard depth < 8, let members = value.objectMembers else { return }
        for (key, item) in members.prefix(200) {
            let lower = key.lowercased()
            let named = lower.contains("date") || lower.contains("time") || lower.hasSuffix("at") || lower.contains("until")
                || lower.contains("deadline") || lower.hasSuffix("eta")
            let seconds: Double?
            switch item {
            case let .integer(i): seconds = Double(i)
            case let .number(d): seconds = d
            default: seconds = nil
            }
            if named, let seconds, seconds >= 1_000_000_000, seconds < 10_000_000_000 {
                let shown = OutsideText.display(path + "." + key, limit: 80)
                warn("content-state-date",
                     "\(shown) looks like UNIX seconds; a Date in content-state decodes as seconds since 2001-01-01, so it shows 31 years late",
                     "send \(Int64(seconds) - referenceDateOffset) (UNIX seconds − 978307200), or an ISO 8601 string if your ContentState decodes one")
            }
            if item.objectMembers != nil { checkDates(item, path: path + "." + key, depth: depth + 1, warn: warn) }
        }
    }

    /// Refuses (65) a payload a device would drop, with every rule broken and its fix; returns
    /// the warnings otherwise.
    public static func check(_ payload: JSONValue, priority: Priority, now: Int64?) throws(InputError) -> [String] {
        let found = findings(payload, priority: priority, now: now)
        let errors = found.filter(\.isError)
        if !errors.isEmpty {
            throw InputError("a device would drop this Live Activity: " + errors.map { "\($0.message) (\($0.fix))" }.joined(separator: "; "),
                             hint: "APNs answers 200 to it all the same; fix the payload, or send it anyway with --no-lint")
        }
        return found.map(\.text)
    }

    /// A payload sent as another push type that carries Live Activity keys.
    public static func looksLikeLiveActivity(_ payload: JSONValue) -> Bool {
        guard let aps = payload["aps"]?.objectMembers else { return false }
        return aps.contains { $0.0 == "event" || $0.0 == "content-state" }
    }
}
