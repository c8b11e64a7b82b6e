import Foundation
import PushCore
import PushEngine
import PushTestSupport
import PushWords
import Testing

/// A journal kept and resumed, and `--detect-environment`, through `SendRun` in process.
@Suite struct JournalRunTests {
    /// A path for a journal in a folder of its own, removed with `cleanUp`.
    static func journalPath() throws -> (path: String, cleanUp: () -> Void) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (dir.appendingPathComponent("journal.jsonl").path, { try? FileManager.default.removeItem(at: dir) })
    }

    static let tokens = (0..<3).map(Engine.token)
    static func plan() -> SendPlan { Engine.plan(Engine.devices(tokens), policy: RetryPolicy(maxRetries: 0, requestTimeout: 10)) }

    @Test("resume: what the journal settles (accepted, rejected) is reported from it and not sent; what failed for now is sent again")
    func resumeSkipsSettled() throws {
        let (path, cleanUp) = try Self.journalPath()
        defer { cleanUp() }
        let first = Engine()
        first.transport().script[Self.tokens[1].hex] = [.success(.rejected(410, "Unregistered"))]
        first.transport().script[Self.tokens[2].hex] = [.success(.rejected(503, "ServiceUnavailable"))]
        let (_, before) = try first.run(Self.plan(), journal: JournalSetting(path: path))
        #expect(before.accepted == 1 && before.rejected == 1 && before.temporaryFailures == 1)

        let second = Engine()
        let (results, summary) = try second.run(Self.plan(), journal: JournalSetting(path: path, resume: true))
        #expect(second.transport().started.map(\.token) == [Self.tokens[2]], "only what APNs did not settle")
        #expect(results.count == 3 && Set(results.map(\.position)) == [0, 1, 2])
        #expect(results.filter(\.resumed).map(\.position).sorted() == [0, 1])
        #expect(results.first { $0.position == 1 }?.reason?.apnsName == "Unregistered")
        #expect(summary.tokens == 3 && summary.resumed == 2 && summary.accepted == 2 && summary.rejected == 1)
    }

    @Test("resume after a stop: what was in doubt is sent again (and counted), or with skip-in-doubt reported and left out")
    func inDoubtResentOrSkipped() throws {
        let (path, cleanUp) = try Self.journalPath()
        defer { cleanUp() }
        let stopped = Engine()
        let stop = TestStop()
        stopped.transport().silent = [Self.tokens[1].hex]
        stopped.transport().onPoll = { if stop.stopRequest == nil { stop.signal() } }
        let (_, before) = try stopped.run(Self.plan(), journal: JournalSetting(path: path), stop: stop)
        #expect(before.inDoubt == 1 && before.accepted == 2)

        let (copy, cleanUpCopy) = try Self.journalPath()
        defer { cleanUpCopy() }
        try FileManager.default.copyItem(atPath: path, toPath: copy)

        let resent = Engine()
        let (again, _) = try resent.run(Self.plan(), journal: JournalSetting(path: path, resume: true))
        #expect(resent.transport().started.map(\.token) == [Self.tokens[1]])
        #expect(resent.inDoubtResent == 1)
        #expect(again.first { $0.position == 1 }?.outcome == .accepted)

        let skipped = Engine()
        let (left, summary) = try skipped.run(Self.plan(), journal: JournalSetting(path: copy, resume: true, skipInDoubt: true))
        #expect(skipped.transport().started.isEmpty)
        let doubt = try #require(left.first { $0.position == 1 })
        #expect(doubt.resumed && doubt.stopped == .inDoubt)
        #expect(summary.tokens == 3 && summary.inDoubt == 1)
    }

    @Test("a journal is never overwritten, and never resumed by a different run: usage errors before anything is sent")
    func journalRefusals() throws {
        let (path, cleanUp) = try Self.journalPath()
        defer { cleanUp() }
        _ = try Engine().run(Self.plan(), journal: JournalSetting(path: path))
        let engine = Engine()
        let overwrite = try #require(throws: InputError.self) { try engine.run(Self.plan(), journal: JournalSetting(path: path)) }
        #expect(overwrite.kind == .usage && overwrite.words.en.contains("never overwrites"))
        let other = Engine.plan(Engine.devices(Self.tokens + [Engine.token(9)]))
        let different = try #require(throws: InputError.self) { try engine.run(other, journal: JournalSetting(path: path, resume: true)) }
        #expect(different.kind == .usage && different.words.en.contains("different run"))
        #expect(engine.made.isEmpty, "no transport was made")
    }
}

@Suite struct EnvironmentDetectionTests {
    static func plan(_ tokens: [DeviceToken]) -> SendPlan {
        var plan = Engine.plan(Engine.devices(tokens))
        plan.detectEnvironment = true
        return plan
    }

    @Test("BadDeviceToken in the sandbox: tried once in production, and the one result says production took it")
    func movedToProduction() throws {
        let engine = Engine()
        let moved = Engine.token(1)
        let here = Engine.token(2)
        engine.transport(Engine.sandbox).script[moved.hex] = [.success(.rejected(400, "BadDeviceToken"))]
        let (results, summary) = try engine.run(Self.plan([moved, here]))
        #expect(engine.made == [Engine.sandbox.baseURL, Engine.production.baseURL])
        #expect(engine.transport(Engine.production).started.map(\.token) == [moved])
        #expect(results.count == 2)
        let result = try #require(results.first { $0.token == moved })
        #expect(result.outcome == .accepted && result.environment?.rawValue == "production")
        #expect(result.note?.en == "sandbox answered BadDeviceToken: the token belongs to production")
        #expect(results.first { $0.token == here }?.environment?.rawValue == "sandbox")
        #expect(summary.tokens == 2 && summary.accepted == 2 && summary.rejected == 0 && summary.movedToOtherEnvironment == 1)
    }

    @Test("refused in both environments: the first answer stands, with what the other said; counted once")
    func refusedInBoth() throws {
        let engine = Engine()
        let token = Engine.token(1)
        engine.transport(Engine.sandbox).script[token.hex] = [.success(.rejected(400, "BadDeviceToken"))]
        engine.transport(Engine.production).script[token.hex] = [.success(.rejected(400, "BadDeviceToken"))]
        let (results, summary) = try engine.run(Self.plan([token]))
        #expect(results.count == 1)
        #expect(results.first?.reason?.apnsName == "BadDeviceToken" && results.first?.note?.en == "production answered BadDeviceToken too")
        #expect(results.first?.json().compact.contains(#""environment":null"#) == true)
        #expect(summary.tokens == 1 && summary.rejected == 1 && summary.movedToOtherEnvironment == 0)
    }

    @Test("accepted where it was sent: no second environment is tried, and each result names the one that took it")
    func acceptedHere() throws {
        let engine = Engine()
        let (results, _) = try engine.run(Self.plan([Engine.token(1)]))
        #expect(engine.made == [Engine.sandbox.baseURL])
        #expect(results.first?.json().compact.contains(#""environment":"sandbox""#) == true)
    }
}
