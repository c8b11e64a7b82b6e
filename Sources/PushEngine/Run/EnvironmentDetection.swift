import PushCore
import PushWords

/// `--detect-environment`: results that point at the other environment wait; the tokens they are
/// for go once to Apple's other host, and each gets one final result saying which took it.
final class EnvironmentDetection: ResultObserver {
    private let plan: SendPlan
    private let forward: any ResultObserver
    private var held: [PushResult] = []
    private let here: APNsEnvironment?
    private(set) var secondTries: [(first: PushResult, other: PushResult)] = []

    init(plan: SendPlan, forward: any ResultObserver) {
        self.plan = plan
        self.forward = forward
        here = plan.destination.environment
    }

    func record(_ first: PushResult) {
        var result = first
        result.detectedEnvironment = true
        if let reason = result.reason, reason.pointsAtOtherEnvironment {
            held.append(result)
            return
        }
        if result.outcome == .accepted { result.environment = here }
        forward.record(result)
    }

    func pause() { forward.pause() }

    func stopping(_ request: StopRequest, inFlight: Int, grace: Double) { forward.stopping(request, inFlight: inFlight, grace: grace) }

    /// Held results as they were (a stopped run tries nothing more).
    func releaseHeld() {
        held.forEach(forward.record)
        held.removeAll()
    }

    /// The held tokens, once, in the other environment; each replaces its first result.
    func secondPass(_ summary: BatchSummary, run: SendRun, stop: (any StopRequests)?, grace: Double) throws(InputError) -> BatchSummary {
        guard let template = plan.notifications.template, let other = plan.destination.otherEnvironment, let here,
            let otherName = other.environment, !held.isEmpty
        else {
            releaseHeld()
            return summary
        }
        var summary = summary
        let firsts = Dictionary(held.map { ($0.position, $0) }, uniquingKeysWith: { a, _ in a })
        let requests = held.compactMap { first in
            first.token.map {
                run.ids?.apply(to: RunRequest(device: $0, shape: template.shape, position: first.position))
                    ?? RunRequest(device: $0, shape: template.shape, position: first.position)
            }
        }
        held.removeAll()
        let merge = SecondPassMerge(firsts: firsts, here: here, other: otherName, forward: forward)
        var next = 0
        let second = try run.dispatch(
            {
                guard next < requests.count else { return nil }
                next += 1
                return requests[next - 1]
            }, to: other, observer: merge, stop: stop, grace: grace)
        for (first, final) in merge.replaced { summary.replace(first, with: final) }
        secondTries = merge.tries
        summary.movedToOtherEnvironment = merge.moved
        summary.stoppedBy = summary.stoppedBy ?? second.stoppedBy
        return summary
    }
}

/// The second environment's answer merged with the first's: accepted there → that result, with a
/// note; refused there too → the first result, with what the other said.
private final class SecondPassMerge: ResultObserver {
    let firsts: [Int: PushResult]
    let here: APNsEnvironment
    let other: APNsEnvironment
    let forward: any ResultObserver
    var replaced: [(PushResult, PushResult)] = []
    var tries: [(first: PushResult, other: PushResult)] = []
    var moved = 0

    init(firsts: [Int: PushResult], here: APNsEnvironment, other: APNsEnvironment, forward: any ResultObserver) {
        self.firsts = firsts
        self.here = here
        self.other = other
        self.forward = forward
    }

    func record(_ second: PushResult) {
        guard let first = firsts[second.position] else { return }
        tries.append((first, second))
        var final: PushResult
        if second.outcome == .accepted {
            final = second
            final.environment = other
            final.note = Words(
                "\(here.rawValue) answered \(first.reason?.apnsName ?? "no"): the token belongs to \(other.rawValue)",
                es: "\(here.rawValue) respondió \(first.reason?.apnsName ?? "no"): el token es de \(other.rawValue)")
            moved += 1
        } else if second.stopped != nil {
            final = first
        } else {
            final = first
            let answer = second.reason.map { Words(verbatim: $0.apnsName) } ?? second.explanationWords
            final.note = Words("\(other.rawValue) answered ", es: "\(other.rawValue) respondió ") + answer + Words(" too", es: " también")
        }
        final.detectedEnvironment = true
        final.position = first.position
        replaced.append((first, final))
        forward.record(final)
    }

    func pause() { forward.pause() }

    func stopping(_ request: StopRequest, inFlight: Int, grace: Double) { forward.stopping(request, inFlight: inFlight, grace: grace) }
}
