public import PushCore
import PushWords

/// Every final result to each observer, in order; `amend` first changes it.
public final class ResultFanout: ResultObserver {
    private let observers: [any ResultObserver]
    private let amend: ((inout PushResult) -> Void)?

    public init(_ observers: [any ResultObserver], amend: ((inout PushResult) -> Void)? = nil) {
        self.observers = observers
        self.amend = amend
    }

    public func record(_ result: PushResult) {
        // Copied only to be amended: a copy of a result is a retain of each of its strings.
        guard let amend else {
            for observer in observers { observer.record(result) }
            return
        }
        var amended = result
        amend(&amended)
        for observer in observers { observer.record(amended) }
    }

    public func pause() {
        for observer in observers { observer.pause() }
    }

    public func stopping(_ request: StopRequest, inFlight: Int, grace: Double) {
        for observer in observers { observer.stopping(request, inFlight: inFlight, grace: grace) }
    }
}
