import ChildProcess
import Foundation
import PushSystem
import Testing

/// A CI job cancelled or killed mid-batch: every notification still gets one result, nothing APNs
/// answered is sent again, and a journal resumes the run. The mock's log is the truth.
@Suite(.serialized) struct StopAndResumeTests {
    let dir = try! TemporaryDirectory()

    func tokensFile(_ count: Int, seed: Int = 0) throws -> (path: String, tokens: [String]) {
        let tokens = (0..<count).map { i in String(format: "%08x", seed) + String(repeating: "0", count: 48) + String(format: "%08x", i) }
        return (try dir.write("tokens-\(seed)-\(count).txt", tokens.joined(separator: "\n") + "\n"), tokens)
    }

    /// A `pushctl send` in the background, its output in files, for a test to signal.
    final class Background {
        let process = Process()
        let out: String
        let err: String
        let started = Date()

        init(_ dir: TemporaryDirectory, _ name: String, arguments: [String], input: Any? = FileHandle.nullDevice) throws {
            out = dir.path("\(name).out")
            err = dir.path("\(name).err")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = FileManager.default.createFile(atPath: err, contents: nil)
            process.executableURL = URL(fileURLWithPath: CLI.pushctlPath)
            process.arguments = arguments
            process.environment = CLI.baseEnvironment
            process.standardInput = input
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
            try process.run()
        }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits (at most `seconds`) until the process has taken over SIGINT, SIGTERM and SIGHUP
        /// (Linux: SigCgt in /proc/PID/status), that is until its run has begun; elsewhere (macOS
        /// has no /proc), until it has written its first result.
        func waitUntilStopHandled(seconds: Double = 30) {
            #if os(Linux)
                let status = "/proc/\(process.processIdentifier)/status"
                let wanted: UInt64 = 1 << (UInt64(SIGHUP) - 1) | 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
                let deadline = Date().addingTimeInterval(seconds)
                while process.isRunning && Date() < deadline {
                    let text = (try? String(contentsOfFile: status, encoding: .utf8)) ?? ""
                    let caught =
                        text.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                        .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
                    if caught & wanted == wanted { return }
                    usleep(10_000)
                }
            #else
                waitUntilSending(seconds: seconds)
            #endif
        }

        /// Waits (at most `seconds`) until the run has written its first result: it is sending,
        /// so a signal now stops a run (before, on a loaded machine, it could still be starting,
        /// and a signal then ends the process as any signal ends one that has not taken it over).
        func waitUntilSending(seconds: Double = 30) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline && !stdout.contains("\n") { usleep(10_000) }
        }

