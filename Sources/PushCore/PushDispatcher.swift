/// Supplies the `authorization` value and renews it when APNs says the token expired.
public protocol AuthorizationSource: AnyObject {
    func authorization() throws -> String?
    /// Sign a new provider token (after 403 ExpiredProviderToken).
    func renew() throws
}

/// How hard to try again. Apple allows retries on 429, 5xx and lost connections, never on
/// 400, other 403s, 410 or 413.
public struct RetryPolicy: Sendable {
    public var maxRetries: Int
    public var baseDelay: Double
    public var maxDelay: Double

    /// A request lost with its connection was never processed: it gets this many tries more
    /// than --retries allows for answers APNs gave.
    public static let extraRetriesForLostConnections = 5

    public init(maxRetries: Int = 3, baseDelay: Double = 0.5, maxDelay: Double = 30) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Exponential back-off with full jitter; a server's Retry-After wins when longer.
    public func delay(beforeAttempt attempt: Int, retryAfter: Int?, random: Double) -> Double {
        let ceiling = min(maxDelay, baseDelay * Double(1 << min(attempt - 2, 20)))
        let jittered = ceiling * (0.5 + random / 2)
        return max(jittered, Double(retryAfter ?? 0))
    }
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
        let token: DeviceToken
        let attempts: Int
        var due: Double = 0
        /// The authorization value the last attempt carried.
        var sentWith: String? = nil
    }

    /// Sends to every token of `tokens` (read lazily, so a huge list streams), calling
    /// `onResult` once per token, in completion order.
    public func run<Tokens: Sequence>(_ tokens: Tokens, onResult: (PushResult) -> Void) -> BatchSummary
    where Tokens.Element == DeviceToken {
        let started = clock()
        var summary = BatchSummary()
        var iterator = tokens.makeIterator()
        var exhausted = false
        var inFlight: [Int: Pending] = [:]
        var retries: [Pending] = []  // sorted by due time
        var nextID = 0
        var renewed = false
        var unreachable: TransportFailure?

        func finish(_ result: PushResult) {
            summary.add(result)
            onResult(result)
        }

        func start(_ pending: Pending) {
            let header: String?
            do { header = try authorization.authorization() } catch {
                finish(PushResult(token: pending.token, failure: .other("could not sign the provider token: \(error)"), attempts: pending.attempts))
                return
            }
            nextID += 1
            inFlight[nextID] = Pending(token: pending.token, attempts: pending.attempts + 1, sentWith: header)
            transport.start(PushAttempt(id: nextID, token: pending.token, authorization: header))
        }

        func retryLater(_ pending: Pending, retryAfter: Int?) {
            var again = pending
            again.due = clock() + policy.delay(beforeAttempt: pending.attempts + 1, retryAfter: retryAfter, random: random())
            let index = retries.firstIndex { $0.due > again.due } ?? retries.endIndex
            retries.insert(again, at: index)
        }

        while true {
            // Fill the transport: due retries first, then new tokens.
            while transport.availableSlots > 0 {
                if let first = retries.first, first.due <= clock() {
                    retries.removeFirst()
                    if let failure = unreachable {
                        finish(PushResult(token: first.token, failure: failure, attempts: first.attempts))
                    } else {
                        start(first)
                    }
                    continue
                }
                if exhausted || unreachable != nil { break }
                guard let token = iterator.next() else { exhausted = true; break }
                start(Pending(token: token, attempts: 0))
            }
            if let failure = unreachable {
                // Nothing more can be sent: every waiting and remaining token still gets its result.
                for pending in retries { finish(PushResult(token: pending.token, failure: failure, attempts: pending.attempts)) }
                retries.removeAll()
                while !exhausted, let token = iterator.next() { finish(PushResult(token: token, failure: failure, attempts: 0)) }
                exhausted = true
            }
            if inFlight.isEmpty && retries.isEmpty && exhausted { break }

            let wait = retries.first.map { max(0, min(1, $0.due - clock())) } ?? 1
            for result in transport.poll(timeout: inFlight.isEmpty ? wait : min(wait, 1)) {
                guard let pending = inFlight.removeValue(forKey: result.attemptID) else { continue }
                switch result.outcome {
                case let .success(response):
                    guard let reason = response.reason else {
                        finish(PushResult(token: pending.token, response: response, attempts: pending.attempts))
                        continue
                    }
                    switch reason.retry {
                    case .never:
                        finish(PushResult(token: pending.token, response: response, attempts: pending.attempts))
                    case .withNewProviderToken:
                        // Sent with a token that has been replaced since (re-signed after another
                        // request's expiry, or refreshed at 50 minutes): send again with the new one.
                        // Otherwise re-sign once per run and send again at once; a second expiry is final.
                        if pending.sentWith != (try? authorization.authorization()) {
                            retries.insert(Pending(token: pending.token, attempts: pending.attempts, due: 0), at: 0)
                        } else if !renewed, (try? authorization.renew()) != nil {
                            renewed = true
                            retries.insert(Pending(token: pending.token, attempts: pending.attempts, due: 0), at: 0)
                        } else {
                            finish(PushResult(token: pending.token, response: response, attempts: pending.attempts))
                        }
                    case .afterBackoff, .onNewConnection:
                        if pending.attempts <= policy.maxRetries {
                            retryLater(pending, retryAfter: response.retryAfterSeconds)
                        } else {
                            finish(PushResult(token: pending.token, response: response, attempts: pending.attempts, outcome: .temporaryFailure))
                        }
                    }
                case let .failure(failure):
                    if case .unreachable = failure {
                        unreachable = unreachable ?? failure
                        finish(PushResult(token: pending.token, failure: failure, attempts: pending.attempts))
                    } else if case .connectionLost = failure, pending.attempts <= policy.maxRetries + RetryPolicy.extraRetriesForLostConnections {
                        // Lost with its connection (reset, GOAWAY, refused stream): never processed,
                        // so sending it again on a new connection costs APNs nothing.
                        retryLater(pending, retryAfter: nil)
                    } else if pending.attempts <= policy.maxRetries {
                        retryLater(pending, retryAfter: nil)
                    } else {
                        finish(PushResult(token: pending.token, failure: failure, attempts: pending.attempts))
                    }
                }
            }
        }
        summary.elapsedSeconds = clock() - started
        return summary
    }
}
