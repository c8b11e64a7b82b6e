public import PushCore
import PushCrypto
public import PushCurl
import PushSystem
import PushWords

/// Makes the transport a run sends through, for its configuration: libcurl's (`SendRun.curl`), or
/// a test's scripted one.
public typealias TransportFactory = (CurlTransportConfiguration) throws(InputError) -> any PushTransport

/// Runs a plan — the one way into the engine: the dispatcher over a transport, a second try in the
/// other environment when asked, a journal kept and an earlier one resumed, every final result to
/// every observer once.
public final class SendRun {
    public let plan: SendPlan
    private let journalSetting: JournalSetting?
    private var replay: JournalReplay?
    private var journal: JournalWriter?
    private let makeTransport: TransportFactory
    private let clock: () -> Double
    private let random: () -> Double
    /// One run per journal: held from before the journal is read until the run is let go.
    private var lock: JournalLock?
    /// A journaled run's ids for each notification (nil without a journal).
    public private(set) var ids: NotificationIDs?

    /// Checks the journal before anything is sent: one another run holds is a temporary failure
    /// (`JournalLock`), an existing one without `resume` a usage error (nothing is overwritten),
    /// one of a different run too; one that cannot be created is 73.
    /// - transport: makes each transport the run sends through (libcurl's unless a test gives its own).
    /// - clock: monotonic seconds, for back-offs, time budgets and the stop's grace.
    /// - random: a number in 0…1 for each back-off's jitter.
    public init(
        plan: SendPlan, transport: @escaping TransportFactory = SendRun.curl,
        clock: @escaping () -> Double = MonotonicClock.seconds,
        random: @escaping () -> Double = { Double.random(in: 0...1) }
    ) throws(InputError) {
        self.plan = plan
        journalSetting = plan.journal
        makeTransport = transport
        self.clock = clock
        self.random = random
        guard let setting = plan.journal else { return }
        lock = try JournalLock(journal: setting.path)
        let exists = JournalFile.hasContent(setting.path)
        let identity = try plan.identity()
        if exists {
            guard setting.resume else { throw InputError(JournalProblem.alreadyHoldsARun(journal: setting.path)) }
            let replay = try JournalReplay(path: setting.path)
            let differences = identity.differences(from: replay.identity)
            guard differences.isEmpty else { throw InputError(JournalProblem.ofAnotherRun(journal: setting.path, differences: differences)) }
            self.replay = replay
        }
        // The run's id survives a resume: the journal's, or one derived from an older journal's identity.
        let runID = replay.map { $0.runID ?? NotificationIDs.legacyRunID($0.identity) } ?? NotificationIDs.newRunID()
        ids = NotificationIDs(run: runID, collapse: setting.collapseIDs)
        journal = try JournalWriter(path: setting.path, identity: identity, runID: runID, isNew: !exists, findings: plan.findings)
    }

    /// What the journal already settles, and so is not sent again: APNs' final answers (accepted,
    /// rejected), and with `skipInDoubt` what may have arrived.
    private var settled: [Int: PushResult] {
        guard let replay else { return [:] }
        let skipInDoubt = journalSetting?.skipInDoubt ?? false
        return replay.results.filter { _, result in
            result.outcome == .accepted || result.outcome == .rejected || (skipInDoubt && result.inDoubt)
        }
    }

    /// How many journaled notifications a resumed run sends again although APNs may have them.
    public private(set) var inDoubtResent = 0

    /// With `detectEnvironment`: each token tried in the other environment, with the answer of
    /// each environment as it came (the final result merges them).
    public private(set) var secondTries: [(first: PushResult, other: PushResult)] = []

