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
    public let message: Words
    public let fix: Words
    public let isError: Bool

    public var text: Words { Words(verbatim: "Live Activity: ") + message + Words(verbatim: " (\(rule)); ") + fix }
}

public enum LiveActivityLint {
    /// The start of the warning about priority 10's hourly budget: worth saying when a run sends
    /// many updates, noise for one test push.
    /// The rule of the budget warning (priority 10 on an update).
    public static let budgetRule = "priority"
    public static let budgetWarning = Words("priority 10 counts against the activity's hourly budget of high-priority updates",
                                            es: "la prioridad 10 cuenta contra el presupuesto por hora de actualizaciones de alta prioridad de la actividad")

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

    /// What the rules found, errors and warnings kept apart.
    struct Found {
        var errors: [LiveActivityFinding] = []
        var warnings: [LiveActivityFinding] = []
        mutating func error(_ rule: String, _ message: Words, _ fix: Words) { errors.append(.init(rule: rule, message: message, fix: fix, isError: true)) }
        mutating func warn(_ rule: String, _ message: Words, _ fix: Words) { warnings.append(.init(rule: rule, message: message, fix: fix, isError: false)) }
    }

    /// Every finding for this payload, errors first. `now` is UNIX seconds (nil skips the rules
    /// that need the time).
    public static func findings(_ payload: JSONValue, priority: Priority, now: Int64?) -> [LiveActivityFinding] {
        var found = Found()
        guard let aps = payload["aps"]?.objectMembers else {
            found.error("aps", Words("the payload has no \"aps\" object", es: "la carga útil no tiene objeto \"aps\""),
                        Words("put the Live Activity's keys in \"aps\"", es: "pon las claves de la Live Activity en \"aps\""))
            return found.errors
        }
        checkKeyNames(aps, &found)
        let event = checkEvent(payload["aps"]?["event"], &found)
        checkTimestampAndState(payload["aps"], event: event, now: now, &found)
        checkStartKeys(Set(aps.map(\.0)), event: event, &found)
        checkDatesAndScore(payload["aps"], event: event, now: now, &found)
        if priority == .immediate {
            found.warn(budgetRule, budgetWarning,
                       Words("send routine updates with \(Setting.priority) 5; keep 10 for what must show at once",
                             es: "envía las actualizaciones rutinarias con \(Setting.priority) 5; deja 10 para lo que deba verse al momento"))
        }
        return found.errors + found.warnings
    }

    /// Keys Apple does not know: a likely misspelling is an error (the device ignores the key),
    /// anything else a warning.
    private static func checkKeyNames(_ aps: [(String, JSONValue)], _ found: inout Found) {
        for (key, _) in aps where !keys.contains(key) && !otherApsKeys.contains(key) {
            let shown = OutsideText.display(key, limit: 40)
            if let meant = knownMistakes[key.lowercased()] ?? (keys + otherApsKeys).first(where: { RequestLine.close(key, $0) }) {
                found.error("known-keys", Words("\"\(shown)\" is not one of Apple's keys; did you mean \"\(meant)\"?",
                                                es: "\"\(shown)\" no es una de las claves de Apple; ¿querías decir \"\(meant)\"?"),
                            Words("rename it; APNs accepts the push and the device ignores the key",
                                  es: "cámbiale el nombre; APNs acepta la notificación y el dispositivo ignora la clave"))
            } else {
                let known = keys.joined(separator: ", ")
                found.warn("unknown-key", Words("aps holds \"\(shown)\", which is not one of Apple's keys",
                                                es: "aps lleva \"\(shown)\", que no es una de las claves de Apple"),
                           Words("Apple's keys are \(known); custom data goes in content-state",
                                 es: "las claves de Apple son \(known); los datos propios van en content-state"))
            }
        }
    }

    private static func checkEvent(_ value: JSONValue?, _ found: inout Found) -> LiveActivityEvent? {
        switch value {
        case let .string(text)?:
            let event = LiveActivityEvent(rawValue: text)
            if event == nil {
                let shown = OutsideText.display(text, limit: 20)
                found.error("event", Words("event is \"\(shown)\"", es: "event es \"\(shown)\""),
                            Words("use start, update or end", es: "usa start, update o end"))
            }
            return event
        case nil:
            found.error("event", Words("there is no event", es: "no hay event"),
                        Words("add \"event\": \"update\" (or start, end)", es: "añade \"event\": \"update\" (o start, end)"))
        case let other?:
            found.error("event", Words("event is \(other.typeName)", es: "event es \(other.typeWords.es)"),
                        Words("use the string start, update or end", es: "usa la cadena start, update o end"))
        }
        return nil
    }

