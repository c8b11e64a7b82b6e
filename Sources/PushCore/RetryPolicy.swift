/// Supplies the `authorization` value and renews it when APNs refuses it.
public protocol AuthorizationSource: AnyObject {
    func authorization() throws -> String?
    /// Sign a new provider token (after 403 ExpiredProviderToken, or InvalidProviderToken for a
    /// token taken from the cache).
    func renew() throws
    /// Whether the token in use came from an earlier run's cache and has not been re-signed since:
    /// if APNs calls it invalid, one fresh signature is worth a try (and replaces the cached copy).
    var usesCachedToken: Bool { get }
    /// How many provider tokens this source has signed (not taken from a cache or given): what a
    /// run's metrics count against Apple's limit of one new token every 20 minutes.
    var signatures: Int { get }
}

extension AuthorizationSource {
    public var usesCachedToken: Bool { false }
    public var signatures: Int { 0 }
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

    public init(
        maxRetries: Int = 3, baseDelay: Double = 0.5, maxDelay: Double = 30,
        timeBudget: Double? = nil, deadServerAfter: Double? = nil
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.timeBudget = timeBudget
        self.deadServerAfter = deadServerAfter
    }

    /// The policy for a per-request `timeout`: a time budget of every allowed attempt timing out
    /// plus a minute of back-off, and a server silent for two timeouts is dead.
    public init(maxRetries: Int, requestTimeout timeout: Double) {
        self.init(
            maxRetries: maxRetries,
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
    public func decide(
        _ outcome: AttemptOutcome, attempts: Int, elapsed: Double,
        tokenReplaced: Bool, mayRenew: Bool, random: @autoclosure () -> Double
    ) -> RetryDecision {
        func backOff(limit: Int, retryAfter: Int?) -> RetryDecision {
            guard attempts <= limit else { return .exhausted(nil) }
            if let retryAfter, Double(retryAfter) > maxDelay {
                return .exhausted(.retryAfterTooLong(seconds: retryAfter, longest: Int(maxDelay)))
            }
            // Drawn only for a back-off: a random number costs a system call, and most answers are 200.
            let wait = delay(beforeAttempt: attempts + 1, retryAfter: retryAfter, random: random())
            if let timeBudget, elapsed + wait > timeBudget {
                return .exhausted(.timeSpent(seconds: Int(elapsed)))
            }
            return .again(after: wait)
        }
        switch outcome {
        case .success(let response):
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
        case .failure(let failure):
            switch failure {
            case .unreachable, .refused: return .final
            // Lost with its connection (reset, GOAWAY, refused stream): never processed, so
            // sending it again on a new connection costs APNs nothing.
            case .connectionLost: return backOff(limit: maxRetries + RetryPolicy.extraRetriesForLostConnections, retryAfter: nil)
            case .timedOut, .other: return backOff(limit: maxRetries, retryAfter: nil)
            case .abandoned: return .final
            }
        }
    }
}

/// The outcome of ``RetryPolicy/decide(_:attempts:elapsed:tokenReplaced:mayRenew:random:)``.
public enum RetryDecision: Equatable, Sendable {
    /// The answer (or failure) is this notification's result.
    case final
    /// Final as a temporary failure (exit 75): retries, Retry-After or time ran out; the
    /// limit, when given, says which (nil: the retries ran out).
    case exhausted(RetryLimit?)
    /// Send again after this many seconds.
    case again(after: Double)
    /// Sign a new provider token, then send again at once.
    case renewToken
    /// The provider token has been replaced since this attempt went out: send again with it now.
    case againWithCurrentToken
}

/// Which limit ended a notification's retries, when it was not their count.
public enum RetryLimit: Sendable, Equatable {
    /// The server asked to wait `seconds` (Retry-After), longer than the `longest` pushctl waits.
    case retryAfterTooLong(seconds: Int, longest: Int)
    /// The time allowed for one notification's retries was spent (`seconds` since its first attempt).
    case timeSpent(seconds: Int)
}