    /// Sends, giving every notification's final result to each of `observers` (and the journal).
    /// `stop` (a signal) stops the run cleanly, with `grace` seconds for requests in flight.
    public func run(observers: [any ResultObserver], stop: (any StopRequests)? = nil, grace: Double = 5) throws(InputError) -> BatchSummary {
        let causes = plan.likelyCauses
        // The plan's likely cause joins the note of each result with that reason.
        let fanout = ResultFanout(
            observers + (journal.map { [$0] } ?? []),
            amend: causes.isEmpty
                ? nil
                : { result in
                    guard let reason = result.reason, let cause = causes[reason] else { return }
                    result.note = result.note.map { $0 + Words(verbatim: "; ") + cause } ?? cause
                })
        // A followed input's results are written in input order as they become final.
        let ordered: any ResultObserver
        if let input = plan.notifications.arriving {
            input.order.forward = fanout
            ordered = input.order
        } else {
            ordered = fanout
        }
        let settled = self.settled
        inDoubtResent = replay?.results.values.filter { $0.inDoubt && settled[$0.position] == nil }.count ?? 0
        // What the journal settles is reported first, marked as resumed, and not sent.
        for result in settled.values.sorted(by: { $0.position < $1.position }) { fanout.record(result) }
        let detector = plan.detectEnvironment ? EnvironmentDetection(plan: plan, forward: ordered) : nil
        let observer = detector.map { $0 as any ResultObserver } ?? ordered
        var summary = try dispatch(requests(skipping: settled), to: plan.destination, observer: observer, stop: stop, grace: grace)
        if let detector, summary.stoppedBy == nil {
            summary = try detector.secondPass(summary, run: self, stop: stop, grace: grace)
            secondTries = detector.secondTries
        } else if let detector {
            detector.releaseHeld()
        }
        for result in settled.values { summary.add(result) }
        summary.duplicatesSkipped = plan.notifications.duplicates
        summary.findings = plan.findings
        summary.shard = plan.notifications.shard
        if case .broadcast = plan.notifications { summary.noun = .channel }
        journal?.finish()
        return summary
    }

    /// Sends, calling `onResult` once with each notification's final result.
    public func run(stop: (any StopRequests)? = nil, grace: Double = 5, onResult: @escaping (PushResult) -> Void) throws(InputError) -> BatchSummary {
        try run(observers: [ClosureObserver(onResult)], stop: stop, grace: grace)
    }

    /// The plan's requests less what the journal settles, through the source's own iterator (no
    /// generic sequence between it and the run, which would cost every push).
    private func requests(skipping settled: [Int: PushResult]) -> () -> RunRequest? {
        var requests = plan.notifications.makeIterator()
        if let ids {
            // A journaled run: each notification with the ids it keeps in every try.
            return {
                while let request = requests.next() {
                    if settled[request.position] == nil { return ids.apply(to: request) }
                }
                return nil
            }
        }
        // A fresh run sends the list as it is: no lookup per push in an empty journal.
        if settled.isEmpty { return { requests.next() } }
        return {
            while let request = requests.next() {
                if settled[request.position] == nil { return request }
            }
            return nil
        }
    }

    /// One pass of the dispatcher over a new transport to `destination`.
    func dispatch(
        _ source: @escaping () -> RunRequest?, to destination: Destination, observer: any ResultObserver,
        stop: (any StopRequests)?, grace: Double
    ) throws(InputError) -> BatchSummary {
        var configuration = plan.connection.transport(to: destination)
        // A signal wakes libcurl's wait at once.
        configuration.wakeDescriptor = (stop as? SignalStop)?.wakeDescriptor
        let dispatcher = PushDispatcher(
            transport: try makeTransport(configuration), authorization: plan.authorization, policy: plan.policy,
            clock: clock, random: random, stopRequests: stop, grace: grace)
        dispatcher.rate = plan.rate
        dispatcher.arriving = plan.notifications.arriving
        return dispatcher.run(source: source, to: observer)
    }

    /// libcurl's transport for a configuration; a set-up failure is "unavailable" (69).
    public static func curl(_ configuration: CurlTransportConfiguration) throws(InputError) -> any PushTransport {
        // A libcurl without HTTP/2 or not on OpenSSL 3 is refused in the reader's language.
        try LibcurlCheck.require()
        do {
            return try CurlTransport(configuration: configuration)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(RunInputProblem.engineFailed(detail: "\(error)"), kind: .unavailable)
        }
    }

    /// Why the journal could not take every result, if it could not.
    public var journalError: InputError? { journal?.error }
}

/// SHA-256 as lower-case hex, of bytes in one piece.
enum SHA256Hex {
    static func of(_ bytes: [UInt8]) -> String {
        let stream = SHA256Stream()
        stream.update(bytes)
        return stream.finishHex()
    }
}

/// Seconds on a clock that never goes back (for durations, deadlines, back-offs).
public enum MonotonicClock {
    public static func seconds() -> Double { Clocks.monotonicSeconds() }
}
