public import PushCore
import PushSystem
import PushWords

/// SIGINT, SIGTERM and SIGHUP as requests to stop a sending run cleanly (what a cancelled CI job
/// sends): the run stops starting requests, gives those in flight a grace, and writes every result
/// and the summary. A second signal ends the grace at once. The transport wakes on `wakeDescriptor`.
public final class SignalStop: StopRequests, Sendable {
    /// Readable when a signal came: the transport watches it beside libcurl's sockets.
    public let wakeDescriptor: Int32

    /// Takes over the three signals for the rest of the process (nil if the system would not).
    public init?() {
        guard let fd = StopSignals.install() else { return nil }
        wakeDescriptor = fd
    }

    public var stopRequest: StopRequest? {
        let received = StopSignals.received()
        guard received.count > 0 else { return nil }
        let signal: StopSignal =
            switch received.last ?? .terminate {
            case .interrupt: .interrupt
            case .hangUp: .hangUp
            default: .terminate
            }
        return StopRequest(signal: signal, count: received.count)
    }

    /// The exit status of a process stopped by `request`'s signal: 128 + its number (130, 143, 129).
    public static func exitStatus(for request: StopRequest) -> Int32 {
        switch request.signal {
        case .interrupt: 128 + Signal.interrupt.number
        case .hangUp: 128 + Signal.hangUp.number
        case .terminate: 128 + Signal.terminate.number
        }
    }
}
