import Foundation
import PushCore
import PushEngine
import PushTestSupport
import Testing

/// A journaled run's own apns-id and apns-collapse-id (`NotificationIDs`): on every try of a
/// notification the same, distinct between notifications, never over the user's.
@Suite struct NotificationIDTests {
    static let tokens = (0..<4).map(Engine.token)

    static func plan(_ template: PushTemplate = Engine.template) -> SendPlan {
        Engine.plan(.list(template, tokens, duplicates: 0), policy: RetryPolicy(maxRetries: 0, requestTimeout: 10))
    }

    /// A header's value in each request the transport started, by token.
    static func header(_ name: String, _ transport: ScriptedTransport) -> [String: String] {
        var values: [String: String] = [:]
        for attempt in transport.started {
            let prefix = name + ": "
            if let line = attempt.request.shape.headerLines.first(where: { $0.hasPrefix(prefix) }) {
                values[attempt.subject.name] = String(line.dropFirst(prefix.count))
            }
        }
        return values
    }

    @Test("every alert of a journaled run carries its own collapse id (at most 64 bytes) and a canonical apns-id; without a journal, neither")
    func distinctIDs() throws {
        let (path, cleanUp) = try JournalRunTests.journalPath()
        defer { cleanUp() }
        let engine = Engine()
        _ = try engine.run(Self.plan(), journal: JournalSetting(path: path))
        let collapse = Self.header("apns-collapse-id", engine.transport())
        let ids = Self.header("apns-id", engine.transport())
        #expect(collapse.count == 4 && Set(collapse.values).count == 4, "\(collapse)")
        #expect(collapse.values.allSatisfy { $0.hasPrefix("pushctl-") && $0.utf8.count <= 64 })
        #expect(ids.count == 4 && Set(ids.values).count == 4)
        #expect(ids.values.allSatisfy { PushTemplate.isCanonicalUUID($0) && $0 == $0.lowercased() }, "\(ids)")

        let plain = Engine()
        _ = try plain.run(Self.plan())
        #expect(Self.header("apns-collapse-id", plain.transport()).isEmpty && Self.header("apns-id", plain.transport()).isEmpty)
    }

    @Test("the user's collapse id and apns-id stay; a background push gets no collapse id; collapseIDs: false adds none")
    func userIDsAndOtherTypes() throws {
        let (path, cleanUp) = try JournalRunTests.journalPath()
        defer { cleanUp() }
        let given = try PushTemplate(
            PushSpec(topic: "com.example.app", collapseID: "X"),
            payload: Payload(bytes: Array(#"{"aps":{"alert":"x"}}"#.utf8), source: "test"))
        let engine = Engine()
        _ = try engine.run(Self.plan(given), journal: JournalSetting(path: path))
        #expect(Set(Self.header("apns-collapse-id", engine.transport()).values) == ["X"])

        let (path2, cleanUp2) = try JournalRunTests.journalPath()
        defer { cleanUp2() }
        let background = try PushTemplate(
            PushSpec(topic: "com.example.app"),
            payload: Payload(bytes: Array(#"{"aps":{"content-available":1}}"#.utf8), source: "test"))
        let quiet = Engine()
        _ = try quiet.run(Self.plan(background), journal: JournalSetting(path: path2))
        #expect(Self.header("apns-collapse-id", quiet.transport()).isEmpty, "background pushes are not displayed")
        #expect(Self.header("apns-id", quiet.transport()).count == 4)

        let (path3, cleanUp3) = try JournalRunTests.journalPath()
        defer { cleanUp3() }
        let off = Engine()
        _ = try off.run(Self.plan(), journal: JournalSetting(path: path3, collapseIDs: false))
        #expect(Self.header("apns-collapse-id", off.transport()).isEmpty)
        #expect(Self.header("apns-id", off.transport()).count == 4)
    }

    @Test("a notification sent again by --resume keeps its collapse id and apns-id, also from a journal written before runs had an id")
    func resumeKeepsIDs() throws {
        let (path, cleanUp) = try JournalRunTests.journalPath()
        defer { cleanUp() }
        let first = Engine()
        first.transport().script[Self.tokens[2].hex] = [.success(.rejected(503, "ServiceUnavailable"))]
        _ = try first.run(Self.plan(), journal: JournalSetting(path: path))
        let firstCollapse = Self.header("apns-collapse-id", first.transport())
        let firstIDs = Self.header("apns-id", first.transport())

        // An older journal's first line names no id: each resume of it derives the same one.
        let (old, cleanUpOld) = try JournalRunTests.journalPath()
        defer { cleanUpOld() }
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        header.removeValue(forKey: "id")
        lines[0] = String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self)
        try lines.joined(separator: "\n").write(toFile: old, atomically: true, encoding: .utf8)
        let (oldCopy, cleanUpCopy) = try JournalRunTests.journalPath()
        defer { cleanUpCopy() }
        try FileManager.default.copyItem(atPath: old, toPath: oldCopy)

        let second = Engine()
        _ = try second.run(Self.plan(), journal: JournalSetting(path: path, resume: true))
        #expect(second.transport().started.map(\.token) == [Self.tokens[2]])
        let token = Self.tokens[2].hex
        #expect(Self.header("apns-collapse-id", second.transport())[token] == firstCollapse[token])
        #expect(Self.header("apns-id", second.transport())[token] == firstIDs[token])

        let a = Engine()
        let b = Engine()
        _ = try a.run(Self.plan(), journal: JournalSetting(path: old, resume: true))
        _ = try b.run(Self.plan(), journal: JournalSetting(path: oldCopy, resume: true))
        let legacy = Self.header("apns-collapse-id", a.transport())[token]
        #expect(legacy != nil && legacy == Self.header("apns-collapse-id", b.transport())[token])
        #expect(Self.header("apns-id", a.transport())[token] == Self.header("apns-id", b.transport())[token])
    }
}
