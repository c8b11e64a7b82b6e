internal import CStopSignals
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import PushCore

/// SIGINT, SIGTERM and SIGHUP as requests to stop a sending run cleanly (what a cancelled CI job
/// sends): the run stops starting requests, gives those in flight a grace, and writes every result
/// and the summary. A second signal ends the grace at once. The transport wakes on `wakeDescriptor`.
public final class SignalStop: StopRequests, Sendable {
    /// Readable when a signal came: the transport watches it beside libcurl's sockets.
    public let wakeDescriptor: Int32

    /// Takes over the three signals for the rest of the process (nil if the system would not).
    public init?() {
        let fd = pushctl_stop_signals_install()
        guard fd >= 0 else { return nil }
        wakeDescriptor = fd
    }

    public var stopRequest: StopRequest? {
        pushctl_stop_signals_drain()
        let count = Int(pushctl_stop_signals_count())
        guard count > 0 else { return nil }
        let number = pushctl_stop_signals_last()
        return StopRequest(name: SignalStop.name(of: number), count: count)
    }

    /// The exit status of a process stopped by `name`: 128 + its number (130, 143, 129).
    public static func exitStatus(for request: StopRequest) -> Int32 {
        switch request.name {
        case "SIGINT": return 128 + SIGINT
        case "SIGHUP": return 128 + SIGHUP
        default: return 128 + SIGTERM
        }
    }

    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGHUP: return "SIGHUP"
        default: return "SIGTERM"
        }
    }
}
