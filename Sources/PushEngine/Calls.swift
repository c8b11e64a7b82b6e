public import PushCore
import PushWords
import PushCurl

/// Requests that are not for a device (a broadcast to a channel, a channel management call),
/// one after another over one libcurl transport, each retried as APNs allows (the same policy
/// as device pushes: 429/5xx/timeouts with back-off, a new JWT after ExpiredProviderToken).
/// A stop signal ends the calls cleanly: the one in flight gets the grace, the rest are not sent.
public final class CallRunner {
    private let transport: CurlTransport
    private let authorization: any AuthorizationSource
    private let policy: RetryPolicy
    private let stop: SignalStop?
    private let grace: Double
    private var nextID = 0
    private var renewed = false
    /// When a stop was first seen (a second signal ends the grace at once).
    private var stopSeen: Double?

    public init(authorization: any AuthorizationSource, connection: ConnectionSettings, destination: Destination,
                policy: RetryPolicy = RetryPolicy(), stop: SignalStop? = nil, grace: Double = 5) throws(InputError) {
        var configuration = connection.transport(to: destination)
        configuration.wakeDescriptor = stop?.wakeDescriptor
        transport = try makeTransport(configuration)
        self.authorization = authorization
        self.policy = policy
        self.stop = stop
        self.grace = grace
    }

    /// The stop asked for, if one was.
    public var stopRequest: StopRequest? { stop?.stopRequest }

    /// Sends `request` until it has a final result (or a stop settles it).
    public func perform(_ request: PushRequest) -> CallResult {
        let started = MonotonicClock.seconds()
        var attempts = 0
        while true {
            if let stopped = stopRequest { return CallResult(stopped: .notSent, attempts: attempts, request: stopped) }
            let header: String?
            do { header = try authorization.authorization() } catch {
                let problem = (error as? InputError) ?? InputError(Words(verbatim: "\(error)"))
                return CallResult(.failure(.abandoned(.notSent(problem))), attempts: attempts)
            }
            attempts += 1
            nextID += 1
            transport.start(PushAttempt(id: nextID, request: request, authorization: header))
            guard let outcome = awaitAnswer(nextID) else {
                return CallResult(stopped: .inDoubt, attempts: attempts, request: stopRequest ?? StopRequest(name: "SIGTERM", count: 1))
            }
            let reason: RejectionReason? = if case let .success(response) = outcome { response.reason } else { nil }
            let decision = policy.decide(outcome, attempts: attempts, elapsed: MonotonicClock.seconds() - started, tokenReplaced: false,
                                         mayRenew: reason == .expiredProviderToken && !renewed, random: Double.random(in: 0..<1))
            switch decision {
            case .final:
                return CallResult(outcome, attempts: attempts)
            case let .exhausted(why):
                return CallResult(outcome, attempts: attempts, exhausted: why)
            case let .again(after: delay):
                // The back-off waits on the transport, so a stop signal ends it at once.
                let until = MonotonicClock.seconds() + min(max(delay, 0), 60)
                while stopRequest == nil, MonotonicClock.seconds() < until { _ = transport.poll(timeout: until - MonotonicClock.seconds()) }
            case .againWithCurrentToken:
                continue
            case .renewToken:
                renewed = true
                if (try? authorization.renew()) == nil { return CallResult(outcome, attempts: attempts) }
            }
        }
    }

    /// The attempt's outcome, or nil when a stop's grace ran out before it came.
    private func awaitAnswer(_ id: Int) -> AttemptOutcome? {
        while true {
            var wait = 1.0
            if let request = stopRequest {
                let now = MonotonicClock.seconds()
                let seen = stopSeen ?? now
                stopSeen = seen
                let ends = request.count > 1 ? now : seen + grace
                if now >= ends { return nil }
                wait = min(wait, ends - now)
            }
            for result in transport.poll(timeout: wait) where result.attemptID == id { return result.outcome }
        }
    }
}
