public import PushCore

// The Live Activity lint: each finding, and the fix for it.

extension LiveActivityFinding {
    /// What is wrong.
    public var message: Words { problem.words }
    /// What to do about it.
    public var fix: Words { problem.fix }
    /// "Live Activity: <message> (<rule>); <fix>", as a warning shows it.
    public var text: Words { Words(verbatim: "Live Activity: ") + message + Words(verbatim: " (\(rule)); ") + fix }
}

extension LiveActivityProblem {
    public var words: Words {
        switch self {
        case .noAps:
            return Words("the payload has no \"aps\" object", es: "la carga útil no tiene objeto \"aps\"")
        case .misspeltKey(let shown, let meant):
            return Words(
                "\"\(shown)\" is not one of Apple's keys; did you mean \"\(meant)\"?",
                es: "\"\(shown)\" no es una de las claves de Apple; ¿querías decir \"\(meant)\"?")
        case .unknownKey(let shown):
            return Words("aps holds \"\(shown)\", which is not one of Apple's keys", es: "aps lleva \"\(shown)\", que no es una de las claves de Apple")
        case .unknownEvent(let shown):
            return Words("event is \"\(shown)\"", es: "event es \"\(shown)\"")
        case .noEvent:
            return Words("there is no event", es: "no hay event")
        case .eventNotString(let kind):
            return Words("event is \(kind.words)", es: "event es \(kind.words)")
        case .noTimestamp:
            return Words("there is no timestamp", es: "no hay timestamp")
        case .timestampNotInteger(let kind, _):
            return Words("timestamp is \(kind.words), not an integer", es: "timestamp es \(kind.words), no un entero")
        case .contentStateNotObject(let kind):
            return Words("content-state is \(kind.words)", es: "content-state es \(kind.words)")
        case .noContentState(let event):
            return Words("\(event.rawValue) has no content-state", es: "\(event.rawValue) no lleva content-state")
        case .startWithoutAlert:
            return Words("start has no alert", es: "start no lleva alert")
        case .startWithoutAttributesType:
            return Words("start has no attributes-type", es: "start no lleva attributes-type")
        case .startWithoutAttributes:
            return Words("start has no attributes", es: "start no lleva attributes")
        case .startOnly(let key, let event):
            let this = event?.rawValue
            return Words("\(key) is only for start (this is \(this ?? "not a start"))", es: "\(key) es solo para start (esta es \(this ?? "otra cosa"))")
        case .dismissalDateNotEnd:
            return Words("dismissal-date is only for end", es: "dismissal-date es solo para end")
        case .dismissalDateTooFar(let date, _):
            let when = UTCDate.format(unixSeconds: date)
            return Words("dismissal-date is more than 4 hours ahead (\(when))", es: "dismissal-date está a más de 4 horas (\(when))")
        case .dismissalDateNotSeconds(let kind):
            return Words("dismissal-date is \(kind.words), not UNIX seconds", es: "dismissal-date es \(kind.words), no segundos UNIX")
        case .staleDatePast(let date):
            let when = UTCDate.format(unixSeconds: date)
            return Words("stale-date is already past (\(when))", es: "stale-date ya ha pasado (\(when))")
        case .staleDateNotSeconds(let kind):
            return Words("stale-date is \(kind.words), not UNIX seconds", es: "stale-date es \(kind.words), no segundos UNIX")
        case .relevanceScoreNotNumber(let kind):
            return Words("relevance-score is \(kind.words)", es: "relevance-score es \(kind.words)")
        case .contentStateDate(let path, _):
            return Words(
                "\(path) looks like UNIX seconds; a Date in content-state decodes as seconds since 2001-01-01, so it shows 31 years late",
                es: "\(path) parece en segundos UNIX; un Date de content-state se decodifica como segundos desde 2001-01-01, así que se vería 31 años tarde")
        case .priorityBudget:
            return LiveActivityLint.budgetWarning
        }
    }

