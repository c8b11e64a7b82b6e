import ChildProcess
import Foundation
import PushSystem
import Testing

/// A journaled run's notifications, sent again after a lost answer and `--resume`, are the same
/// notifications to APNs and to the device: the same apns-id and apns-collapse-id, as the mock's
/// log (what reached the server) shows.
@Suite struct SendTwiceTests {
    let dir = try! TemporaryDirectory()

    func tokens(_ count: Int) -> [String] {
        (0..<count).map { "c011a95e" + String(repeating: "0", count: 48) + String(format: "%08x", $0 + 1) }
    }

    /// Each request's header, by device token, in the order received.
    func headers(_ requests: [[String: Any]], _ name: String) -> [(token: String, value: String?)] {
        requests.map { request in
            let token = (request["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } ?? ""
            return (token, (request["headers"] as? [String: Any])?[name] as? String)
        }
    }

    @Test("every alert of a journaled run carries a distinct collapse id; resumed after a lost answer, it keeps its collapse id and apns-id")
    func resumedKeepsIDs() throws {
        let all = tokens(5)
        let mock = try MockProcess(dir: dir, extra: ["--fail-first", "\(all[2])=1:ServiceUnavailable"])
        let file = try dir.write("tokens.txt", all.joined(separator: "\n") + "\n")
        let journal = dir.path("run.jsonl")
        let first = try mock.send(["--tokens-file", file, "--title", "Hi", "--journal", journal, "--retries", "0", "--output", "jsonl"])
        #expect(first.status == 75, "one answer was a 503: \(first.stderr)")
        let before = try mock.requestsSoFar()
        let collapse = headers(before, "apns-collapse-id")
        #expect(collapse.count == 5 && Set(collapse.compactMap(\.value)).count == 5, "\(collapse)")
        #expect(collapse.allSatisfy { ($0.value ?? "").hasPrefix("pushctl-") && ($0.value ?? "").utf8.count <= 64 })
        let ids = headers(before, "apns-id")
        #expect(Set(ids.compactMap(\.value)).count == 5)
        // The result names the apns-id that was sent.
        let results = first.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        for result in results where result["token"] != nil {
            #expect(ids.first { $0.token == result["token"] as? String }?.value == result["apnsId"] as? String, "\(result)")
        }

        let second = try mock.send(["--tokens-file", file, "--title", "Hi", "--journal", journal, "--resume", "--retries", "0"])
        #expect(second.status == 0, "\(second.stderr)")
        let again = Array(try mock.requestsSoFar().dropFirst(before.count))
        #expect(again.count == 1 && headers(again, "apns-collapse-id").first?.token == all[2])
        #expect(headers(again, "apns-collapse-id").first?.value == collapse.first { $0.token == all[2] }?.value)
        #expect(headers(again, "apns-id").first?.value == ids.first { $0.token == all[2] }?.value)
    }

    @Test("--collapse-id X stays X on every alert; --no-collapse-id sends none; a background push gets none; without --journal none")
    func givenAndOff() throws {
        let all = tokens(3)
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("tokens.txt", all.joined(separator: "\n") + "\n")
        let given = try mock.send(["--tokens-file", file, "--title", "Hi", "--journal", dir.path("a.jsonl"), "--collapse-id", "X"])
        #expect(given.status == 0, "\(given.stderr)")
        var seen = try mock.requestsSoFar()
        #expect(headers(seen, "apns-collapse-id").map(\.value) == ["X", "X", "X"])

        for arguments in [
            ["--title", "Hi", "--journal", dir.path("b.jsonl"), "--no-collapse-id"],
            ["--content-available", "--journal", dir.path("c.jsonl")],
            ["--title", "Hi"],
        ] {
            let result = try mock.send(["--tokens-file", file] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let now = try mock.requestsSoFar()
            let added = Array(now.dropFirst(seen.count))
            seen = now
            #expect(added.count == 3 && headers(added, "apns-collapse-id").allSatisfy { $0.value == nil }, "\(arguments)")
            // The journaled runs still give each notification its apns-id.
            #expect(headers(added, "apns-id").allSatisfy { $0.value != nil } == arguments.contains { $0.hasSuffix(".jsonl") }, "\(arguments)")
        }
        let refused = try mock.send(["--tokens-file", file, "--title", "Hi", "--no-collapse-id"])
        #expect(refused.status == 64 && refused.stderr.contains("--journal"), "\(refused.stderr)")
    }
}
