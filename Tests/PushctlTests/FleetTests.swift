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
            return (
                ["AWS_BATCH_JOB_ARRAY_INDEX": "\(k - 1)", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], "auto",
                "shard \(k)/3, from AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX=\(k - 1) and AWS_BATCH_JOB_ARRAY_SIZE=3"
            )
        default:
            return (["JOB_COMPLETION_INDEX": "\(k - 1)"], "auto/3", "shard \(k)/3, from Kubernetes' JOB_COMPLETION_INDEX=\(k - 1) and --shard auto/3")
        }
    }

    @Test(
        "GitLab's, AWS Batch's and Kubernetes' variables shard 30 tokens into three disjoint runs covering all 30, each saying where its shard came from",
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

    @Test(
        "--shard auto refuses (64), naming the variable: none set, empty, not a number, out of range, no count, a count that disagrees, two engines",
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
        let result = try CLI.pushctl(
            [
                "send", "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x", "--jwt", "x.y.z",
                "--shard", shard,
            ], env: env)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// `send` to the mock, with a journal, in the background.
    func background(_ mock: MockProcess, _ name: String, _ extra: [String]) throws -> StopAndResumeTests.Background {
        try StopAndResumeTests.Background(
            dir, name,
            arguments: [
                "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile,
                "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--title", "x",
            ] + extra)
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
        let journal = dir.path("crash.jsonl")
        let lock = journal + ".lock"
        let first = try background(mock, "crash-first", arguments(journal))
        // The holder's line is written just after the lock file is made: killed once it names it.
        let named = Date().addingTimeInterval(30)
        while Date() < named, !(((try? String(contentsOfFile: lock, encoding: .utf8)) ?? "").contains("\"pid\"")) { usleep(10_000) }
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

    /// Three shards of `all` sent with journals; the mock answers `dead` Unregistered.
    func threeShards(_ all: [String], mock: MockProcess, name: String) throws -> [String] {
        let file = try dir.write("\(name)-tokens.txt", all.joined(separator: "\n") + "\n")
        return try (1...3).map { k in
            let journal = dir.path("\(name)-\(k).jsonl")
            let result = try mock.send(["--tokens-file", file, "--title", "x", "--shard", "\(k)/3", "--journal", journal])
            #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
            return journal
        }
    }

    @Test("pushctl report over three shards' journals: the total, the unregistered token with APNs' time, exit 1; a file given twice counts once")
    func reportThreeShards() throws {
        let all = tokens(30, seed: 90)
        let dead = all[17]
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(dead)=Unregistered"])
        let journals = try threeShards(all, mock: mock, name: "report")
        let deadFile = dir.path("dead.txt")
        let retryFile = dir.path("retry.txt")
        let summary = dir.path("summary.md")
        let report = try CLI.pushctl(
            ["report", "--unregistered-out", deadFile, "--retry-out", retryFile] + journals,
            env: ["GITHUB_STEP_SUMMARY": summary])
        #expect(report.status == 1, "\(report.stderr)")
        #expect(report.stdout.contains("30 tokens: 29 accepted, 1 rejected (Unregistered 1)"), "\(report.stdout)")
        #expect(report.stdout.contains(dead))
        let written = try String(contentsOfFile: deadFile, encoding: .utf8)
        let deadLines = written.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(deadLines.count == 1 && deadLines[0].hasPrefix(dead + "  # Unregistered "), "\(written)")
        // APNs' time, as the journal has it.
        let journaled = try journals.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")
        let line = try #require(journaled.split(separator: "\n").first { $0.contains(dead) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let timestamp = try #require(object["timestamp"] as? Int)
        #expect(deadLines[0].contains("(\(timestamp))"), "\(deadLines[0])")
        #expect(try String(contentsOfFile: retryFile, encoding: .utf8).split(separator: "\n").allSatisfy { $0.hasPrefix("#") }, "nothing to retry")
        // The dead-token file is a tokens file send reads back.
        let readBack = try mock.send(["--tokens-file", deadFile, "--title", "x", "--dry-run"])
        #expect(readBack.status == 0, "\(readBack.stderr)")
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(markdown.contains("### pushctl report: 30 tokens") && markdown.contains("`Unregistered`"), "\(markdown)")

        // The same journal twice (once through a link): read once, counted once; json.
        let link = dir.path("link-to-report-1.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: journals[0])
        let twice = try CLI.pushctl(["report", "--output", "json"] + journals + [journals[0], link])
        #expect(twice.status == 1, "\(twice.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(twice.stdout.utf8)) as? [String: Any])
        #expect(document["tokens"] as? Int == 30 && document["accepted"] as? Int == 29 && document["exitStatus"] as? Int == 1, "\(document)")
        #expect((document["repeatedFiles"] as? [String]) == [journals[0], link])
        let unregistered = try #require(document["unregistered"] as? [[String: Any]])
        #expect(unregistered.count == 1 && unregistered[0]["token"] as? String == dead && unregistered[0]["timestamp"] as? Int == timestamp)
        #expect(twice.stderr.contains("is a file given already; it is read once"), "\(twice.stderr)")
        let one = try CLI.pushctl(["report", "--output", "json", journals[1], journals[1]])
        let oneDocument = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let lines = try String(contentsOfFile: journals[1], encoding: .utf8).split(separator: "\n").count - 1
        #expect(oneDocument["tokens"] as? Int == lines, "one shard's journal twice: its own tokens, once")
    }

    @Test("pushctl report: a missing shard is named (75); a token in two files counts once, accepted over retry-later; garbage lines are counted, not fatal")
    func reportMissingAndMixed() throws {
        let all = tokens(30, seed: 91)
        let mock = try MockProcess(dir: dir)
        let journals = try threeShards(all, mock: mock, name: "partial")
        let missing = try CLI.pushctl(["report", journals[0], journals[2]])
        #expect(missing.status == 75, "\(missing.stderr)")
        #expect(missing.stderr.contains("no file covers shard 2/3"), "\(missing.stderr)")

        // Results of an earlier run of shard 2 that left one token for later, garbage around it.
        let second = try String(contentsOfFile: journals[1], encoding: .utf8).split(separator: "\n")
        let token = try #require((try JSONSerialization.jsonObject(with: Data(second[1].utf8)) as? [String: Any])?["token"] as? String)
        let earlier =
            [
                #"{"token":"\#(token)","status":503,"outcome":"temporary-failure","apnsId":null,"apnsUniqueId":null,"reason":"ServiceUnavailable","timestamp":null,"explanation":"x","attempts":4}"#,
                "not json at all", String(repeating: "x", count: 100_000), #"{"channelId":"abc","status":200}"#,
                #"{"summary":true,"tokens":1,"shard":"2/3"}"#,
            ].joined(separator: "\n") + "\n"
        let results = try dir.write("partial-2-earlier.jsonl", earlier)
        let whole = try CLI.pushctl(["report", "--retry-out", dir.path("partial-retry.txt"), results] + journals)
        #expect(whole.status == 0, "accepted later wins over the earlier temporary failure: \(whole.stdout) \(whole.stderr)")
        #expect(whole.stdout.contains("30 tokens: 30 accepted"), "\(whole.stdout)")
        #expect(whole.stderr.contains("3 lines are not results and were skipped (line 2, 3, 4)"), "\(whole.stderr)")
        // That earlier file alone: its token is left to send again (75), and listed.
        let alone = try CLI.pushctl(["report", "--retry-out", dir.path("alone-retry.txt"), results])
        #expect(alone.status == 75, "\(alone.stderr)")
        let retry = try String(contentsOfFile: dir.path("alone-retry.txt"), encoding: .utf8)
        #expect(retry.contains(token + "  # temporary-failure"), "\(retry)")
        // Nothing but garbage: bad input (65), said.
        let garbage = try dir.write("garbage.jsonl", "hello\n\u{0}\u{1}\n")
        let none = try CLI.pushctl(["report", garbage])
        #expect(none.status == 65 && none.stderr.contains("no device results"), "\(none.stderr)")
        let absent = try CLI.pushctl(["report", dir.path("absent.jsonl")])
        #expect(absent.status == 66, "\(absent.stderr)")
    }

    @Test("--metrics-file: Prometheus' text format that promtool check metrics accepts, by outcome and reason, labelled by shard; signings counted")
    func metricsFile() throws {
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(otherToken)=BadDeviceToken"])
        let prom = dir.path("pushctl.prom")
        let both = try dir.write("metrics-tokens.txt", sampleToken + "\n" + otherToken + "\n")
        let first = try mock.send(["--tokens-file", both, "--title", "x", "--shard", "1/1", "--metrics-file", prom])
        #expect(first.status == 1, "\(first.stderr)")
        let text = try String(contentsOfFile: prom, encoding: .utf8)
        for line in [
            #"pushctl_notifications_total{shard="1/1",outcome="accepted",reason=""} 1"#,
            #"pushctl_notifications_total{shard="1/1",outcome="rejected",reason="BadDeviceToken"} 1"#,
            #"pushctl_provider_token_signings_total{shard="1/1"} 1"#, #"pushctl_run_exit_status{shard="1/1"} 1"#,
            "# TYPE pushctl_notifications_total counter", "# TYPE pushctl_run_duration_seconds gauge",
        ] {
            #expect(text.contains(line + "\n"), "\(line) in \(text)")
        }
        let permissions = try FileManager.default.attributesOfItem(atPath: prom)[.posixPermissions] as? Int
        #expect(permissions == 0o644, "node_exporter can read it")
        let checked = try CLI.run(Tool.path("promtool"), ["check", "metrics"], stdin: text)
        #expect(checked.status == 0, "promtool: \(checked.stdout) \(checked.stderr)")
        // The token comes from the cache the second time: no signing.
        let second = try mock.send(["--device-token", sampleToken, "--title", "x", "--metrics-file", prom])
        #expect(second.status == 0, "\(second.stderr)")
        let again = try String(contentsOfFile: prom, encoding: .utf8)
        #expect(again.contains("pushctl_provider_token_signings_total 0\n") && !again.contains("shard="), "\(again)")
        // A folder that cannot be written: said before anything is sent (73).
        let nowhere = try mock.send(["--device-token", sampleToken, "--title", "x", "--metrics-file", dir.path("missing/pushctl.prom")])
        #expect(nowhere.status == 73, "\(nowhere.stderr)")
    }

    @Test(
        "--metrics-push: a real Pushgateway shows the run's metrics under job pushctl and the shard; a gateway that is not there is a warning",
        .enabled(if: PushgatewayProcess.present, PushgatewayProcess.missing))
    func metricsPush() throws {
        let gateway = try PushgatewayProcess()
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("push-tokens.txt", tokens(30, seed: 92).joined(separator: "\n") + "\n")
        let pushed = try mock.send(["--tokens-file", file, "--title", "x", "--shard", "2/3", "--metrics-push", gateway.url])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let scraped = try curl([gateway.url + "/metrics"])
        let samples = scraped.stdout.split(separator: "\n").filter { $0.hasPrefix("pushctl_notifications_total{") }
        #expect(
            samples.contains { $0.contains(#"job="pushctl""#) && $0.contains(#"shard="2/3""#) && $0.contains(#"outcome="accepted""#) },
            "\(scraped.stdout.prefix(3000))")
        #expect(scraped.stdout.contains(#"pushctl_run_exit_status{instance="",job="pushctl",shard="2/3"} 0"#), "\(scraped.stdout.prefix(3000))")
        let gone = try mock.send(["--device-token", sampleToken, "--title", "x", "--metrics-push", "http://127.0.0.1:\(ProxyProcess.freePort())"])
        #expect(gone.status == 0, "a failed push is not a failed run: \(gone.stderr)")
        #expect(gone.stderr.contains("could not push the metrics"), "\(gone.stderr)")
        let bad = try mock.send(["--device-token", sampleToken, "--title", "x", "--metrics-push", "pushgateway:9091"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }
}

/// Debian's `prometheus-pushgateway` (or a `pushgateway` on PATH), on a free loopback port, metrics
/// in memory. Homebrew has no formula for one (homebrew-core's Formula/ holds prometheus but no
/// pushgateway), so on a Mac the test runs only where one was put on PATH by hand, and is skipped
/// by name otherwise; on Linux, where install-deps.sh installs it, a missing one is a failure.
final class PushgatewayProcess {
    let process = Process()
    let url: String

    /// The program, or nil when neither name is on PATH.
    static var program: String? {
        ["prometheus-pushgateway", "pushgateway"].map(Tool.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var present: Bool {
        #if os(Linux)
            return true
        #else
            return program != nil
        #endif
    }

    static let missing: Comment = "no Pushgateway on this Mac: homebrew-core has no formula for one (put a pushgateway on PATH to run this test)"

    init() throws {
        let port = ProxyProcess.freePort()
        url = "http://127.0.0.1:\(port)"
        guard let program = Self.program else {
            throw CLIError("prometheus-pushgateway is missing: Scripts/install-deps.sh installs it")
        }
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--web.listen-address=127.0.0.1:\(port)", "--persistence.file=", "--log.level=error"]
        try ProxyProcess.start(process, listeningOn: port, what: "the Pushgateway")
    }

    deinit {
        if process.isRunning {
            process.send(.kill)
            process.waitUntilExit()
        }
    }
}
