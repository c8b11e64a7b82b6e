/// The signals that ask a run to stop cleanly, by the names people know them by.
public enum StopSignal: String, Sendable, CaseIterable {
    case hangUp = "SIGHUP"
    case interrupt = "SIGINT"
    case terminate = "SIGTERM"
}

/// A request from outside a run to stop it: a signal, for the command line.
public struct StopRequest: Sendable, Equatable {
    /// What asked.
    public let signal: StopSignal
    /// How many times it was asked: a second request ends the grace at once.
    public let count: Int

    public init(signal: StopSignal, count: Int) {
        self.signal = signal
        self.count = count
    }

    /// What asked, as people know it: "SIGTERM", "SIGINT", "SIGHUP".
    public var name: String { signal.rawValue }
}

/// Where a run looks, after every wait, for a request to stop.
public protocol StopRequests: AnyObject {
    var stopRequest: StopRequest? { get }
}

/// What a stopped run says of a notification it has no answer for.
public enum StopMark: String, Sendable {
    /// APNs does not have it: never sent, or answered with something worth sending again (429,
    /// 5xx, a lost connection). Safe to send again.
    case notSent = "not-sent"
    /// Sent, and not answered before the stop (or its last attempt timed out): APNs may have it.
    /// Sending it again may deliver it twice.
    case inDoubt = "in-doubt"
}

/// What a stopped run says of a notification it holds no answer for (with the request that stopped it).
public enum StopNote: Sendable, Equatable, CaseIterable {
    /// Never sent: the run was stopped before it.
    case notSent
    /// Not accepted, and not sent again: the run was stopped before its retry.
    case notSentAgain
    /// Sent, and not answered before the stop: APNs may have it.
    case inDoubt
    /// Its last attempt timed out, and the run was stopped before a retry: APNs may have it.
    case timedOut
}

/// Why a run sends nothing more, and so what every notification it still holds gets.
enum RunStop {
    /// Nothing more is worth sending (APNs unreachable, a server that takes no requests or answers
    /// nothing, a key that cannot sign). Waiting retries and unread notifications get this failure
    /// as their result at once; answers for requests in flight still count as they come, and their
    /// failures are final.
    case failure(TransportFailure)
    /// Asked to stop (a signal). Nothing new starts; requests in flight get until `graceEnds` to be
    /// answered. Then: what has no answer is in doubt; what was never sent, or was answered with
    /// something worth sending again, is not sent.
    case requested(StopRequest, graceEnds: Double)
}
