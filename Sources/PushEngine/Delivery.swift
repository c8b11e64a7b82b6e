public import PushCore
import PushWords
public import PushCurl
import PushSystem

/// Sends one notification to every token over libcurl, with retries, calling `onResult` once
/// per token. Shared by `send` and `demo`.
public func deliver<Tokens: Sequence>(
    _ template: PushTemplate, to tokens: Tokens, authorization: any AuthorizationSource,
    configuration: CurlTransportConfiguration, policy: RetryPolicy = RetryPolicy(), onResult: (PushResult) -> Void
) throws(InputError) -> BatchSummary where Tokens.Element == DeviceToken {
    try deliver(tokens.lazy.map(template.notification(to:)), authorization: authorization, configuration: configuration,
                policy: policy, onResult: onResult)
}

/// Sends every notification over libcurl, with retries, calling `onResult` once for each.
/// With `stop`, a signal stops the run cleanly: requests in flight get `grace` seconds to be
/// answered, and every notification still gets its one result.
public func deliver<Notifications: Sequence>(
    _ notifications: Notifications, authorization: any AuthorizationSource,
    configuration: CurlTransportConfiguration, policy: RetryPolicy = RetryPolicy(),
    stop: SignalStop? = nil, grace: Double = 5, onResult: (PushResult) -> Void
) throws(InputError) -> BatchSummary where Notifications.Element == DeviceNotification {
    var configuration = configuration
    configuration.wakeDescriptor = stop?.wakeDescriptor
    let transport = try makeTransport(configuration)
    let dispatcher = PushDispatcher(
        transport: transport, authorization: authorization, policy: policy,
        clock: MonotonicClock.seconds, stopRequests: stop, grace: grace)
    return dispatcher.run(notifications, onResult: onResult)
}

/// Seconds on a clock that never goes back (for durations, deadlines, back-offs).
public enum MonotonicClock {
    public static func seconds() -> Double { Clocks.monotonicSeconds() }
}

/// libcurl's transport for this configuration; a set-up failure is "unavailable" (69).
func makeTransport(_ configuration: CurlTransportConfiguration) throws(InputError) -> CurlTransport {
    do {
        return try CurlTransport(configuration: configuration)
    } catch let error as InputError {
        throw error
    } catch {
        throw InputError(Words(verbatim: "\(error)"), kind: .unavailable)
    }
}
