/// The rules a run applies beside the retry decision, each a small value with a table test:
/// when a silent server is taken for dead, when a GOAWAY's reason becomes every lost request's
/// answer, when the provider token may be signed again, and the queue of retries by due time.

/// A server that takes connections but answers nothing: every request has been failing
/// (timing out, reset, its connection dying) and nothing was answered for `limit` seconds.
struct DeadServerBreaker {
    /// Seconds of silence after which the server is taken for dead (nil: never).
    let limit: Double?
    /// When the server last answered anything (or the run started).
    private(set) var lastAnswer: Double

    init(limit: Double?, started: Double) {
        self.limit = limit
        lastAnswer = started
    }

    mutating func answered(at now: Double) { lastAnswer = now }

    /// After a failure at `now`: the reason to give up on everything not yet answered, or nil to go on.
    func verdict(after failure: TransportFailure, at now: Double) -> TransportFailure? {
        guard let limit, now - lastAnswer >= limit else { return nil }
        let silence = Int(now - lastAnswer)
        if case .timedOut = failure {
            return .abandoned(Words("the server has answered nothing for \(silence) s; gave up on the notifications not yet answered",
                                    es: "el servidor lleva \(silence) s sin responder nada; se abandonan las notificaciones aún sin respuesta"))
        }
        return .abandoned(Words("the server has answered no request for \(silence) s (", es: "el servidor lleva \(silence) s sin responder ninguna petición (")
                          + failure.words
                          + Words("); gave up on the notifications not yet answered", es: "); se abandonan las notificaciones aún sin respuesta"))
    }
}

/// A server that closes every connection before answering may say why only in a GOAWAY. The
/// transport is asked once; a reason that retrying cannot cure becomes the answer of every request
/// lost that way (final: each notification gets it once, nothing is resent).
struct GoAwayAnswer {
    private var asked = false
    private var answer: PushResponse?

    /// The answer to give a request lost with its connection before the server answered anything,
    /// or nil to treat the loss as usual. `ask` is called at most once per run.
    mutating func substitute(answeredAny: Bool, ask: () -> String?) -> PushResponse? {
        guard !answeredAny else { return nil }
        if !asked {
            asked = true
            if let name = ask() {
                let reason = RejectionReason(apnsName: name)
                if reason.retry == .never {
                    answer = PushResponse(status: reason.status, apnsID: nil, apnsUniqueID: nil,
                                          body: JSONValue.object([("reason", .string(reason.apnsName))]).compactBytes)
                }
            }
        }
        return answer
    }
}

/// When the provider token may be signed again: once a run after ExpiredProviderToken; once after
/// InvalidProviderToken, and only for a token that came from an earlier run's cache.
struct TokenRenewal {
    private(set) var renewedAfterExpiry = false
    private(set) var renewedCachedToken = false

    func mayRenew(for reason: RejectionReason?, usesCachedToken: Bool) -> Bool {
        switch reason {
        case .expiredProviderToken?: return !renewedAfterExpiry
        case .invalidProviderToken?: return !renewedCachedToken && usesCachedToken
        default: return false
        }
    }

    mutating func renewing(for reason: RejectionReason?) {
        if reason == .invalidProviderToken { renewedCachedToken = true } else { renewedAfterExpiry = true }
    }
}

/// Notifications waiting to be sent again, earliest due first.
struct RetryQueue<Element> {
    private(set) var waiting: [(due: Double, element: Element)] = []

    var isEmpty: Bool { waiting.isEmpty }
    var count: Int { waiting.count }
    var nextDue: Double? { waiting.first?.due }

    /// Due at `due`, after the others due then.
    mutating func add(_ element: Element, due: Double) {
        let index = waiting.firstIndex { $0.due > due } ?? waiting.endIndex
        waiting.insert((due, element), at: index)
    }

    /// Ahead of everything (sent again at once).
    mutating func addFirst(_ element: Element) { waiting.insert((-.infinity, element), at: 0) }

    /// The first element if it is due at `now`.
    mutating func popDue(at now: Double) -> Element? {
        guard let first = waiting.first, first.due <= now else { return nil }
        waiting.removeFirst()
        return first.element
    }

    /// Empties the queue, handing back what waited.
    mutating func drain() -> [Element] {
        defer { waiting.removeAll() }
        return waiting.map(\.element)
    }
}
