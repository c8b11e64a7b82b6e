public import PushCore

/// A transport that answers from a script, without a network: what the dispatcher (PushCoreTests)
/// and the whole engine (PushEngineTests) are tested against. End-to-end tests use libcurl's
/// transport against the mock.
///
/// Without a clock every request is answered at the next poll. With one (`FakeClock(tick: 0)`),
/// time passes only when the run waits: an answer comes `latency` seconds after its request
/// started, and a poll with nothing to answer waits its whole timeout, so back-offs, Retry-After,
/// time budgets and a stop's grace cost a test no real time.
public final class ScriptedTransport: PushTransport {
    public var capacity: Int
    public private(set) var started: [PushAttempt] = []
    /// When each attempt of `started` started, on `clock` (0 without one).
    public private(set) var startTimes: [Double] = []
    /// Answers for each subject (by `RequestSubject.scriptKey`), in order of attempts; the last one
    /// repeats. Unscripted subjects are accepted (200).
    public var script: [String: [AttemptOutcome]] = [:]
    /// Attempts answered so far, by subject.
    public var attemptsByToken: [String: Int] = [:]
    /// The most attempts ever in flight at once; a start beyond `capacity` is recorded too.
    public private(set) var peakInFlight = 0
    /// Subjects whose requests are never answered (they stay in flight).
    public var silent: Set<String> = []
    /// Called at each poll (a test's stop request arrives here).
    public var onPoll: (() -> Void)?
    public private(set) var polls = 0
    /// The clock answers are timed on (nil: every request answered at the next poll).
    public let clock: FakeClock?
    /// Seconds from a request's start to its answer, for every subject, or for one.
    public var latency: Double = 0
    public var latencyByKey: [String: Double] = [:]
    /// The reason of a GOAWAY that closed the connections (`goAwayReason()`), and how often it was asked.
    public var goAway: String?
    public private(set) var goAwayAsked = 0

    private var inFlight: [(attempt: PushAttempt, due: Double)] = []

    public init(capacity: Int = 4, clock: FakeClock? = nil) {
        self.capacity = capacity
        self.clock = clock
    }

    public var availableSlots: Int { capacity - inFlight.count }

    public func start(_ attempt: PushAttempt) {
        let now = clock?.now ?? 0
        let key = attempt.subject.scriptKey
        inFlight.append((attempt, silent.contains(key) ? .infinity : now + (latencyByKey[key] ?? latency)))
        peakInFlight = max(peakInFlight, inFlight.count)
        started.append(attempt)
        startTimes.append(now)
    }

    public func poll(timeout: Double) -> [PushAttemptResult] {
        polls += 1
        onPoll?()
        var now = Double.infinity
        if let clock {
            // Waits for the first answer due, or the whole timeout.
            let next = inFlight.map(\.due).min() ?? .infinity
            clock.now = max(clock.now, min(next, clock.now + max(0, timeout)))
            now = clock.now
        }
        let finished = inFlight.filter { $0.due <= now && !silent.contains($0.attempt.subject.scriptKey) }.map(\.attempt)
        inFlight.removeAll { $0.due <= now && !silent.contains($0.attempt.subject.scriptKey) }
        return finished.map { attempt in
            let key = attempt.subject.scriptKey
            let n = attemptsByToken[key, default: 0]
            attemptsByToken[key] = n + 1
            let answers = script[key] ?? [.success(.ok)]
            return PushAttemptResult(attemptID: attempt.id, outcome: answers[min(n, answers.count - 1)])
        }
    }

    public func goAwayReason() -> String? {
        goAwayAsked += 1
        return goAway
    }
}

extension RequestSubject {
    /// How a script names it: the token's hex, the channel id, the call ("create", "read ID").
    public var scriptKey: String { name }
}

/// A provider token that changes each time it is renewed: "bearer token-1", "bearer token-2", …
public final class CountingAuthorization: AuthorizationSource {
    public var generation = 1
    public init() {}
    public func authorization() throws -> String? { "bearer token-\(generation)" }
    public func renew() throws { generation += 1 }
}

/// A clock of the test's. With `tick` it jumps forward whenever it is read (so back-offs cost no
/// real time); with no tick, only what moves it (a scripted transport's waits) does.
public final class FakeClock {
    public var now: Double
    public let tick: Double

    public init(now: Double = 0, tick: Double = 0.25) {
        self.now = now
        self.tick = tick
    }

    public func read() -> Double {
        now += tick
        return now
    }
}

/// A stop request that arrives when a test says (a signal, for the command line).
public final class TestStop: StopRequests {
    public var stopRequest: StopRequest?
    public init() {}
    public func signal(_ signal: StopSignal = .terminate) {
        stopRequest = StopRequest(signal: signal, count: (stopRequest?.count ?? 0) + 1)
    }
}

extension PushResponse {
    public static let ok = PushResponse(status: 200, apnsID: "id", apnsUniqueID: nil, body: [])
    public static func rejected(_ status: Int, _ reason: String, extra: String = "", retryAfter: Int? = nil) -> PushResponse {
        PushResponse(status: status, apnsID: "id", apnsUniqueID: nil, retryAfterSeconds: retryAfter, body: Array("{\"reason\":\"\(reason)\"\(extra)}".utf8))
    }
}
