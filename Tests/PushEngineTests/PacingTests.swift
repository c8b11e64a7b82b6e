import PushCore
import PushEngine
import PushTestSupport
import Testing

/// `--rate`: the run's starts spread on its clock, whatever room the server gives.
@Suite struct PacingTests {
    @Test("rate 10 starts 20 notifications 0.1 s apart on the run's clock, though the server takes 100 at once; the run ends when the last is answered")
    func startsSpread() throws {
        let engine = Engine()
        engine.capacity = 100
        engine.transport().latency = 0.05
        var plan = Engine.plan(Engine.devices((0..<20).map(Engine.token)))
        plan.rate = 10
        let (results, summary) = try engine.run(plan)
        #expect(results.count == 20 && summary.accepted == 20)
        let starts = engine.transport().startTimes
        #expect(starts.count == 20)
        for (index, time) in starts.enumerated() {
            #expect(abs(time - Double(index) * 0.1) < 0.011, "start \(index) at \(time)")
        }
        // No spinning: a wait (a poll) per start or answer, give or take, not thousands.
        #expect(engine.transport().polls < 80, "\(engine.transport().polls) polls")
    }

    @Test("a high rate starts a few at each wake-up (10 ms of the rate), still on schedule; without a rate all start at once")
    func burstAndNone() throws {
        let engine = Engine()
        engine.capacity = 1000
        var plan = Engine.plan(Engine.devices((0..<500).map(Engine.token)))
        plan.rate = 1000
        _ = try engine.run(plan)
        let starts = engine.transport().startTimes
        #expect(starts.count == 500)
        #expect(abs((starts.last ?? 0) - 0.5) < 0.02, "the last starts at about 0.5 s: \(starts.last ?? -1)")
        #expect(engine.transport().polls < 120, "\(engine.transport().polls) polls")

        let free = Engine()
        free.capacity = 1000
        _ = try free.run(Engine.plan(Engine.devices((0..<500).map(Engine.token))))
        #expect(Set(free.transport().startTimes) == [0])
    }
}
