import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import PushCore
public import PushCurl

/// Requests that are not for a device (a broadcast to a channel, a channel management call),
/// one after another over one libcurl transport, each retried as APNs allows (the same policy
/// as device pushes: 429/5xx/timeouts with back-off, a new JWT after ExpiredProviderToken).
public final class CallRunner {
    private let transport: CurlTransport
    private let authorization: any AuthorizationSource
    private let policy: RetryPolicy
    private var nextID = 0
    private var renewed = false

    public init(authorization: any AuthorizationSource, configuration: CurlTransportConfiguration, policy: RetryPolicy = RetryPolicy()) throws(InputError) {
        transport = try makeTransport(configuration)
        self.authorization = authorization
        self.policy = policy
    }

    private static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Sends `request` until it has a final result.
    public func perform(_ request: PushRequest) -> CallResult {
        let started = CallRunner.seconds()
        var attempts = 0
        while true {
            let header: String?
            do { header = try authorization.authorization() } catch {
                let problem = (error as? InputError)?.words ?? Words(verbatim: "\(error)")
                return CallResult(.failure(.abandoned(Words("not sent: ", es: "no se envió: ") + problem)), attempts: attempts)
            }
            attempts += 1
            nextID += 1
            let id = nextID
            transport.start(PushAttempt(id: id, request: request, authorization: header))
            var outcome: Result<PushResponse, TransportFailure>?
            while outcome == nil {
                for result in transport.poll(timeout: 1) where result.attemptID == id { outcome = result.outcome }
            }
            let reason: RejectionReason? = if case let .success(response) = outcome! { response.reason } else { nil }
            let decision = policy.decide(outcome!, attempts: attempts, elapsed: CallRunner.seconds() - started, tokenReplaced: false,
                                         mayRenew: reason == .expiredProviderToken && !renewed, random: Double.random(in: 0..<1))
            switch decision {
            case .final:
                return CallResult(outcome!, attempts: attempts)
            case let .exhausted(why):
                return CallResult(outcome!, attempts: attempts, exhausted: why)
            case let .again(after: delay):
                usleep(useconds_t(min(max(delay, 0), 60) * 1_000_000))
            case .againWithCurrentToken:
                continue
            case .renewToken:
                renewed = true
                if (try? authorization.renew()) == nil { return CallResult(outcome!, attempts: attempts) }
            }
        }
    }
}
