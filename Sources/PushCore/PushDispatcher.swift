/// Supplies the `authorization` value and renews it when APNs refuses it.
public protocol AuthorizationSource: AnyObject {
    func authorization() throws -> String?
    /// Sign a new provider token (after 403 ExpiredProviderToken, or InvalidProviderToken for a
    /// token taken from the cache).
    func renew() throws
    /// Whether the token in use came from an earlier run's cache and has not been re-signed since:
    /// if APNs calls it invalid, one fresh signature is worth a try (and replaces the cached copy).
    var usesCachedToken: Bool { get }
}

extension AuthorizationSource {
    public var usesCachedToken: Bool { false }
}

/// How hard to try again. Apple allows retries on 429, 5xx and lost connections, never on
/// 400, other 403s, 410 or 413.
public struct RetryPolicy: Sendable {
    public var maxRetries: Int
    public var baseDelay: Double
    public var maxDelay: Double
    /// Seconds a notification may spend from its first attempt to its last retry; no retry
    /// starts past it (nil: no budget beyond the counts).
    public var timeBudget: Double?
    /// When nothing at all has been answered for this long while requests were in flight and
    /// timing out, the server is taken for dead: the run stops trying (nil: never).
    public var deadServerAfter: Double?

    /// A request lost with its connection was never processed: it gets this many tries more
    /// than --retries allows for answers APNs gave.
    public static let extraRetriesForLostConnections = 5

    public init(maxRetries: Int = 3, baseDelay: Double = 0.5, maxDelay: Double = 30,
                timeBudget: Double? = nil, deadServerAfter: Double? = nil) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.timeBudget = timeBudget
        self.deadServerAfter = deadServerAfter
    }

    /// The policy for a per-request `timeout`: a time budget of every allowed attempt timing out
    /// plus a minute of back-off, and a server silent for two timeouts is dead.
    public init(maxRetries: Int, requestTimeout timeout: Double) {
        self.init(maxRetries: maxRetries,
                  timeBudget: timeout * Double(maxRetries + 1) + 60,
                  deadServerAfter: 2 * timeout)
    }

    /// Exponential back-off with full jitter; a server's Retry-After wins when longer.
    public func delay(beforeAttempt attempt: Int, retryAfter: Int?, random: Double) -> Double {
        let ceiling = min(maxDelay, baseDelay * Double(1 << min(max(attempt - 2, 0), 20)))
        let jittered = ceiling * (0.5 + random / 2)
        return max(jittered, Double(retryAfter ?? 0))
    }

    /// What to do after one attempt: the retry rules as a pure function, table-tested.
    /// - `attempts`: attempts made so far, this one included.
    /// - `elapsed`: seconds since the notification's first attempt started.
    /// - `tokenReplaced`: the provider token changed since this attempt was sent.
    /// - `mayRenew`: a renewal of the provider token is still allowed for this reason
    ///   (ExpiredProviderToken once a run; InvalidProviderToken only for a cached token).
    /// - `random`: a number in 0…1 for the back-off's jitter, drawn only when one is needed.
    public func decide(_ outcome: Result<PushResponse, TransportFailure>, attempts: Int, elapsed: Double,
                       tokenReplaced: Bool, mayRenew: Bool, random: @autoclosure () -> Double) -> RetryDecision {
        func backOff(limit: Int, retryAfter: Int?) -> RetryDecision {
            guard attempts <= limit else { return .exhausted(nil) }
            if let retryAfter, Double(retryAfter) > maxDelay {
                return .exhausted("the server asked to wait \(retryAfter) s (Retry-After), longer than pushctl waits (\(Int(maxDelay)) s); try again later")
            }
            // Drawn only for a back-off: a random number costs a system call, and most answers are 200.
            let wait = delay(beforeAttempt: attempts + 1, retryAfter: retryAfter, random: random())
            if let timeBudget, elapsed + wait > timeBudget {
                return .exhausted("gave up after \(Int(elapsed)) s, the time allowed for one notification's retries")
            }
            return .again(after: wait)
        }
        switch outcome {
        case let .success(response):
            switch response.retry {
            case .never:
                if response.reason == .invalidProviderToken {
                    if tokenReplaced { return .againWithCurrentToken }
                    if mayRenew { return .renewToken }
                }
                return .final
            case .withNewProviderToken:
                if tokenReplaced { return .againWithCurrentToken }
                return mayRenew ? .renewToken : .final
            case .afterBackoff, .onNewConnection:
                return backOff(limit: maxRetries, retryAfter: response.retryAfterSeconds)
            }
        case let .failure(failure):
            switch failure {
            case .unreachable, .refused: return .final
            // Lost with its connection (reset, GOAWAY, refused stream): never processed, so
            // sending it again on a new connection costs APNs nothing.
            case .connectionLost: return backOff(limit: maxRetries + RetryPolicy.extraRetriesForLostConnections, retryAfter: nil)
            case .timedOut, .other: return backOff(limit: maxRetries, retryAfter: nil)
            }
        }
    }
}

