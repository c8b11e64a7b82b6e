/// Sends notifications over a transport: keeps the transport full, retries what Apple allows, and
/// gives every notification exactly one final result — also when the run is stopped.
public final class PushDispatcher {
    private let transport: any PushTransport
    private let authorization: any AuthorizationSource
    private let policy: RetryPolicy
    private let clock: () -> Double
    private let random: () -> Double
    private let stopRequests: (any StopRequests)?
    private let grace: Double
    /// `--rate`: at most this many requests started a second (nil: as fast as the server takes them).
    public var rate: Double?
    /// `--follow`: the source's requests arrive while the run goes on; its nil is "none yet" until it has ended.
    public var arriving: (any ArrivingRequests)?

    /// - stopRequests: asked after every wait whether to stop (a signal); nil: never stopped from outside.
    /// - grace: seconds requests already sent get to be answered once a stop is asked.
    public init(
        transport: any PushTransport, authorization: any AuthorizationSource, policy: RetryPolicy = RetryPolicy(),
        clock: @escaping () -> Double, random: @escaping () -> Double = { Double.random(in: 0...1) },
        stopRequests: (any StopRequests)? = nil, grace: Double = 5
    ) {
        self.transport = transport
        self.authorization = authorization
        self.policy = policy
        self.clock = clock
        self.random = random
        self.stopRequests = stopRequests
        self.grace = grace
    }

    /// Sends one template to every token of `tokens`.
    public func run<Tokens: Sequence>(_ template: PushTemplate, to tokens: Tokens, onResult: (PushResult) -> Void) -> BatchSummary
    where Tokens.Element == DeviceToken {
        run(tokens.lazy.map { RunRequest(template.notification(to: $0)) }, onResult: onResult)
    }

    /// Sends every request of `requests` (read lazily, so a huge list streams), calling
    /// `onResult` once per request, in completion order.
    public func run<Requests: Sequence>(_ requests: Requests, onResult: (PushResult) -> Void) -> BatchSummary
    where Requests.Element == RunRequest {
        withoutActuallyEscaping(onResult) { onResult in
            run(requests, to: ClosureObserver(onResult))
        }
    }

    /// Sends every request of `requests`, giving each final result to `observer` (once per
    /// request, in completion order) and telling it when the run is about to wait.
    public func run<Requests: Sequence>(_ requests: Requests, to observer: any ResultObserver) -> BatchSummary
    where Requests.Element == RunRequest {
        var requests = requests.makeIterator()
        return run(source: { requests.next() }, to: observer)
    }

    /// Sends every request `source` gives until it gives nil: not generic, so a caller's own
    /// iterator behind the closure costs a push no generic dispatch.
    public func run(source: @escaping () -> RunRequest?, to observer: any ResultObserver) -> BatchSummary {
        DispatchRun(
            source: source, transport: transport, authorization: authorization, policy: policy,
            clock: clock, random: random, stopRequests: stopRequests, grace: grace, observer: observer,
            pacing: rate.map(Pacing.init(rate:)), arriving: arriving
        ).run()
    }
}

/// Where a run's final results go: renderers, a dead-token file, a journal observe the same stream.
public protocol ResultObserver: AnyObject {
    func record(_ result: PushResult)
    /// The run is about to wait for answers: a moment to write out what was recorded.
    func pause()
    /// A stop was asked (`request`): nothing more is sent, and the `inFlight` requests get
    /// `grace` seconds to be answered (0: a second request ended the grace).
    func stopping(_ request: StopRequest, inFlight: Int, grace: Double)
}

extension ResultObserver {
    public func pause() {}
    public func stopping(_ request: StopRequest, inFlight: Int, grace: Double) {}
}

/// An observer that calls a closure with each result.
public final class ClosureObserver: ResultObserver {
    let body: (PushResult) -> Void
    public init(_ body: @escaping (PushResult) -> Void) { self.body = body }
    public func record(_ result: PushResult) { body(result) }
}

/// One run's state and its transitions: fill the transport, receive what it finished, decide each
/// answer, stop, and settle what is left. Every notification taken from the source (a device's, a
/// broadcast to a channel, a channel call) ends in exactly one call of `finish`. Not generic over
/// the source (a closure gives the next notification): a generic run, called from another module,
/// looks up the metadata of its own types at run time, on every push.
final class DispatchRun {
    /// A notification between attempts, or with one in flight.
    struct Pending {
        let notification: RunRequest
        /// Attempts made so far (the one in flight included, once started).
        var attempts: Int
        /// When the first attempt started (nil before it).
        var firstStarted: Double?
        /// The authorization value the last attempt carried.
        var sentWith: String?
        /// How the last attempt ended, when it ended without an answer worth keeping: a stop then
        /// says whether APNs may have it.
        var lastAttemptTimedOut = false
    }