    private static func checkTimestampAndState(_ aps: JSONValue?, event: LiveActivityEvent?, now: Int64?, _ found: inout Found) {
        switch aps?["timestamp"] {
        case .integer?: break
        case nil:
            found.error("timestamp", Words("there is no timestamp", es: "no hay timestamp"),
                        Words("add \"timestamp\": the UNIX seconds of this update (the device ignores an older one)",
                              es: "añade \"timestamp\": los segundos UNIX de esta actualización (el dispositivo ignora una más antigua)"))
        case let other?:
            let example = now.map { ", e.g. \($0)" } ?? "", ejemplo = now.map { ", p. ej. \($0)" } ?? ""
            found.error("timestamp", Words("timestamp is \(other.typeName), not an integer", es: "timestamp es \(other.typeWords.es), no un entero"),
                        Words("give whole UNIX seconds\(example)", es: "da segundos UNIX enteros\(ejemplo)"))
        }
        if let contentState = aps?["content-state"] {
            if contentState.objectMembers == nil {
                found.error("content-state", Words("content-state is \(contentState.typeName)", es: "content-state es \(contentState.typeWords.es)"),
                            Words("give an object that decodes as your activity's ContentState",
                                  es: "da un objeto que se decodifique como el ContentState de tu actividad"))
            } else {
                checkDates(contentState, path: "content-state", depth: 0) { found.warn($0, $1, $2) }
            }
        } else if let event, event == .start || event == .update {
            found.error("content-state", Words("\(event.rawValue) has no content-state", es: "\(event.rawValue) no lleva content-state"),
                        Words("add \"content-state\": {…}, the values your ContentState decodes",
                              es: "añade \"content-state\": {…}, los valores que decodifica tu ContentState"))
        }
    }

    /// What only a start may carry, and what a start needs.
    private static func checkStartKeys(_ names: Set<String>, event: LiveActivityEvent?, _ found: inout Found) {
        if event == .start {
            if !names.contains("alert") {
                found.error("start-alert", Words("start has no alert", es: "start no lleva alert"),
                            Words("a push-to-start without an alert never shows; add \(Setting.title)/\(Setting.body) (\"alert\")",
                                  es: "un push-to-start sin alert nunca se muestra; añade \(Setting.title)/\(Setting.body) (\"alert\")"))
            }
            if !names.contains("attributes-type") {
                found.error("start-attributes", Words("start has no attributes-type", es: "start no lleva attributes-type"),
                            Words("add \"attributes-type\": the Swift name of your ActivityAttributes type",
                                  es: "añade \"attributes-type\": el nombre en Swift de tu tipo ActivityAttributes"))
            }
            if !names.contains("attributes") {
                found.error("start-attributes", Words("start has no attributes", es: "start no lleva attributes"),
                            Words("add \"attributes\": {…}, the static values of your ActivityAttributes",
                                  es: "añade \"attributes\": {…}, los valores fijos de tus ActivityAttributes"))
            }
            return
        }
        let this = event?.rawValue
        for key in ["input-push-token", "input-push-channel", "attributes-type", "attributes"] where names.contains(key) {
            found.error("start-only", Words("\(key) is only for start (this is \(this ?? "not a start"))", es: "\(key) es solo para start (esta es \(this ?? "otra cosa"))"),
                        Words("leave it out, or send it with event start", es: "quítalo, o envíalo con event start"))
        }
    }

