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
        if case .timedOut = failure { return .abandoned(.silentServer(seconds: silence)) }
        return .abandoned(.unansweredServer(seconds: silence, last: failure))
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
                    answer = PushResponse(
                        status: reason.status, apnsID: nil, apnsUniqueID: nil,
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

/// The notifications in flight, by attempt id, in a table of slots rather than a dictionary: no
/// hashing. An id names its slot in its low 24 bits; above them is the count of attempts started,
/// so ids grow in the order attempts started, and an id that comes back is never taken for its
/// slot's next occupant.
struct AttemptTable<Element> {
    private var values: [Element?] = []
    /// Each slot's id, 0 when it is free.
    private var ids: [Int] = []
    private var free: [Int] = []
    private var started = 0
    private(set) var count = 0

    static var slotBits: Int { 24 }
    /// At most this many at once (the ids have room for no more slots; the transport's own limit
    /// is far lower).
    static var capacity: Int { 1 << slotBits }

    var isEmpty: Bool { count == 0 }
    var hasRoom: Bool { count < Self.capacity }

    /// Keeps `element` under a new id (`hasRoom` must hold).
    mutating func insert(_ element: consuming Element) -> Int {
        started += 1
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = values.count
            values.append(nil)
            ids.append(0)
        }
        let id = started << Self.slotBits | slot
        values[slot] = consume element
        ids[slot] = id
        count += 1
        return id
    }

    /// The element under `id`, taken out; nil when there is none (any more).
    mutating func remove(id: Int) -> Element? {
        let slot = id & (Self.capacity - 1)
        guard id > 0, slot < ids.count, ids[slot] == id else { return nil }
        ids[slot] = 0
        free.append(slot)
        count -= 1
        return values[slot].take()
    }

    /// Empties the table, handing back what was in it in the order it went in.
    mutating func drain() -> [Element] {
        let order = ids.indices.filter { ids[$0] != 0 }.sorted { ids[$0] < ids[$1] }
        var drained: [Element] = []
        drained.reserveCapacity(order.count)
        for slot in order { if let element = values[slot].take() { drained.append(element) } }
        values.removeAll()
        ids.removeAll()
        free.removeAll()
        count = 0
        return drained
    }
}