    private let transport: any PushTransport
    private let authorization: any AuthorizationSource
    private let policy: RetryPolicy
    private let clock: () -> Double
    private let random: () -> Double
    private let stopRequests: (any StopRequests)?
    private let grace: Double
    private let observer: any ResultObserver

    private let source: () -> RunRequest?
    private var sourceExhausted = false
    private var inFlight = AttemptTable<Pending>()
    private var retries = RetryQueue<Pending>()
    private let started: Double
    /// The time the current fill started: one clock read for all the requests it starts.
    private var fillTime: Double
    private var breaker: DeadServerBreaker
    private var goAway = GoAwayAnswer()
    private var renewal = TokenRenewal()
    /// Whether the server has answered any request of this run (a GOAWAY's reason aside).
    private var answeredAny = false
    /// Set when nothing more is to be sent, with why.
    private var stop: RunStop?
    /// `--rate`'s bucket, and whether the last fill stopped for it with something left to start.
    private var pacing: Pacing?
    private var paced = false
    /// A followed input, and whether the last fill wanted more of it than had come.
    private let arriving: (any ArrivingRequests)?
    private var starved = false
    private var summary = BatchSummary()

    init(
        source: @escaping () -> RunRequest?, transport: any PushTransport, authorization: any AuthorizationSource, policy: RetryPolicy,
        clock: @escaping () -> Double, random: @escaping () -> Double, stopRequests: (any StopRequests)?, grace: Double,
        observer: any ResultObserver, pacing: Pacing? = nil, arriving: (any ArrivingRequests)? = nil
    ) {
        self.source = source
        self.pacing = pacing
        self.arriving = arriving
        self.transport = transport
        self.authorization = authorization
        self.policy = policy
        self.clock = clock
        self.random = random
        self.stopRequests = stopRequests
        self.grace = grace
        self.observer = observer
        started = clock()
        fillTime = started
        breaker = DeadServerBreaker(limit: policy.deadServerAfter, started: started)
    }

    /// Until every notification has its result: fill, wait, receive, and look for a stop.
    func run() -> BatchSummary {
        // A stop asked before anything started: nothing is sent.
        checkStopRequest()
        while true {
            fill()
            settleHeld()
            if inFlight.isEmpty && retries.isEmpty && sourceExhausted { break }
            observer.pause()
            // Starved of a followed input's lines: its descriptor ends the wait too.
            var answers = transport.poll(timeout: waitTime(), waking: starved ? arriving?.waitDescriptor : nil)
            // One clock read for the answers one wait brought (they arrived together).
            let now = answers.isEmpty ? 0 : clock()
            // Each answer moved out of the array, in order, not copied (a copy of an answer is a
            // retain of each of its strings).
            answers.reverse()
            while let polled = answers.popLast() { receive(polled, at: now) }
            checkStopRequest()
        }
        summary.elapsedSeconds = clock() - started
        return summary
    }

    // MARK: Transitions

    /// Starts due retries first, then new notifications, while the transport has room.
    private func fill() {
        fillTime = clock()
        paced = false
        starved = false
        defer { settleRefused() }
        while stop == nil, transport.availableSlots > 0, inFlight.hasRoom {
            if pacing != nil {
                // Nothing to start takes no token; something to start waits for one.
                if sourceExhausted && !(retries.nextDue.map { $0 <= fillTime } ?? false) { break }
                guard pacing!.take(at: fillTime) else {
                    paced = true
                    break
                }
            }
            if let due = retries.popDue(at: fillTime) {
                start(due)
            } else if !sourceExhausted, let notification = source() {
                start(Pending(notification: notification, attempts: 0))
            } else if !sourceExhausted, let arriving, !arriving.ended {
                // Nothing has come yet: not the end of the input.
                starved = true
                pacing?.refund()
                break
            } else {
                sourceExhausted = true
                break
            }
        }
    }

    /// A followed input's lines that are not requests: each its result, in its place.
    private func settleRefused() {
        guard let arriving else { return }
        while let refused = arriving.takeRefused() {
            summary.add(refused)
            observer.record(refused)
        }
    }

