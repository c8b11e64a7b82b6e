import Foundation
import Testing

/// `pushctl send` against a hostile `pushctl mock`: a proxy's 5xx with no JSON, a 200 with a huge
/// body, a garbage timestamp, a Retry-After of days, silence, resets, GOAWAY with an error, a
/// server that allows no streams. Whatever the server does, every token gets exactly one result,
/// nothing is sent twice that was answered, nothing traps, and the run ends in seconds.
///
/// Serialized: the time and CPU bounds below must not measure other tests' work.
@Suite(.serialized) struct HostileServerTests {
    let dir = try! TemporaryDirectory()

    struct Outcome {
        let results: [[String: Any]]
        let summary: [String: Any]
        let status: Int32
        let stdout: String
        let stderr: String
        /// Wall-clock seconds of the send.
        let seconds: Double
        func count(_ key: String) -> Int { summary[key] as? Int ?? -1 }
        var byToken: [String: [String: Any]] {
            Dictionary(results.map { ($0["token"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    func tokens(_ count: Int) -> [String] {
        (0..<count).map { i in String(repeating: "0", count: 56) + String(format: "%08x", i) }
    }

    func tokensFile(_ tokens: [String]) throws -> String {
        try dir.write("tokens-\(UUID().uuidString).txt", tokens.joined(separator: "\n") + "\n")
    }

    /// `send --output jsonl` to these tokens, timed.
    func run(_ mock: MockProcess, _ tokens: [String], _ arguments: [String] = []) throws -> Outcome {
        let start = Date()
        let result = try mock.send(["--tokens-file", try tokensFile(tokens), "--title", "x", "--output", "jsonl"] + arguments)
        return outcome(result, seconds: Date().timeIntervalSince(start))
    }

    func outcome(_ result: CommandResult, seconds: Double) -> Outcome {
        let objects = result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return Outcome(
            results: objects.filter { $0["token"] != nil }, summary: objects.last { $0["token"] == nil } ?? [:],
            status: result.status, stdout: result.stdout, stderr: result.stderr, seconds: seconds)
    }

    func expectOneResultEach(_ outcome: Outcome, _ tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = outcome.results.compactMap { $0["token"] as? String }
        #expect(seen.count == tokens.count, "one result line per token: \(outcome.stderr.suffix(2000))", sourceLocation: sourceLocation)
        #expect(Set(seen) == Set(tokens), sourceLocation: sourceLocation)
        #expect(outcome.count("tokens") == tokens.count, "the summary counts every token", sourceLocation: sourceLocation)
    }

    /// How many requests the mock logged for each device token before a marker sent after the
    /// run (so a request sent twice is seen, whatever the log's batching).
    func requestsPerToken(_ mock: MockProcess, atLeast: Int) throws -> [String: Int] {
        let logged = try mock.requestsSoFar(markerBy: .curl)
        #expect(logged.count >= atLeast, "\(logged.count) requests logged, expected at least \(atLeast)")
        var counts: [String: Int] = [:]
        for request in logged {
            let path = request["path"] as? String ?? ""
            counts[String(path.dropFirst("/3/device/".count)), default: 0] += 1
        }
        return counts
    }

    /// A status a trapped process gets (SIGILL 132, SIGTRAP 133, SIGABRT 134, SIGSEGV 139), or a signal.
    func expectNoCrash(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(![132, 133, 134, 139].contains(outcome.status), "pushctl trapped: \(outcome.stderr.suffix(2000))", sourceLocation: sourceLocation)
        #expect(!outcome.stderr.contains("Fatal error"), "\(outcome.stderr.suffix(2000))", sourceLocation: sourceLocation)
        #expect(
            Set([0, 1, 64, 65, 66, 69, 73, 75]).contains(outcome.status), "a documented exit status: \(outcome.status)",
            sourceLocation: sourceLocation)
    }

    // MARK: - Answers with bodies no APNs sends

    @Test("a 200 with a 70,000-byte body: accepted, sent once, never again")
    func hugeAcceptedBody() throws {
        let mock = try MockProcess(dir: dir, extra: ["--pad-body", "70000"])
        let tokens = tokens(3)
        let outcome = try run(mock, tokens, ["--timeout", "2"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, tokens)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.count("accepted") == 3)
        #expect(outcome.results.allSatisfy { $0["status"] as? Int == 200 })
        let counts = try requestsPerToken(mock, atLeast: 3)
        #expect(counts == Dictionary(uniqueKeysWithValues: tokens.map { ($0, 1) }), "each notification delivered exactly once: \(counts)")
    }

    @Test(
        "a proxy's 503, 429 or 500 with no JSON reason is retried (decided by its status), then accepted",
        arguments: [503, 429, 500])
    func proxyErrorRetried(status: Int) throws {
        let mock = try MockProcess(
            dir: dir,
            extra: [
                "--answer-status", String(status), "--answer-count", "1",
                "--answer-body", "<html>busy</html>",
            ])
        let outcome = try run(mock, [sampleToken], ["--timeout", "2"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, [sampleToken])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.results.first?["status"] as? Int == 200)
        #expect(outcome.results.first?["attempts"] as? Int == 2)
        #expect(try requestsPerToken(mock, atLeast: 2)[sampleToken] == 2)
        #expect(outcome.seconds < 20)
    }

    @Test("a proxy's 503 on every try: retries exhausted, exit 75")
    func proxyErrorEveryTime() throws {
        let mock = try MockProcess(dir: dir, extra: ["--answer-status", "503"])
        let outcome = try run(mock, [sampleToken], ["--timeout", "2", "--retries", "1"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, [sampleToken])
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.results.first?["status"] as? Int == 503)
        #expect(try requestsPerToken(mock, atLeast: 2)[sampleToken] == 2)
        #expect(outcome.seconds < 20)
    }

    @Test("a 400 with a non-JSON body is final: exit 1, one request")
    func nonJSON400IsFinal() throws {
        let mock = try MockProcess(dir: dir, extra: ["--answer-status", "400", "--answer-body", "<html>bad request</html>"])
        let outcome = try run(mock, [sampleToken], ["--timeout", "2"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, [sampleToken])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.results.first?["status"] as? Int == 400)
        #expect(try requestsPerToken(mock, atLeast: 1)[sampleToken] == 1)
    }

    @Test("a 410 whose timestamp is 1e300: no trap, reason Unregistered, the jsonl line is JSON")
    func garbageTimestamp() throws {
        let mock = try MockProcess(dir: dir, extra: ["--answer-status", "410", "--answer-body", #"{"reason":"Unregistered","timestamp":1e300}"#])
        let tokens = tokens(3)
        let outcome = try run(mock, tokens, ["--timeout", "2"])
        expectNoCrash(outcome)
        #expect(outcome.status == 1, "\(outcome.stderr.suffix(2000))")
        expectOneResultEach(outcome, tokens)
        #expect(outcome.results.allSatisfy { $0["reason"] as? String == "Unregistered" }, "\(outcome.stdout)")
        #expect(outcome.results.allSatisfy { $0["status"] as? Int == 410 })
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == tokens.count + 1)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "every line parses: \(outcome.stdout)")
    }

    @Test("429 with Retry-After: 999999 (11.6 days): the run ends in seconds with exit 75")
    func hugeRetryAfter() throws {
        let mock = try MockProcess(
            dir: dir,
            extra: [
                "--answer-status", "429", "--retry-after", "999999",
                "--answer-body", #"{"reason":"TooManyRequests"}"#,
            ])
        let outcome = try run(mock, [sampleToken], ["--timeout", "2"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, [sampleToken])
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.results.first?["reason"] as? String == "TooManyRequests")
        #expect(outcome.seconds < 20, "took \(outcome.seconds) s")
    }

    // MARK: - Servers that do not answer

    @Test("a server silent after TLS: 50 tokens, each one result, exit 75, in bounded time, using almost no CPU")
    func silentServer() throws {
        let mock = try MockProcess(dir: dir, extra: ["--silent"])
        let tokens = tokens(50)
        let arguments = [
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--tokens-file", try tokensFile(tokens), "--title", "x", "--output", "jsonl",
            "--timeout", "2",
        ]
        let start = Date()
        let result = try CLI.pushctl(arguments)
        let outcome = outcome(result, seconds: Date().timeIntervalSince(start))
        expectNoCrash(outcome)
        #expect(outcome.seconds < 30, "took \(outcome.seconds) s")
        #expect(outcome.status == 75, "\(outcome.stderr.suffix(2000))")
        expectOneResultEach(outcome, tokens)

        // The pushctl process alone (wait4's rusage): user and system CPU seconds.
        let cpu = result.cpuSeconds
        #expect(cpu > 0, "the CPU time was measured")
        #expect(cpu < 0.25 * outcome.seconds, "waiting must cost no CPU: \(cpu) s of CPU in \(outcome.seconds) s")
    }

    @Test("RST_STREAM(INTERNAL_ERROR) on every stream: each token one result, exit 75, bounded time")
    func resetStreams() throws {
        let mock = try MockProcess(dir: dir, extra: ["--reset-streams"])
        let tokens = tokens(10)
        let outcome = try run(mock, tokens, ["--timeout", "2", "--retries", "1"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, tokens)
        #expect(outcome.status == 75, "\(outcome.stderr.suffix(2000))")
        #expect(outcome.seconds < 30, "took \(outcome.seconds) s")
    }

    @Test("SETTINGS allowing 0 streams: not 'could not reach APNs'; the explanation names the streams; bounded time")
    func zeroStreams() throws {
        let mock = try MockProcess(dir: dir, extra: ["--initial-streams", "0"])
        let outcome = try run(mock, [sampleToken], ["--timeout", "2", "--retries", "1"])
        expectNoCrash(outcome)
        #expect(outcome.status != 0)
        #expect(outcome.status != 69, "the server was reached: \(outcome.stderr)")
        let said = (outcome.stderr + outcome.stdout).lowercased()
        #expect(said.contains("stream"), "says the server allows no streams: \(outcome.stderr) \(outcome.stdout)")
        #expect(outcome.seconds < 30, "took \(outcome.seconds) s")
        expectOneResultEach(outcome, [sampleToken])
    }

    @Test("GOAWAY(INTERNAL_ERROR) every 100 requests over 500 tokens: each token one result, all accepted")
    func goAwayWithError() throws {
        let mock = try MockProcess(dir: dir, extra: ["--goaway-after", "100", "--goaway-error", "2"])
        let tokens = tokens(500)
        let outcome = try run(mock, tokens, ["--timeout", "2"])
        expectNoCrash(outcome)
        expectOneResultEach(outcome, tokens)
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(2000))")
        #expect(outcome.count("accepted") == 500)
        #expect(outcome.seconds < 60, "took \(outcome.seconds) s")
    }
}