        /// Waits (at most `seconds`) until `text` occurs `count` times in the standard error: with
        /// `--verbose`, libcurl's trace names each request's `:path` as it goes out, so a run
        /// can be stopped with a known number of requests in flight.
        func waitForStandardError(_ text: String, count: Int = 1, seconds: Double = 30) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline && stderr.components(separatedBy: text).count - 1 < count { usleep(10_000) }
        }

        /// Waits (at most `seconds`) until the standard output holds `count` lines.
        func waitForLines(_ count: Int, seconds: Double = 30) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline && stdout.utf8.lazy.filter({ $0 == 0x0A }).count < count { usleep(10_000) }
        }

        /// Waits at most `seconds` for the exit (then kills it, and the test fails on the status).
        func wait(seconds: Double = 60) -> (status: Int32, seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return (
                process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
                Date().timeIntervalSince(started)
            )
        }

        var stdout: String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: err, encoding: .utf8)) ?? "" }

        /// The jsonl objects: results, then the summary.
        var objects: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    func sendArguments(_ mock: MockProcess, _ extra: [String]) -> [String] {
        [
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--title", "x",
        ] + extra
    }

    /// The tokens of every request the mock received so far (markers aside).
    func received(_ mock: MockProcess) throws -> [String] {
        try mock.requestsSoFar().compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
    }

    /// One result per token, the counts add up, and nothing the mock received is called not-sent.
    func expectOneResultEach(_ run: Background, tokens: [String], truth: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let objects = run.objects
        let results = objects.filter { $0["token"] != nil }
        let summary = objects.last ?? [:]
        let seen = results.compactMap { $0["token"] as? String }
        #expect(seen.count == tokens.count, "\(run.stderr.suffix(600))", sourceLocation: sourceLocation)
        #expect(Set(seen) == Set(tokens), sourceLocation: sourceLocation)
        let parts = ["accepted", "rejected", "temporaryFailures", "unreachable", "notSent", "inDoubt"].map { summary[$0] as? Int ?? 0 }.reduce(0, +)
        #expect(parts == tokens.count, "the counts add up: \(summary)", sourceLocation: sourceLocation)
        let reached = Set(truth)
        let notSent = results.filter { $0["stopped"] as? String == "not-sent" }.compactMap { $0["token"] as? String }
        #expect(notSent.filter(reached.contains).isEmpty, "a token that reached the mock is never not-sent", sourceLocation: sourceLocation)
        let accepted = results.filter { $0["status"] as? Int == 200 }.compactMap { $0["token"] as? String }
        #expect(accepted.allSatisfy(reached.contains), "every accepted token reached the mock", sourceLocation: sourceLocation)
        for stopped in results where stopped["stopped"] != nil {
            #expect(stopped["status"] is NSNull, sourceLocation: sourceLocation)
        }
    }

    @Test(
        "SIGTERM, SIGINT and SIGHUP at random moments with answers delayed: one result each, the stop's exit status, the summary says so",
        arguments: [(SIGTERM, 143, "SIGTERM", 1), (SIGINT, 130, "SIGINT", 2), (SIGHUP, 129, "SIGHUP", 3), (SIGTERM, 143, "SIGTERM", 4)])
    func stopAtRandomMoments(signal: Int32, status: Int32, name: String, seed: Int) throws {
        let mock = try MockProcess(dir: dir, extra: ["--delay", "200"])
        let (path, tokens) = try tokensFile(3000, seed: seed)
        var rng = SplitMix64(seed: UInt64(seed))
        let run = try Background(dir, "stop-\(seed)", arguments: sendArguments(mock, ["--tokens-file", path, "--output", "jsonl", "--concurrency", "100"]))
        // A random moment, counted in results rather than time: after 1 to 900 of the 3,000.
        run.waitForLines(1 + Int(rng.next() % 900))
        run.signal(signal)
        let (exit, _) = run.wait()
        #expect(exit == status, "\(run.stderr)")
        let summary = run.objects.last ?? [:]
        #expect(summary["stopped"] as? String == name)
        #expect((summary["notSent"] as? Int ?? 0) > 0, "stopped before the end: \(summary)")
        expectOneResultEach(run, tokens: tokens, truth: try received(mock))
        #expect(run.stderr.contains("stopped by \(name)"), "the human summary on stderr: \(run.stderr)")
    }

    /// Issue 44: a stop while an external signer signs used to end pushctl and leave the signer
    /// running (it is in a process group of its own, which a terminal's Ctrl-C does not reach).
    @Test("SIGINT or SIGTERM while the signer signs: the signer's group is ended, 130 or 143, nothing sent", arguments: [SIGINT, SIGTERM])
    func stopWhileSigning(signal: Int32) throws {
        let mock = try MockProcess(dir: dir)
        let marker = "\(Int.random(in: 100_000...999_999))"
        let started = dir.path("signer-started-\(signal)")
        let arguments = [
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--signer", "touch '\(started)'; sleep 300.\(marker); echo never",
            "--key-id", "SIGNER1234", "--team-id", "DEF123GHIJ", "--no-jwt-cache", "--topic", "com.example.app", "--title", "x",
            "--device-token", String(repeating: "ab", count: 32),
        ]
        let run = try Background(dir, "signing-\(signal)", arguments: arguments)
        let deadline = Date().addingTimeInterval(30)
        while run.process.isRunning && Date() < deadline && !FileManager.default.fileExists(atPath: started) { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: started), "the signer never started: \(run.stderr)")
        run.signal(signal)
        let (status, seconds) = run.wait()
        #expect(status == 128 + signal, "\(run.stderr)")
        #expect(seconds < 20, "stopped at once, not at the signer's 30 s limit")
        #expect(run.stderr.contains("stopped before anything was sent"), "\(run.stderr)")
        let left = try CLI.run("/usr/bin/env", ["pgrep", "-f", "sleep 300.\(marker)"])
        #expect(left.stdout.isEmpty, "no signer process left behind: \(left.stdout)")
        #expect(try mock.requestsSoFar().isEmpty, "nothing was sent")
    }

    /// The stop handlers are taken over before the set-up now, so a set-up blocked reading a pipe
    /// must give way to a stop, or Ctrl-C would do nothing until the pipe ends. Linux only: macOS
    /// has no /proc to see when the handlers are in place.
    static var seesStopHandlers: Bool {
        #if os(Linux)
            return true
        #else
            return false
        #endif
    }

    @Test(
        "a stop while send still reads its tokens from a pipe that never ends: 130, stopped before anything was sent",
        .enabled(if: seesStopHandlers, "no /proc here to see when pushctl handles signals"))
    func stopWhileReadingTokens() throws {
        let mock = try MockProcess(dir: dir)
        let input = Pipe()  // kept open and never written: the read blocks
        let run = try Background(dir, "stdin-stop", arguments: sendArguments(mock, ["--tokens-file", "-"]), input: input)
        run.waitUntilStopHandled()
        run.signal(SIGINT)
        let (status, seconds) = run.wait()
        #expect(status == 130, "\(run.stderr)")
        #expect(seconds < 20)
        #expect(run.stderr.contains("stopped before anything was sent"), "\(run.stderr)")
        #expect(try mock.requestsSoFar().isEmpty, "nothing was sent")
        try input.fileHandleForWriting.close()
    }

    @Test("requests in flight past the grace are in doubt; a second signal ends the grace at once; text output names the resume command")
    func secondSignal() throws {
        // Answers come after 20 s: whatever is in flight at the stop stays unanswered.
        let mock = try MockProcess(dir: dir, extra: ["--delay", "20000", "--initial-streams", "50"])
        let (path, tokens) = try tokensFile(200, seed: 7)
        let journal = dir.path("second.jsonl")
        let run = try Background(
            dir, "second",
            arguments: sendArguments(
                mock,
                [
                    "--tokens-file", path, "--concurrency", "30", "--journal", journal,
                    "--verbose",
                ]))
        // Stopped once the 30 requests are out (libcurl's trace names each), and again once the
        // run has said what the first stop does.
        run.waitUntilStopHandled()
        run.waitForStandardError("[:path: /3/device/", count: 30)
        run.signal(SIGINT)
        run.waitForStandardError("pushctl: SIGINT: nothing more is sent; the 30 in flight get up to 5 s to be answered (SIGINT again stops at once)")
        run.signal(SIGINT)
        let (exit, seconds) = run.wait()
        #expect(exit == 130, "\(run.stderr)")
        #expect(seconds < 4.5, "a second signal ends the 5 s grace: \(seconds) s")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == tokens.count, "one line each, in text too")
        #expect(run.stderr.contains("stopped by SIGINT"))
        #expect(run.stderr.contains("in doubt"), "\(run.stderr)")
        #expect(run.stderr.contains("--journal \(journal)") && run.stderr.contains("--resume"), "the resume command: \(run.stderr)")
        let journaled = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(journaled.count == tokens.count + 1, "the journal holds the header and every result, the stopped ones included")
        #expect(journaled.filter { $0.contains("\"stopped\":\"in-doubt\"") }.count == 30, "the 30 in flight")
    }

    @Test("one SIGTERM waits out the grace (5 s), and the whole stop fits before GitHub's SIGKILL 10 s later")
    func graceIsBounded() throws {
        let mock = try MockProcess(dir: dir, extra: ["--delay", "20000"])
        let (path, _) = try tokensFile(20, seed: 8)
        let run = try Background(dir, "grace", arguments: sendArguments(mock, ["--tokens-file", path, "--output", "jsonl", "--verbose"]))
        run.waitUntilStopHandled()
        run.waitForStandardError("[:path: /3/device/")
        let signalled = Date()
        run.signal(SIGTERM)
        let (exit, _) = run.wait()
        let seconds = Date().timeIntervalSince(signalled)
        #expect(exit == 143)
        #expect(seconds >= 4.5 && seconds < 9, "\(seconds) s after the signal")
        let summary = run.objects.last ?? [:]
        #expect((summary["inDoubt"] as? Int ?? 0) >= 1)
        #expect(summary["tokens"] as? Int == 20)
    }

    /// A requests file of these tokens, each line its own payload (a body and a badge per line).
    func requestsFile(_ tokens: [String], name: String) throws -> String {
        let lines = tokens.enumerated().map { #"{"token":"\#($1)","payload":{"aps":{"alert":{"body":"n \#($0)"},"badge":\#($0 % 100)}}}"# }
        return try dir.write(name, lines.joined(separator: "\n") + "\n")
    }

    @Test(
        "SIGKILL at random moments of a 20,000-token run, resumed each time: nothing journaled is sent again, everyone answered in the end",
        arguments: ["--tokens-file", "--requests-file"])
    func killAndResume(source: String) throws {
        let mock = try MockProcess(dir: dir, extra: ["--delay", "20"])
        // A requests file past the 20,000 lines kept parsed: the rest is sent from its spool.
        let (tokensPath, tokens) = try tokensFile(source == "--tokens-file" ? 20_000 : 20_500, seed: 9)
        let path = source == "--tokens-file" ? tokensPath : try requestsFile(tokens, name: "killed-requests.jsonl")
        let journal = dir.path("killed\(source).jsonl")
        func arguments() -> [String] {
            let common = [
                "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
                "--topic", "com.example.app", source, path, "--output", "jsonl", "--journal", journal, "--resume", "--concurrency", "200",
            ]
            return source == "--tokens-file" ? common + ["--title", "x"] : common
        }
        var rng = SplitMix64(seed: 99)
        var seenBefore = 0
        var kills = 0
        for round in 0..<4 {
            let settled = try settledTokens(journal)
            let run = try Background(dir, "kill-\(round)", arguments: arguments())
            // Killed at a random moment after this round has journaled something (a machine under
            // load can take seconds to start sending: a kill before that would test nothing).
            // The moment is counted in journaled results, 1 to 3,000 more (4 rounds stay short of the 20,000).
            let journaled = journalLines(journal)
            let wanted = journaled + 1 + Int(rng.next() % 3000)
            let deadline = Date().addingTimeInterval(30)
            while run.process.isRunning && journalLines(journal) < wanted && Date() < deadline { usleep(10_000) }
            run.signal(SIGKILL)
            _ = run.wait()
            kills += 1
            let all = try received(mock)
            let thisRun = Array(all[seenBefore...])
            seenBefore = all.count
            #expect(Set(thisRun).isDisjoint(with: settled), "round \(round): a token whose answer was journaled was sent again")
        }
        let last = try Background(dir, "kill-final", arguments: arguments())
        let (exit, _) = last.wait(seconds: 120)
        #expect(exit == 0, "\(last.stderr)")
        let summary = last.objects.last ?? [:]
        #expect(summary["accepted"] as? Int == tokens.count, "\(summary)")
        let all = try received(mock)
        #expect(Set(all).isSuperset(of: tokens), "every token reached the mock")
        let duplicates = all.count - Set(all).count
        #expect(duplicates <= kills * 200, "re-sent only what was in flight at each kill: \(duplicates)")
        print("killAndResume (\(source)): \(kills) kills, \(duplicates) notifications sent twice (in flight at a kill), none journaled sent again")
        let results = last.objects.filter { $0["token"] != nil }
        #expect(results.count == tokens.count)
        #expect(results.filter { $0["resumed"] as? Bool == true }.count == (summary["resumed"] as? Int ?? -1))
    }

    /// The lines of a journal so far (0 when there is none yet).
    func journalLines(_ journal: String) -> Int {
        (FileManager.default.contents(atPath: journal) ?? Data()).lazy.filter { $0 == 0x0A }.count
    }

    /// Tokens with APNs' final answer in a journal (what a resumed run must not send).
    func settledTokens(_ journal: String) throws -> Set<String> {
        guard let text = try? String(contentsOfFile: journal, encoding: .utf8) else { return [] }
        var settled = Set<String>()
        for line in text.split(separator: "\n").dropFirst() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let token = object["token"] as? String, let status = object["status"] as? Int
            else { continue }
            if status == 200 || (status < 500 && status != 429) { settled.insert(token) }
        }
        return settled
    }

    @Test("--resume with --skip-in-doubt reports the in-doubt ones from the journal and does not send them")
    func skipInDoubt() throws {
        let slow = try MockProcess(dir: dir, extra: ["--delay", "20000"])
        let (path, tokens) = try tokensFile(40, seed: 10)
        let journal = dir.path("doubt.jsonl")
        let first = try Background(
            dir, "doubt-1",
            arguments: sendArguments(
                slow,
                [
                    "--tokens-file", path, "--output", "jsonl", "--journal", journal,
                    "--concurrency", "10", "--verbose",
                ]))
        first.waitForStandardError("[:path: /3/device/", count: 10)
        first.signal(SIGTERM)
        first.signal(SIGTERM)
        _ = first.wait()
        let inDoubt = first.objects.filter { $0["stopped"] as? String == "in-doubt" }.compactMap { $0["token"] as? String }
        #expect(!inDoubt.isEmpty)
        // The same run resumed against a prompt server (same URL is not needed: the CA and URL differ, so
        // resume against the slow one with answers now prompt is not possible; use a journal copy instead).
        // A folder of its own: the slow mock still runs and must not write into this one's log.
        let fastDir = try TemporaryDirectory()
        let fast = try MockProcess(dir: fastDir, keyFile: slow.keyFile)
        let copied = dir.path("doubt-copy.jsonl")
        let text = try String(contentsOfFile: journal, encoding: .utf8).replacingOccurrences(of: slow.url, with: fast.url)
        try text.write(toFile: copied, atomically: true, encoding: .utf8)
        let second = try fast.send(["--tokens-file", path, "--title", "x", "--output", "jsonl", "--journal", copied, "--resume", "--skip-in-doubt"])
        #expect(second.status == 0 || second.status == 75, "\(second.stderr)")
        let sent = try received(fast)
        #expect(Set(sent).isDisjoint(with: inDoubt), "in-doubt notifications are not sent with --skip-in-doubt")
        #expect(Set(sent) == Set(tokens).subtracting(inDoubt), "everything else is")
        let reported = second.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(reported.filter { $0["resumed"] as? Bool == true && $0["stopped"] as? String == "in-doubt" }.count == inDoubt.count)
    }

    @Test(
        "journal refusals: an existing journal without --resume (64), --resume alone (64), another run's (64), one that cannot be created (73), garbage (65 with its line); nothing sent"
    )
    func journalRefusals() throws {
        let mock = try MockProcess(dir: dir)
        let (path, _) = try tokensFile(5, seed: 11)
        let journal = dir.path("refusals.jsonl")
        #expect(try mock.send(["--tokens-file", path, "--title", "x", "--journal", journal]).status == 0)
        // A requests file's run is told by its lines: with one payload changed, it is another run.
        let (_, requestTokens) = try tokensFile(3, seed: 12)
        let requests = try requestsFile(requestTokens, name: "refusals-requests.jsonl")
        let requestsJournal = dir.path("refusals-requests-journal.jsonl")
        #expect(try mock.send(["--requests-file", requests, "--journal", requestsJournal]).status == 0)
        let changed = try dir.write(
            "refusals-requests-changed.jsonl",
            try String(contentsOfFile: requests, encoding: .utf8).replacingOccurrences(of: "n 1", with: "n one"))
        let otherLines = try mock.send(["--requests-file", changed, "--journal", requestsJournal, "--resume"])
        #expect(otherLines.status == 64, "\(otherLines.stderr)")
        #expect(otherLines.stderr.contains("different run"), "\(otherLines.stderr)")
        var sentSoFar = try received(mock).count

        let again = try mock.send(["--tokens-file", path, "--title", "x", "--journal", journal])
        #expect(again.status == 64)
        #expect(again.stderr.contains("already holds a run") && again.stderr.contains("--resume"), "\(again.stderr)")

        let alone = try mock.send(["--tokens-file", path, "--title", "x", "--resume"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--journal"))

        let otherTitle = try mock.send(["--tokens-file", path, "--title", "changed", "--journal", journal, "--resume"])
        #expect(otherTitle.status == 64)
        #expect(otherTitle.stderr.contains("different run") && otherTitle.stderr.contains("payload"), "\(otherTitle.stderr)")

        let nowhere = try mock.send(["--tokens-file", path, "--title", "x", "--journal", dir.path("missing/folder/j.jsonl")])
        #expect(nowhere.status == 73, "\(nowhere.stderr)")

        var lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("this is not json", at: 2)
        let garbled = dir.path("garbled.jsonl")
        try lines.joined(separator: "\n").write(toFile: garbled, atomically: true, encoding: .utf8)
        let damaged = try mock.send(["--tokens-file", path, "--title", "x", "--journal", garbled, "--resume"])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("line 3"), "\(damaged.stderr)")

        var after = try received(mock)
        #expect(after.count == sentSoFar, "nothing sent by any refusal: \(after.count - sentSoFar)")
        sentSoFar = after.count

        // A last line cut short by a crash is tolerated: the run resumes, sending only what it lacks.
        var cut = try String(contentsOfFile: journal, encoding: .utf8)
        cut.removeLast(25)
        try cut.write(toFile: journal, atomically: true, encoding: .utf8)
        let resumed = try mock.send(["--tokens-file", path, "--title", "x", "--journal", journal, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        after = try received(mock)
        #expect(after.count == sentSoFar + 1, "only the one whose line was cut")
    }

    @Test("the job log: a human summary on stderr in jsonl mode, GitHub's step summary, one annotation per reason")
    func jobLog() throws {
        let tokens = (0..<6).map { String(format: "%064x", 0xabc000 + $0) }
        let mock = try MockProcess(
            dir: dir,
            extra: [
                "--fail", "\(tokens[0])=Unregistered", "--fail", "\(tokens[1])=Unregistered", "--fail", "\(tokens[2])=BadDeviceToken",
            ])
        let stepSummary = dir.path("step-summary.md")
        let result = try mock.send(
            tokens.flatMap { ["--device-token", $0] } + ["--title", "x", "--output", "jsonl", "--unregistered-out", dir.path("dead.txt")],
            env: ["GITHUB_STEP_SUMMARY": stepSummary, "GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("6 tokens: 3 accepted, 3 rejected (Unregistered 2, BadDeviceToken 1)"), "\(result.stderr)")
        let annotations = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(annotations.count == 2, "one per reason, not per token: \(annotations)")
        #expect(annotations.allSatisfy { $0.hasPrefix("::error title=") })
        #expect(!result.stdout.contains("::error"), "stdout stays the results")
        let markdown = try String(contentsOfFile: stepSummary, encoding: .utf8)
        #expect(markdown.contains("| `Unregistered` | 2 |"), "\(markdown)")
        #expect(markdown.contains("dead.txt"))
        let quiet = try mock.send(["--device-token", tokens[5], "--title", "x", "--output", "jsonl", "--quiet"])
        #expect(quiet.stderr.isEmpty, "--quiet keeps stderr for errors")
    }
}