    private func start(_ pending: consuming Pending) {
        let header: String?
        do { header = try authorization.authorization() } catch {
            // Not the network's fault: a key that cannot sign stops the run, and the caller
            // reports it as the input problem it is (every remaining notification: not sent).
            let problem = (error as? InputError) ?? InputError(ProviderTokenProblem.cannotSign(String(describing: error)))
            summary.abortedBy = summary.abortedBy ?? problem
            let failure = TransportFailure.abandoned(.notSent(problem))
            halt(.failure(failure))
            finish(pending, PushResult(subject: pending.notification.subject, failure: failure, attempts: pending.attempts))
            return
        }
        // Changed in place and moved into the table (a copy of a pending notification is a
        // retain of each of its strings).
        pending.attempts += 1
        pending.firstStarted = pending.firstStarted ?? fillTime
        pending.sentWith = header
        pending.lastAttemptTimedOut = false
        let notification = pending.notification
        let id = inFlight.insert(pending)
        let attempt = PushAttempt(id: id, of: notification, authorization: header)
        transport.start(attempt)
    }

    /// One finished attempt: what it means for its notification.
    private func receive(_ polled: consuming PushAttemptResult, at now: Double) {
        guard var pending = inFlight.remove(id: polled.attemptID) else { return }
        let outcome = interpret(polled.outcome)
        switch outcome {
        case .success:
            breaker.answered(at: now)
        case .failure(.unreachable), .failure(.refused):
            halt(.failure(outcome.failure!))
            finish(pending, PushResult(subject: pending.notification.subject, failure: outcome.failure!, attempts: pending.attempts))
            return
        case .failure(let failure):
            if case .timedOut = failure { pending.lastAttemptTimedOut = true }
            if let verdict = breaker.verdict(after: failure, at: now) { halt(.failure(verdict)) }
        }
        if case .success(let response) = outcome, response.reason == nil {
            // Accepted: nothing to decide (the common case, kept free of the work below).
            finish(pending, PushResult(subject: pending.notification.subject, response: response, attempts: pending.attempts))
            return
        }
        decide(pending, outcome, at: now)
    }

    /// What a finished attempt's outcome stands for: a refusal from a server that has answered is
    /// a lost request; a loss before any answer may take a GOAWAY's reason as its answer.
    private func interpret(_ outcome: consuming AttemptOutcome) -> AttemptOutcome {
        // A server that has answered requests in this run does take them: a request it refused is
        // one lost with a connection (say, between GOAWAYs), not a dead server.
        if case .failure(.refused(let detail)) = outcome, answeredAny { return .failure(.connectionLost(detail)) }
        if outcome.isLostWithConnection, let answer = goAway.substitute(answeredAny: answeredAny, ask: transport.goAwayReason) {
            return .success(answer)
        }
        if case .success = outcome { answeredAny = true }
        return outcome
    }

    /// The retry decision for an answer that is not an acceptance, and what follows from it.
    private func decide(_ pending: Pending, _ outcome: AttemptOutcome, at now: Double) {
        let reason: RejectionReason? = if case .success(let response) = outcome { response.reason } else { nil }
        let decision: RetryDecision
        switch stop {
        case .failure? where outcome.isFailure:
            decision = .final
        case .requested?:
            // Nothing new starts after a stop: what would have been sent again is held for the settlement.
            decision = retryDecision(pending, outcome, reason: reason, at: now).sendsAgain ? .again(after: 0) : .final
        default:
            decision = retryDecision(pending, outcome, reason: reason, at: now)
        }
        let subject = pending.notification.subject
        switch decision {
        case .final:
            finish(pending, PushResult(subject: subject, outcome: outcome, attempts: pending.attempts))
        case .exhausted(let why):
            finish(pending, PushResult(subject: subject, outcome: outcome, attempts: pending.attempts, exhausted: why))
        case .again(after: let delay):
            retries.add(pending, due: now + delay)
        case .againWithCurrentToken:
            retries.addFirst(pending)
        case .renewToken:
            renewal.renewing(for: reason)
            if (try? authorization.renew()) != nil {
                retries.addFirst(pending)
            } else {
                finish(pending, PushResult(subject: subject, outcome: outcome, attempts: pending.attempts))
            }
        }
    }

    private func retryDecision(
        _ pending: Pending, _ outcome: AttemptOutcome,
        reason: RejectionReason?, at now: Double
    ) -> RetryDecision {
        let current = try? authorization.authorization()
        return policy.decide(
            outcome, attempts: pending.attempts, elapsed: now - (pending.firstStarted ?? now),
            tokenReplaced: pending.sentWith != current,
            mayRenew: renewal.mayRenew(for: reason, usesCachedToken: authorization.usesCachedToken),
            random: random())
    }