/// The outcome of ``RetryPolicy/decide(_:attempts:elapsed:tokenReplaced:mayRenew:random:)``.
public enum RetryDecision: Equatable, Sendable {
    /// The answer (or failure) is this notification's result.
    case final
    /// Final as a temporary failure (exit 75): retries, Retry-After or time ran out; the
    /// text, when given, says which.
    case exhausted(String?)
    /// Send again after this many seconds.
    case again(after: Double)
    /// Sign a new provider token, then send again at once.
    case renewToken
    /// The provider token has been replaced since this attempt went out: send again with it now.
    case againWithCurrentToken
}

/// Sends one template to many tokens over a transport: keeps the transport full, retries
/// what Apple allows, and gives every token exactly one final result.
public final class PushDispatcher {
    private let transport: any PushTransport
    private let authorization: any AuthorizationSource
    private let policy: RetryPolicy
    private let clock: () -> Double
    private let random: () -> Double

    public init(transport: any PushTransport, authorization: any AuthorizationSource, policy: RetryPolicy = RetryPolicy(),
                clock: @escaping () -> Double, random: @escaping () -> Double = { Double.random(in: 0...1) }) {
        self.transport = transport
        self.authorization = authorization
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    private struct Pending {
        let notification: DeviceNotification
        var token: DeviceToken { notification.token }
        let attempts: Int
        var due: Double = 0
        /// When the first attempt started (nil before it).
        var firstStarted: Double? = nil
        /// The authorization value the last attempt carried.
        var sentWith: String? = nil
    }

    /// Sends one template to every token of `tokens`.
    public func run<Tokens: Sequence>(_ template: PushTemplate, to tokens: Tokens, onResult: (PushResult) -> Void) -> BatchSummary
    where Tokens.Element == DeviceToken {
        run(tokens.lazy.map(template.notification(to:)), onResult: onResult)
    }

    /// Sends every notification of `notifications` (read lazily, so a huge list streams),
    /// calling `onResult` once per notification, in completion order.
    public func run<Notifications: Sequence>(_ notifications: Notifications, onResult: (PushResult) -> Void) -> BatchSummary
    where Notifications.Element == DeviceNotification {
        let started = clock()
        var summary = BatchSummary()
        var iterator = notifications.makeIterator()
        var exhausted = false
        var inFlight: [Int: Pending] = [:]
        var retries: [Pending] = []  // sorted by due time
        var nextID = 0
        var renewedAfterExpiry = false
        var renewedCachedToken = false
        /// Set when nothing more can be sent: every waiting and remaining token gets this.
        var stopped: TransportFailure?
        /// When the server last answered anything (or the run started), and whether it ever did.
        var lastAnswer = started
        var answeredAny = false
        /// A server that closes every connection before answering may say why only in a GOAWAY:
        /// the transport is asked once, and a reason that retrying cannot cure becomes the answer
        /// of every request lost that way (final: each token gets it once, nothing is resent).
        var askedGoAway = false
        var goAwayAnswer: PushResponse?

        func finish(_ result: PushResult) {
            summary.add(result)
            onResult(result)
        }

        /// The time the current fill started: one clock read for all the requests it starts.
        var fillTime = started

        func start(_ pending: Pending) {
            let header: String?
            do { header = try authorization.authorization() } catch {
                // Not the network's fault: a key that cannot sign stops the run, and the caller
                // reports it as the input problem it is (every remaining notification: not sent).
                let problem = (error as? InputError) ?? InputError("could not sign the provider token: \(error)")
                summary.abortedBy = summary.abortedBy ?? problem
                let failure = TransportFailure.other("not sent: \(problem.message)")
                stopped = stopped ?? failure
                finish(PushResult(token: pending.token, failure: failure, attempts: pending.attempts))
                return
            }
            nextID += 1
            let now = fillTime
            inFlight[nextID] = Pending(notification: pending.notification, attempts: pending.attempts + 1,
                                       firstStarted: pending.firstStarted ?? now, sentWith: header)
            transport.start(PushAttempt(id: nextID, notification: pending.notification, authorization: header))
        }

        func schedule(_ pending: Pending, after delay: Double) {
            var again = pending
            again.due = clock() + delay
            let index = retries.firstIndex { $0.due > again.due } ?? retries.endIndex
            retries.insert(again, at: index)
        }

        while true {
            // Fill the transport: due retries first, then new tokens.
            fillTime = clock()
            while stopped == nil, transport.availableSlots > 0 {
                if let first = retries.first, first.due <= fillTime {
                    retries.removeFirst()
                    start(first)
                    continue
                }
                if exhausted { break }
                guard let notification = iterator.next() else { exhausted = true; break }
                start(Pending(notification: notification, attempts: 0))
            }
            if let failure = stopped {
                for pending in retries { finish(PushResult(token: pending.token, failure: failure, attempts: pending.attempts)) }
                retries.removeAll()
                while !exhausted, let notification = iterator.next() { finish(PushResult(token: notification.token, failure: failure, attempts: 0)) }
                exhausted = true
            }
            if inFlight.isEmpty && retries.isEmpty && exhausted { break }

            // A due retry shortens the wait only if there is room to start it: otherwise the loop
            // would spin (poll with no wait) until a slot frees up. Waiting costs no CPU.
            let nextDue = transport.availableSlots > 0 && stopped == nil ? retries.first?.due : nil
            let wait = nextDue.map { max(0, min(1, $0 - clock())) } ?? 1
            for polled in transport.poll(timeout: wait) {
                guard let pending = inFlight.removeValue(forKey: polled.attemptID) else { continue }
                var result = polled
                // A server that has answered requests in this run does take them: a request it
                // refused is one lost with a connection (say, between GOAWAYs), not a dead server.
                if case let .failure(.refused(detail)) = result.outcome, answeredAny {
                    result = PushAttemptResult(attemptID: polled.attemptID, outcome: .failure(.connectionLost(detail)))
                }
                var fromGoAway = false
                if !answeredAny, result.outcome.isLostWithConnection {
                    if !askedGoAway {
                        askedGoAway = true
                        if let name = transport.goAwayReason(), RejectionReason(apnsName: name).retry == .never {
                            let reason = RejectionReason(apnsName: name)
                            goAwayAnswer = PushResponse(status: reason.status, apnsID: nil, apnsUniqueID: nil,
                                                        body: JSONValue.object([("reason", .string(reason.apnsName))]).compactBytes)
                        }
                    }
                    if let answer = goAwayAnswer {
                        result = PushAttemptResult(attemptID: polled.attemptID, outcome: .success(answer))
                        fromGoAway = true
                    }
                }
                let now = clock()
                switch result.outcome {
                case .success:
                    lastAnswer = now
                    answeredAny = answeredAny || !fromGoAway
                case .failure(.unreachable), .failure(.refused):
                    stopped = stopped ?? result.outcome.failure
                    finish(PushResult(token: pending.token, failure: result.outcome.failure!, attempts: pending.attempts))
                    continue
                case let .failure(failure):
                    // Every request has been failing (timing out, reset, its connection dying), and
                    // nothing has been answered for two timeouts: the server takes connections but
                    // no requests. Stop trying; what is left gets its result now.
                    if stopped == nil, let limit = policy.deadServerAfter, now - lastAnswer >= limit {
                        let silence = Int(now - lastAnswer)
                        if case .timedOut = failure {
                            stopped = .timedOut("the server has answered nothing for \(silence) s; gave up on the notifications not yet answered")
                        } else {
                            stopped = .other("the server has answered no request for \(silence) s (\(failure)); gave up on the notifications not yet answered")
                        }
                    }
                }
                var reason: RejectionReason?
                if case let .success(response) = result.outcome { reason = response.reason }
                if case let .success(response) = result.outcome, response.reason == nil {
                    // Accepted: nothing to decide (the common case, kept free of the work below).
                    finish(PushResult(token: pending.token, response: response, attempts: pending.attempts))
                    continue
                }
                let current = try? authorization.authorization()
                let mayRenew: Bool
                switch reason {
                case .expiredProviderToken?: mayRenew = !renewedAfterExpiry
                case .invalidProviderToken?: mayRenew = !renewedCachedToken && authorization.usesCachedToken
                default: mayRenew = false
                }
                let decision = stopped != nil && result.outcome.isFailure
                    ? RetryDecision.final
                    : policy.decide(result.outcome, attempts: pending.attempts, elapsed: now - (pending.firstStarted ?? now),
                                    tokenReplaced: pending.sentWith != current, mayRenew: mayRenew, random: random())
                switch decision {
                case .final:
                    finish(PushResult(token: pending.token, outcome: result.outcome, attempts: pending.attempts))
                case let .exhausted(why):
                    finish(PushResult(token: pending.token, outcome: result.outcome, attempts: pending.attempts, exhausted: why))
                case let .again(after: delay):
                    schedule(pending, after: delay)
                case .againWithCurrentToken:
                    retries.insert(Pending(notification: pending.notification, attempts: pending.attempts, firstStarted: pending.firstStarted), at: 0)
                case .renewToken:
                    if reason == .invalidProviderToken { renewedCachedToken = true } else { renewedAfterExpiry = true }
                    if (try? authorization.renew()) != nil {
                        retries.insert(Pending(notification: pending.notification, attempts: pending.attempts, firstStarted: pending.firstStarted), at: 0)
                    } else {
                        finish(PushResult(token: pending.token, outcome: result.outcome, attempts: pending.attempts))
                    }
                }
            }
        }
        summary.elapsedSeconds = clock() - started
        return summary
    }
}

extension Result where Failure == TransportFailure {
    var failure: TransportFailure? { if case let .failure(f) = self { return f } else { return nil } }
    var isFailure: Bool { failure != nil }
    /// Died with its connection, or refused by a server that closes every connection.
    var isLostWithConnection: Bool {
        switch self {
        case .failure(.connectionLost), .failure(.refused): return true
        default: return false
        }
    }
}
