import Foundation
import Testing

/// Issue 44: files opened as their owner meant. A symbolic link planted where pushctl writes is not
/// followed (the file it points at is left as it was), journals and dead-token lists are private
/// (0600), a journal reached by a hard link is still one run, and what `report` reads from a shard's
/// file is display text.
@Suite(.serialized) struct FileSafetyTests {
    let dir = try! TemporaryDirectory()

    func tokens(_ count: Int, seed: String) -> [String] {
        (0..<count).map { seed + String(format: "%0\(64 - seed.count)x", $0) }
    }

    /// A file of someone else's that a planted link points at, and the link.
    func plantedLink(_ name: String) throws -> (link: String, victim: String) {
        let victim = try dir.write("victim-\(name)", "not yours\n", mode: 0o644)
        let link = dir.path(name)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        return (link, victim)
    }

    func mode(_ path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a planted symbolic link at --journal, --unregistered-out or --simulator-file is refused (73), the file it points at unchanged, nothing sent")
    func plantedLinks() throws {
        let mock = try MockProcess(dir: dir)
        let token = tokens(1, seed: "11")[0]
        for (flag, name) in [("--journal", "journal.jsonl"), ("--unregistered-out", "dead.txt"), ("--simulator-file", "push.apns")] {
            let (link, victim) = try plantedLink(name)
            let result = try mock.send(["--device-token", token, "--title", "Hi", flag, link])
            #expect(result.status == 73, "\(flag): \(result.stderr)")
            #expect(result.stderr.contains("symbolic link"), "the refusal says why: \(result.stderr)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "not yours\n", "\(flag): the linked file is unchanged")
        }
        #expect(try mock.requestsSoFar().isEmpty, "nothing was sent")
    }

    @Test("journals and dead-token lists are created 0600")
    func privateFiles() throws {
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(tokens(1, seed: "de")[0])=Unregistered"])
        let journal = dir.path("private.jsonl")
        let dead = dir.path("private-dead.txt")
        let result = try mock.send(
            [
                "--device-token", tokens(1, seed: "de")[0], "--device-token", tokens(1, seed: "a1")[0], "--title", "Hi", "--journal", journal,
                "--unregistered-out", dead,
            ])
        #expect(result.status == 1, "\(result.stderr)")
        let modes = (try mode(journal), try mode(dead))
        #expect(modes.0 == 0o600 && modes.1 == 0o600, "journal \(String(modes.0, radix: 8)), dead \(String(modes.1, radix: 8))")
        // report's lists too, and a journal an older run left readable is made private when resumed.
        let (listDead, listRetry) = (dir.path("report-dead.txt"), dir.path("report-retry.txt"))
        let report = try CLI.pushctl(["report", journal, "--unregistered-out", listDead, "--retry-out", listRetry])
        #expect(report.status == 1, "\(report.stderr)")
        #expect(try mode(listDead) == 0o600 && mode(listRetry) == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: journal)
        let resumed = try mock.send(
            ["--device-token", tokens(1, seed: "de")[0], "--device-token", tokens(1, seed: "a1")[0], "--title", "Hi", "--journal", journal, "--resume"])
        #expect(resumed.status == 1, "\(resumed.stderr)")
        #expect(try mode(journal) == 0o600)
    }

    @Test("two runs on hard links to one journal: the second is refused (75) and nothing is sent twice")
    func hardLinkedJournal() throws {
        let mock = try MockProcess(dir: dir)
        let list = tokens(30, seed: "4a")
        let file = try dir.write("hard-tokens.txt", list.joined(separator: "\n") + "\n")
        let first = dir.path("first.jsonl")
        let second = dir.path("second.jsonl")
        _ = try dir.write("first.jsonl", "")
        try FileManager.default.linkItem(atPath: first, toPath: second)
        // The first run paces itself (3 a second) and is stopped after 3 s: it holds the journal meanwhile.
        let firstDone = DispatchSemaphore(value: 0)
        let firstRun = ResultBox()
        let arguments = [
            "--preserve-status", "-s", "TERM", "3", CLI.pushctlPath, "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file",
            mock.keyFile, "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--tokens-file", file, "--title", "Hi", "--rate", "3",
            "--journal", first,
        ]
        DispatchQueue.global().async {
            firstRun.value = try? CLI.run("/usr/bin/timeout", arguments)
            firstDone.signal()
        }
        // Once the first run has begun (a result in its journal), the second comes in by the other name.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, ((try? String(contentsOfFile: first, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 { usleep(20_000) }
        let refused = try mock.send(["--tokens-file", file, "--title", "Hi", "--journal", second, "--resume"])
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("held by another run") && refused.stderr.contains("hard link"), "\(refused.stderr)")
        firstDone.wait()
        #expect(firstRun.value?.status == 143, "\(firstRun.value?.stderr ?? "")")
        let received = try mock.requestsSoFar().compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
        #expect(!received.isEmpty && received.count == Set(received).count, "each token reached the mock at most once: \(received.count)")
    }

    @Test("report: what a shard's file says is display text (no escape sequence), and a device that never ends is refused (66)")
    func reportReadsDisplayText() throws {
        let token = tokens(1, seed: "e5")[0]
        let line =
            "{\"token\":\"\(token)\",\"status\":400,\"reason\":\"Bad\\u001b[2J\\u001b]0;owned\\u0007\\n```\\n![x](http://e)\",\"attempts\":1,\"apnsId\":\"\\u001b[31mred\"}\n"
        let shard = try dir.write("shard.jsonl", line)
        let summary = dir.path("report-summary.md")
        let report = try CLI.pushctl(["report", shard], env: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
        #expect(report.status == 1, "\(report.stderr)")
        let written = (try? String(contentsOfFile: summary, encoding: .utf8)) ?? ""
        for text in [report.stdout, report.stderr, written] {
            #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "no control character: \(text.debugDescription)")
        }
        #expect(!written.contains("\n```\n![x]"), "nothing closes a fence or renders an image: \(written)")
        // Thirty made-up reasons, one a Markdown image: bounded annotations, a bounded line, nothing renders.
        let many = (0..<30).map { n in
            "{\"token\":\"\(tokens(1, seed: String(format: "%02x", n))[0])\",\"status\":400,\"reason\":\"Made\(n)![i](http://e/\(n))\",\"attempts\":1}"
        }
        let flood = try dir.write("flood.jsonl", many.joined(separator: "\n") + "\n")
        let floodSummary = dir.path("flood-summary.md")
        let flooded = try CLI.pushctl(["report", flood], env: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": floodSummary])
        #expect(flooded.status == 1, "\(flooded.stderr)")
        let errors = flooded.stderr.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(errors.count <= 20, "\(errors.count) annotations")
        #expect(flooded.stderr.contains("more reasons") || flooded.stdout.contains("more reasons"), "the rest counted, not listed: \(flooded.stderr)")
        let floodWritten = (try? String(contentsOfFile: floodSummary, encoding: .utf8)) ?? ""
        #expect(!floodWritten.contains("![i]") && floodWritten.contains("more reasons"), "\(floodWritten)")
        let started = Date()
        let zero = try CLI.pushctl(["report", "/dev/zero"], ceiling: 30)
        #expect(zero.status == 66 && zero.stderr.contains("not a regular file or a pipe"), "\(zero.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

/// A command's result handed from the thread that ran it (written once, read after a semaphore).
final class ResultBox: @unchecked Sendable {
    var value: CommandResult?
}
