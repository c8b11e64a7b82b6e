import Foundation
import PushCore
import PushEngine
import PushTestSupport
import PushWords
import Testing

/// `--follow`'s input in process: results in input order, a bad line its own result, and the
/// window that keeps memory flat (no line read more than `FollowInput.window` past the first
/// result not yet written).
@Suite struct FollowInputTests {
    static func file(_ text: String) throws -> (path: String, cleanUp: () -> Void) {
        let (path, cleanUp) = try JournalRunTests.journalPath()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, cleanUp)
    }

    @Test("results come in input order though answers do not; a bad line is its own result in its place; a last line without its line end is read")
    func inputOrder() throws {
        let tokens = (0..<6).map(Engine.token)
        let (path, cleanUp) = try Self.file(tokens[0..<3].map(\.hex).joined(separator: "\n") + "\nnot-hex\n" + tokens[3...].map(\.hex).joined(separator: "\n"))
        defer { cleanUp() }
        let engine = Engine()
        engine.capacity = 10
        engine.transport().latency = 1
        engine.transport().latencyByKey[tokens[0].hex] = 5
        let input = try FollowInput(path, template: Engine.template, shard: nil)
        let (results, summary) = try engine.run(Engine.plan(.follow(input)))
        #expect(results.map(\.position) == Array(0..<7))
        #expect(results.map { $0.token?.hex ?? "line \($0.subject.name)" } == tokens[0..<3].map(\.hex) + ["line 4"] + tokens[3...].map(\.hex))
        #expect(results[3].outcome == .rejected && results[3].attempts == 0)
        #expect(summary.tokens == 7 && summary.accepted == 6 && summary.rejected == 1)
        #expect(input.count == 7 && engine.transport().started.count == 6)
    }

    @Test("no line is read more than the window past the first result not yet written: one slow answer holds the reading back")
    func window() throws {
        let count = FollowInput.window + 500
        let tokens = (0..<count).map(Engine.token)
        let (path, cleanUp) = try Self.file(tokens.map(\.hex).joined(separator: "\n") + "\n")
        defer { cleanUp() }
        let engine = Engine()
        engine.capacity = 100_000
        engine.transport().latencyByKey[tokens[0].hex] = 100
        let input = try FollowInput(path, template: Engine.template, shard: nil)
        let (results, _) = try engine.run(Engine.plan(.follow(input)))
        #expect(results.count == count && results.map(\.position) == Array(0..<count))
        let starts = engine.transport().startTimes
        #expect(starts[FollowInput.window - 1] < 1, "the window's lines start at once")
        #expect(starts[FollowInput.window] >= 100, "the next waits for the first answer: \(starts[FollowInput.window])")
    }

    @Test("an overlong last line without its line end gets its own refusal, in its place")
    func overlongLastLine() throws {
        let tokens = (0..<2).map(Engine.token)
        let (path, cleanUp) = try Self.file(tokens.map(\.hex).joined(separator: "\n") + "\n" + String(repeating: "a", count: 4096 + 10))
        defer { cleanUp() }
        let engine = Engine()
        let input = try FollowInput(path, template: Engine.template, shard: nil)
        let (results, summary) = try engine.run(Engine.plan(.follow(input)))
        #expect(results.count == 3 && summary.tokens == 3, "\(results)")
        let last = try #require(results.last)
        #expect(last.outcome == .rejected && last.attempts == 0 && last.position == 2)
        #expect(last.explanationCode.words.en.contains("line 3: longer than 4096 bytes"), "\(last.explanationCode.words.en)")
    }

    @Test("a followed run stopped while bad lines are still to be read: one result per line read, the stop's (not a changed input)")
    func stopWithRefusedLines() throws {
        let tokens = (0..<8).map(Engine.token)
        let lines = tokens[0..<2].map(\.hex) + ["bad-1"] + tokens[2..<5].map(\.hex) + ["bad-2"] + tokens[5...].map(\.hex)
        let (path, cleanUp) = try Self.file(lines.joined(separator: "\n") + "\n")
        defer { cleanUp() }
        let engine = Engine()
        engine.capacity = 1
        engine.transport().latency = 1
        let stop = TestStop()
        engine.transport().onPoll = { stop.signal(.terminate) }
        let input = try FollowInput(path, template: Engine.template, shard: nil)
        let (results, summary) = try engine.run(Engine.plan(.follow(input)), stop: stop, grace: 0)
        #expect(summary.stoppedBy?.signal == .terminate)
        #expect(results.count == input.count && summary.tokens == input.count, "\(results.count) results, \(input.count) places")
        #expect(Set(results.map(\.position)) == Set(0..<input.count), "each place once")
        #expect(results.filter { $0.outcome == PushResult.Outcome.rejected }.count == 2, "both bad lines have their refusal")
        try NotificationSource.follow(input).verifyAllSent(summary.tokens)
    }
}