    /// Nothing more is sent: the first reason stands (a failure outranks a later stop request).
    private func halt(_ why: RunStop) {
        if stop == nil { stop = why }
    }

    /// After a wait: a stop request starts the grace; a second one, or the grace's end, settles
    /// the requests still in flight.
    private func checkStopRequest() {
        guard let request = stopRequests?.stopRequest else { return }
        let now = clock()
        switch stop {
        case nil, .failure?:
            summary.stoppedBy = request
            let graceEnds = request.count > 1 ? now : now + grace
            // A stop request replaces a failure's stop: the unsent are then "not sent", and resumable.
            stop = .requested(request, graceEnds: graceEnds)
            observer.stopping(request, inFlight: inFlight.count, grace: graceEnds - now)
        case .requested(let earlier, let graceEnds)?:
            summary.stoppedBy = request
            stop = .requested(request, graceEnds: request.count > 1 ? min(graceEnds, now) : graceEnds)
            if request.count > earlier.count { observer.stopping(request, inFlight: inFlight.count, grace: 0) }
        }
        if case .requested(let request, let graceEnds)? = stop, now >= graceEnds { settleInFlight(request) }
    }

    /// Once stopped: the waiting retries and the unread notifications get their results now.
    private func settleHeld() {
        if stop != nil, let arriving, !sourceExhausted {
            // A followed input is read no further: what did not come is not this run's.
            arriving.stopReading()
            settleRefused()
        }
        switch stop {
        case nil:
            return
        case .failure(let failure)?:
            for pending in retries.drain() {
                finish(pending, PushResult(subject: pending.notification.subject, failure: failure, attempts: pending.attempts))
            }
            while !sourceExhausted, let notification = source() {
                finish(
                    Pending(notification: notification, attempts: 0),
                    PushResult(subject: notification.subject, failure: failure, attempts: 0))
            }
        case .requested(let request, _)?:
            for pending in retries.drain() { finish(pending, stoppedResult(pending, request)) }
            while !sourceExhausted, let notification = source() {
                let pending = Pending(notification: notification, attempts: 0)
                finish(pending, stoppedResult(pending, request))
            }
        }
        sourceExhausted = true
        // Lines of a followed input read while draining it that were not requests: each its result.
        settleRefused()
    }

    /// The grace is over: what is still in flight is in doubt.
    private func settleInFlight(_ request: StopRequest) {
        for pending in inFlight.drain() {
            finish(
                pending,
                PushResult(
                    subject: pending.notification.subject, stopped: .inDoubt, attempts: pending.attempts,
                    note: .inDoubt, request: request))
        }
    }

    /// A stopped run's result for a notification not in flight: in doubt if its last attempt timed
    /// out (APNs may have it), else not sent.
    private func stoppedResult(_ pending: Pending, _ request: StopRequest) -> PushResult {
        let subject = pending.notification.subject
        if pending.lastAttemptTimedOut {
            return PushResult(subject: subject, stopped: .inDoubt, attempts: pending.attempts, note: .timedOut, request: request)
        }
        return PushResult(
            subject: subject, stopped: .notSent, attempts: pending.attempts,
            note: pending.attempts == 0 ? .notSent : .notSentAgain, request: request)
    }

    /// The one place a notification's final result goes.
    private func finish(_ pending: Pending, _ result: consuming PushResult) {
        result.position = pending.notification.position
        summary.add(result)
        observer.record(result)
    }

    /// How long the next wait may last: until the next due retry (only if there is room to start
    /// it, or the loop would spin), the grace's end, or a second.
    private func waitTime() -> Double {
        let now = clock()
        var until = now + 1
        if stop == nil, transport.availableSlots > 0, let due = retries.nextDue { until = min(until, due) }
        // Paced: the wait ends when the rate allows the next start (no spinning before it).
        if stop == nil, paced, let pacing { until = min(until, pacing.nextToken(after: now)) }
        if case .requested(_, let graceEnds)? = stop { until = min(until, graceEnds) }
        return max(0, until - now)
    }
}

extension RetryDecision {
    /// Whether the notification would be sent again.
    var sendsAgain: Bool {
        switch self {
        case .again, .againWithCurrentToken, .renewToken: return true
        case .final, .exhausted: return false
        }
    }
}

extension AttemptOutcome {
    var failure: TransportFailure? { if case .failure(let f) = self { return f } else { return nil } }
    var isFailure: Bool { failure != nil }
    /// Died with its connection, or refused by a server that closes every connection.
    var isLostWithConnection: Bool {
        switch self {
        case .failure(.connectionLost), .failure(.refused): return true
        default: return false
        }
    }
}
