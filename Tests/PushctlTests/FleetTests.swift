import ChildProcess
import Foundation
import PushSystem
import Testing

/// A fleet of runs: N machines of a job engine each send their shard of one list (`--shard auto`),
/// one run per journal, `pushctl report` adds the shards up. The mock's log is the truth.
@Suite struct FleetTests {
    let dir = try! TemporaryDirectory()

    func tokens(_ count: Int, seed: Int) -> [String] {
        (0..<count).map { String(format: "%08x", seed) + String(repeating: "0", count: 48) + String(format: "%08x", $0 + 1) }
    }

    /// The tokens of a `--output jsonl` run's result lines.
    func sentTokens(_ result: CommandResult) -> [String] {
        result.stdoutLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["token"] as? String }
    }

    /// The device tokens of every request the mock received so far.
    func received(_ mock: MockProcess) throws -> [String] {
        try mock.requestsSoFar().compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
    }

    /// What each engine sets for copy `k` of 3, the `--shard` value it needs, and the line pushctl says.
    static func engine(_ name: String, copy k: Int) -> (env: [String: String], shard: String, line: String) {
        switch name {
        case "GitLab":
            return (["CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "3"], "auto", "shard \(k)/3, from GitLab's CI_NODE_INDEX=\(k) and CI_NODE_TOTAL=3")
        case "AWS Batch":
            return (["AWS_BATCH_JOB_ARRAY_INDEX": "\(k - 1)", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], "auto",
                    "shard \(k)/3, from AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX=\(k - 1) and AWS_BATCH_JOB_ARRAY_SIZE=3")
        default:
            return (["JOB_COMPLETION_INDEX": "\(k - 1)"], "auto/3", "shard \(k)/3, from Kubernetes' JOB_COMPLETION_INDEX=\(k - 1) and --shard auto/3")
        }
    }

    @Test("GitLab's, AWS Batch's and Kubernetes' variables shard 30 tokens into three disjoint runs covering all 30, each saying where its shard came from",
          arguments: ["GitLab", "AWS Batch", "Kubernetes"])
    func autoShards(engine: String) throws {
        let mock = try MockProcess(dir: dir)
        let all = tokens(30, seed: engine.count)
        let file = try dir.write("tokens-\(engine.count).txt", all.joined(separator: "\n") + "\n")
        var seen: [[String]] = []
        for k in 1...3 {
            let copy = FleetTests.engine(engine, copy: k)
            let result = try mock.send(["--tokens-file", file, "--title", "x", "--shard", copy.shard, "--output", "jsonl"], env: copy.env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(copy.line), "\(result.stderr)")
            seen.append(sentTokens(result))
        }
        #expect(seen.allSatisfy { !$0.isEmpty }, "each copy sent a part: \(seen.map(\.count))")
        #expect(Set(seen[0]).isDisjoint(with: seen[1]) && Set(seen[0]).isDisjoint(with: seen[2]) && Set(seen[1]).isDisjoint(with: seen[2]))
        #expect(seen.joined().sorted() == all.sorted(), "together, every token once")
        #expect(try received(mock).sorted() == all.sorted(), "the mock got each token once")
        // Said in Spanish too, and not with --quiet (a dry run: nothing more is sent).
        let copy = FleetTests.engine(engine, copy: 2)
        let spanish = try mock.send(["--tokens-file", file, "--title", "x", "--shard", copy.shard, "--dry-run", "--lang", "es"], env: copy.env)
        #expect(spanish.stderr.contains("fragmento 2/3, de "), "\(spanish.stderr)")
        let quiet = try mock.send(["--tokens-file", file, "--title", "x", "--shard", copy.shard, "--dry-run", "--quiet"], env: copy.env)
        #expect(quiet.status == 0 && !quiet.stderr.contains("shard"), "\(quiet.stderr)")
    }

    @Test("--shard auto refuses (64), naming the variable: none set, empty, not a number, out of range, no count, a count that disagrees, two engines",
          arguments: [
              ([:], "auto", "none of them is set"),
              (["CI_NODE_INDEX": "", "CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX is set but empty"),
              (["CI_NODE_INDEX": "two", "CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX is 'two', not a whole number"),
              (["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX=4 is outside 1 to 3"),
              (["CI_NODE_INDEX": "1"], "auto", "CI_NODE_INDEX=1 is set and CI_NODE_TOTAL is not"),
              (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"], "auto/4", "auto/4 says 4 shards, and CI_NODE_TOTAL=3 says 3"),
              (["AWS_BATCH_JOB_ARRAY_INDEX": "3", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], "auto", "AWS_BATCH_JOB_ARRAY_INDEX=3 is outside 0 to 2"),
              (["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "0"], "auto", "AWS_BATCH_JOB_ARRAY_SIZE=0"),
              (["JOB_COMPLETION_INDEX": "1"], "auto", "Kubernetes gives each pod its index (JOB_COMPLETION_INDEX=1) but not the count"),
              (["JOB_COMPLETION_INDEX": "3"], "auto/3", "JOB_COMPLETION_INDEX=3 is outside 0 to 2"),
              (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "JOB_COMPLETION_INDEX": "0"], "auto/2", "CI_NODE_INDEX and JOB_COMPLETION_INDEX are all set"),
              (["JOB_COMPLETION_INDEX": "0"], "auto/0", "1 ≤ K ≤ N ≤ 10000"),
              ([:], "auto/x", "auto or auto/N"),
          ] as [([String: String], String, String)])
    func autoRefusals(env: [String: String], shard: String, message: String) throws {
        let result = try CLI.pushctl(["send", "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x", "--jwt", "x.y.z",
                                      "--shard", shard], env: env)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// `send` to the mock, with a journal, in the background.
    func background(_ mock: MockProcess, _ name: String, _ extra: [String]) throws -> StopAndResumeTests.Background {
        try StopAndResumeTests.Background(dir, name, arguments: ["send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile,
                                                                 "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--title", "x"] + extra)
    }

    /// Waits (at most `seconds`) for a file to appear.
    func waitFor(_ path: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: path) { return true }
            usleep(10_000)
        }
        return false
    }

    /// A mock answering 250 ms late, 60 tokens in a file, and the arguments of a journaled run that
    /// sends them 2 at a time (about 7 s): long enough for a second run to find the journal held.
    func slowRun(_ name: String, seed: Int) throws -> (mock: MockProcess, tokens: [String], arguments: (String) -> [String]) {
        let mock = try MockProcess(dir: dir, extra: ["--delay", "250"])
        let all = tokens(60, seed: seed)
        let file = try dir.write("\(name)-tokens.txt", all.joined(separator: "\n") + "\n")
        return (mock, all, { journal in ["--tokens-file", file, "--journal", journal, "--resume", "--concurrency", "2", "--output", "jsonl"] })
    }

    @Test("one run per journal: a second run on a held journal is refused within 5 s (75), names the holder, and sends nothing")
    func heldJournal() throws {
        let (mock, all, arguments) = try slowRun("held", seed: 77)
        let journal = dir.path("held.jsonl")
        let first = try background(mock, "held-first", arguments(journal))
        #expect(waitFor(journal + ".lock"), "the first run holds the journal")
        let started = Date()
        let second = try mock.send(["--title", "x"] + arguments(journal))
        let seconds = Date().timeIntervalSince(started)
        #expect(second.status == 75, "\(second.stderr)")
        #expect(seconds < 5, "refused at once: \(seconds) s")
        #expect(second.stderr.contains("is held by another run (pid \(first.process.processIdentifier)"), "\(second.stderr)")
        #expect(second.stderr.contains("nothing was sent") && second.stdout.isEmpty, "\(second.stderr)")
        let (status, _) = first.wait()
        #expect(status == 0, "\(first.stderr)")
        #expect(try received(mock).sorted() == all.sorted(), "each token reached the mock once: the second run sent nothing")
        #expect(!FileManager.default.fileExists(atPath: journal + ".lock"), "the lock file goes with its run")
        // In Spanish, on another journal held by a third run.
        let third = try background(mock, "held-third", arguments(dir.path("held-es.jsonl")))
        #expect(waitFor(dir.path("held-es.jsonl.lock")))
        let refused = try mock.send(["--lang", "es", "--title", "x"] + arguments(dir.path("held-es.jsonl")))
        #expect(refused.status == 75 && refused.stderr.contains("lo tiene otro envío"), "\(refused.stderr)")
        _ = third.wait()
    }

    @Test("after a crash (SIGKILL) the journal is free at once: the next run writes itself over the stale holder and carries the run on")
    func crashedHolder() throws {
        let (mock, all, arguments) = try slowRun("crash", seed: 78)
        let journal = dir.path("crash.jsonl"), lock = journal + ".lock"
        let first = try background(mock, "crash-first", arguments(journal))
        #expect(waitFor(lock))
        first.signal(SIGKILL)
        _ = first.wait()
        let stale = try String(contentsOfFile: lock, encoding: .utf8)
        #expect(stale.contains("\"pid\":\(first.process.processIdentifier),"), "a killed run leaves its lock file, not its lock: \(stale)")
        let resumed = try background(mock, "crash-resumed", arguments(journal))
        let deadline = Date().addingTimeInterval(30)
        var newHolder = false
        while Date() < deadline && resumed.process.isRunning && !newHolder {
            newHolder = ((try? String(contentsOfFile: lock, encoding: .utf8)) ?? "").contains("\"pid\":\(resumed.process.processIdentifier),")
            if !newHolder { usleep(10_000) }
        }
        #expect(newHolder, "the lock file names the new holder")
        let (status, _) = resumed.wait()
        #expect(status == 0, "\(resumed.stderr)")
        #expect(Set(try received(mock)) == Set(all), "every token reached the mock")
        #expect(!FileManager.default.fileExists(atPath: lock))
    }

}