    /// dismissal-date (end only, at most four hours ahead), stale-date, relevance-score.
    private static func checkDatesAndScore(_ aps: JSONValue?, event: LiveActivityEvent?, now: Int64?, _ found: inout Found) {
        let integer = Words("give an integer", es: "da un entero")
        if let dismissal = aps?["dismissal-date"] {
            if event != .end {
                found.error("dismissal-date", Words("dismissal-date is only for end", es: "dismissal-date es solo para end"),
                            Words("leave it out, or send event end", es: "quítalo, o envía event end"))
            }
            if case let .integer(value) = dismissal {
                if let now, OutsideNumber.difference(value, now) > dismissalWindow {
                    let when = UTCDate.format(unixSeconds: value), latest = UTCDate.format(unixSeconds: now + dismissalWindow)
                    found.error("dismissal-date", Words("dismissal-date is more than 4 hours ahead (\(when))", es: "dismissal-date está a más de 4 horas (\(when))"),
                                Words("iOS removes an ended activity within 4 hours at most; use a time before \(latest), or one in the past to dismiss it now",
                                      es: "iOS retira una actividad terminada en 4 horas como mucho; usa una hora anterior a \(latest), o una pasada para retirarla ya"))
                }
            } else {
                found.error("dismissal-date", Words("dismissal-date is \(dismissal.typeName), not UNIX seconds", es: "dismissal-date es \(dismissal.typeWords.es), no segundos UNIX"), integer)
            }
        }
        if let stale = aps?["stale-date"] {
            if case let .integer(value) = stale {
                if let now, value < now {
                    let when = UTCDate.format(unixSeconds: value)
                    found.warn("stale-date", Words("stale-date is already past (\(when))", es: "stale-date ya ha pasado (\(when))"),
                               Words("the activity shows as stale at once (or never appears); give a later time, UNIX seconds",
                                     es: "la actividad se muestra caducada al momento (o no aparece); da una hora posterior, en segundos UNIX"))
                }
            } else {
                found.error("stale-date", Words("stale-date is \(stale.typeName), not UNIX seconds", es: "stale-date es \(stale.typeWords.es), no segundos UNIX"), integer)
            }
        }
        if let score = aps?["relevance-score"] {
            switch score {
            case .integer, .number: break
            default:
                found.error("relevance-score", Words("relevance-score is \(score.typeName)", es: "relevance-score es \(score.typeWords.es)"),
                            Words("give a number", es: "da un número"))
            }
        }
    }

    /// A number under a key that names a date, in UNIX seconds: ActivityKit decodes content-state
    /// with JSONDecoder's default, which reads a Date as seconds since 2001-01-01.
    private static func checkDates(_ value: JSONValue, path: String, depth: Int, warn: (String, Words, Words) -> Void) {
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
                let value = Int64(seconds) - referenceDateOffset
                warn("content-state-date",
                     Words("\(shown) looks like UNIX seconds; a Date in content-state decodes as seconds since 2001-01-01, so it shows 31 years late",
                           es: "\(shown) parece en segundos UNIX; un Date de content-state se decodifica como segundos desde 2001-01-01, así que se vería 31 años tarde"),
                     Words("send \(value) (UNIX seconds − 978307200), or an ISO 8601 string if your ContentState decodes one",
                           es: "envía \(value) (segundos UNIX − 978307200), o una cadena ISO 8601 si tu ContentState la decodifica"))
            }
            if item.objectMembers != nil { checkDates(item, path: path + "." + key, depth: depth + 1, warn: warn) }
        }
    }

    /// Refuses (65) a payload a device would drop, with every rule broken and its fix; returns
    /// the warnings otherwise.
    public static func check(_ payload: JSONValue, priority: Priority, now: Int64?) throws(InputError) -> [LiveActivityFinding] {
        let found = findings(payload, priority: priority, now: now)
        let errors = found.filter(\.isError)
        if !errors.isEmpty {
            throw InputError(droppedPrefix
                             + Words.joined(errors.map { $0.message + Words(verbatim: " (") + $0.fix + Words(verbatim: ")") }, separator: Words(verbatim: "; ")),
                             hint: Words("APNs answers 200 to it all the same; fix the payload, or send it anyway with \(Setting.noLint)",
                                         es: "APNs responde 200 igualmente; arregla la carga útil, o envíala de todos modos con \(Setting.noLint)"))
        }
        return found
    }

    /// "a device would drop this Live Activity: …", the rules broken (the mock's record of one).
    public static func dropped(_ problems: [Words]) -> Words {
        droppedPrefix + Words.joined(problems, separator: Words(verbatim: "; "))
    }

    static let droppedPrefix = Words("a device would drop this Live Activity: ", es: "un dispositivo descartaría esta Live Activity: ")

    /// A payload sent as another push type that carries Live Activity keys.
    public static func looksLikeLiveActivity(_ payload: JSONValue) -> Bool {
        guard let aps = payload["aps"]?.objectMembers else { return false }
        return aps.contains { $0.0 == "event" || $0.0 == "content-state" }
    }
}
