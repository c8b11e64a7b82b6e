import ChildProcess
import PushCore
import PushEngine
import PushTestSupport
import Testing

/// The run's promise under any mix of answers, delays, lost connections, GOAWAYs and stops: every
/// notification it was given gets exactly one final result, and the summary adds them up.
@Suite struct OneResultPropertyTests {
    static let answers: [AttemptOutcome] = [
        .success(.ok), .success(.ok), .success(.ok),
        .success(.rejected(410, "Unregistered", extra: #","timestamp":1700000000000"#)),
        .success(.rejected(400, "BadDeviceToken")),
        .success(.rejected(503, "ServiceUnavailable")),
        .success(.rejected(429, "TooManyRequests", retryAfter: 2)),
        .success(.rejected(403, "ExpiredProviderToken")),
        .failure(.timedOut("no answer in time")),
        .failure(.connectionLost("GOAWAY")),
        .failure(.refused("the server takes no requests")),
    ]

    /// One random run: its plan's subjects, what happened, and what the transport saw.
    struct Case {
        var subjects: [RequestSubject]
        var results: [PushResult]
        var summary: BatchSummary
        var started: [PushAttempt]
    }

    static func randomRun(_ random: inout SplitMix64) throws -> Case {
        let engine = Engine()
        engine.capacity = Int.random(in: 1...6, using: &random)
        let count = Int.random(in: 1...25, using: &random)
        let broadcast = random.chance(30)
        let source: NotificationSource =
            broadcast
            ? .broadcast(Engine.broadcast, channels: (0..<count).map { "Y2\($0)" })
            : Engine.devices((0..<count).map(Engine.token))
        let subjects: [RequestSubject] = broadcast ? (0..<count).map { .channel("Y2\($0)") } : (0..<count).map { .device(Engine.token($0)) }
        let transport = engine.transport()
        let stop = TestStop()
        // A silent request only with a stop to end it (a real transport's timeout would).
        let stopAtPoll = random.chance(40) ? Int.random(in: 1...12, using: &random) : nil
        let twice = random.chance(30)
        for subject in subjects {
            let key = subject.scriptKey
            transport.script[key] = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(answers) }
            if random.chance(3) { transport.script[key] = [.failure(.unreachable("no route", cause: .connection))] }
            transport.latencyByKey[key] = Double(Int.random(in: 0...30, using: &random)) / 10
            if stopAtPoll != nil && random.chance(10) { transport.silent.insert(key) }
        }
        if random.chance(10) { transport.goAway = random.pick(["TopicDisallowed", "Shutdown", "BadCertificateEnvironment"]) }
        transport.onPoll = {
            guard let at = stopAtPoll, transport.polls >= at, stop.stopRequest == nil || (twice && stop.stopRequest?.count == 1) else { return }
            stop.signal()
        }
        let policy =
            random.chance(50)
            ? RetryPolicy(maxRetries: Int.random(in: 0...3, using: &random), requestTimeout: 3)
            : RetryPolicy(maxRetries: Int.random(in: 0...3, using: &random), baseDelay: 0.5, maxDelay: 30)
        let (results, summary) = try engine.run(
            Engine.plan(source, policy: policy), stop: stop,
            grace: Double(Int.random(in: 0...40, using: &random)) / 10)
        return Case(subjects: subjects, results: results, summary: summary, started: transport.started)
    }

    @Test("every notification gets exactly one final result, under 300 random scripts (fixed seed)")
    func oneResultEach() throws {
        var random = SplitMix64(seed: 0x0E5E_2026_0039)
        for run in 0..<300 {
            let c = try Self.randomRun(&random)
            let positions = c.results.map(\.position).sorted()
            #expect(positions == Array(c.subjects.indices), "run \(run): one result for each place in the list")
            #expect(c.results.allSatisfy { c.subjects[$0.position] == $0.subject }, "run \(run): each result names its own request")
            let s = c.summary
            #expect(
                s.tokens == c.subjects.count
                    && s.accepted + s.rejected + s.temporaryFailures + s.unreachable + s.notSent + s.inDoubt == s.tokens, "run \(run): the summary adds up")
            let startedBySubject = Dictionary(grouping: c.started, by: \.subject.scriptKey).mapValues(\.count)
            for result in c.results {
                let sent = startedBySubject[result.subject.scriptKey] ?? 0
                #expect(result.attempts == sent, "run \(run): \(result.subject) counts \(result.attempts) attempts, \(sent) were started")
                if result.stopped == .inDoubt { #expect(sent > 0, "run \(run): in doubt but never sent") }
            }
        }
    }
}