    public var fix: Words {
        let integer = Words("give an integer", es: "da un entero")
        switch self {
        case .noAps:
            return Words("put the Live Activity's keys in \"aps\"", es: "pon las claves de la Live Activity en \"aps\"")
        case .misspeltKey:
            return Words(
                "rename it; APNs accepts the push and the device ignores the key",
                es: "cámbiale el nombre; APNs acepta la notificación y el dispositivo ignora la clave")
        case .unknownKey:
            let known = LiveActivityLint.keys.joined(separator: ", ")
            return Words(
                "Apple's keys are \(known); custom data goes in content-state",
                es: "las claves de Apple son \(known); los datos propios van en content-state")
        case .unknownEvent:
            return Words("use start, update or end", es: "usa start, update o end")
        case .noEvent:
            return Words("add \"event\": \"update\" (or start, end)", es: "añade \"event\": \"update\" (o start, end)")
        case .eventNotString:
            return Words("use the string start, update or end", es: "usa la cadena start, update o end")
        case .noTimestamp:
            return Words(
                "add \"timestamp\": the UNIX seconds of this update (the device ignores an older one)",
                es: "añade \"timestamp\": los segundos UNIX de esta actualización (el dispositivo ignora una más antigua)")
        case .timestampNotInteger(_, let now):
            let example = now.map { ", e.g. \($0)" } ?? ""
            let ejemplo = now.map { ", p. ej. \($0)" } ?? ""
            return Words("give whole UNIX seconds\(example)", es: "da segundos UNIX enteros\(ejemplo)")
        case .contentStateNotObject:
            return Words(
                "give an object that decodes as your activity's ContentState",
                es: "da un objeto que se decodifique como el ContentState de tu actividad")
        case .noContentState:
            return Words(
                "add \"content-state\": {…}, the values your ContentState decodes",
                es: "añade \"content-state\": {…}, los valores que decodifica tu ContentState")
        case .startWithoutAlert:
            return Words(
                "a push-to-start without an alert never shows; add \(Setting.title)/\(Setting.body) (\"alert\")",
                es: "un push-to-start sin alert nunca se muestra; añade \(Setting.title)/\(Setting.body) (\"alert\")")
        case .startWithoutAttributesType:
            return Words(
                "add \"attributes-type\": the Swift name of your ActivityAttributes type",
                es: "añade \"attributes-type\": el nombre en Swift de tu tipo ActivityAttributes")
        case .startWithoutAttributes:
            return Words(
                "add \"attributes\": {…}, the static values of your ActivityAttributes",
                es: "añade \"attributes\": {…}, los valores fijos de tus ActivityAttributes")
        case .startOnly:
            return Words("leave it out, or send it with event start", es: "quítalo, o envíalo con event start")
        case .dismissalDateNotEnd:
            return Words("leave it out, or send event end", es: "quítalo, o envía event end")
        case .dismissalDateTooFar(_, let now):
            let latest = UTCDate.format(unixSeconds: now + LiveActivityLint.dismissalWindow)
            return Words(
                "iOS removes an ended activity within 4 hours at most; use a time before \(latest), or one in the past to dismiss it now",
                es: "iOS retira una actividad terminada en 4 horas como mucho; usa una hora anterior a \(latest), o una pasada para retirarla ya")
        case .dismissalDateNotSeconds, .staleDateNotSeconds:
            return integer
        case .staleDatePast:
            return Words(
                "the activity shows as stale at once (or never appears); give a later time, UNIX seconds",
                es: "la actividad se muestra caducada al momento (o no aparece); da una hora posterior, en segundos UNIX")
        case .relevanceScoreNotNumber:
            return Words("give a number", es: "da un número")
        case .contentStateDate(_, let seconds):
            let value = seconds - LiveActivityLint.referenceDateOffset
            return Words(
                "send \(value) (UNIX seconds − 978307200), or an ISO 8601 string if your ContentState decodes one",
                es: "envía \(value) (segundos UNIX − 978307200), o una cadena ISO 8601 si tu ContentState la decodifica")
        case .priorityBudget:
            return Words(
                "send routine updates with \(Setting.priority) 5; keep 10 for what must show at once",
                es: "envía las actualizaciones rutinarias con \(Setting.priority) 5; deja 10 para lo que deba verse al momento")
        }
    }
}

extension LiveActivityLint {
    /// The warning about priority 10's hourly budget: worth saying when a run sends many updates,
    /// noise for one test push.
    public static let budgetWarning = Words(
        "priority 10 counts against the activity's hourly budget of high-priority updates",
        es: "la prioridad 10 cuenta contra el presupuesto por hora de actualizaciones de alta prioridad de la actividad")

    /// "a device would drop this Live Activity: …", the rules broken (the mock's record of one).
    public static func dropped(_ problems: [Words]) -> Words {
        droppedPrefix + Words.joined(problems, separator: Words(verbatim: "; "))
    }

    /// Why a device would drop a Live Activity push whose payload it cannot read.
    public static let payloadNotJSON = Words("the payload is not JSON", es: "la carga útil no es JSON")

    static let droppedPrefix = Words("a device would drop this Live Activity: ", es: "un dispositivo descartaría esta Live Activity: ")
}
