import Foundation
import Testing

/// Batches a CI can trust: under each fault the mock can inject, every token gets exactly one
/// result, the counts add up, and the exit status says what happened.
@Suite struct BatchReliabilityTests {
    let dir = try! TemporaryDirectory()

    func tokensFile(_ count: Int, name: String = "tokens.txt") throws -> (path: String, tokens: [String]) {
        let tokens = (0..<count).map { i in String(repeating: "0", count: 56) + String(format: "%08x", i) }
        let path = try dir.write(name, "# device tokens\n\n" + tokens.joined(separator: "\n") + "\n")
        return (path, tokens)
    }

    struct Outcome {
        let results: [[String: Any]]
        let summary: [String: Any]
        let status: Int32
        func count(_ key: String) -> Int { summary[key] as? Int ?? -1 }
    }

    func run(_ mock: MockProcess, _ arguments: [String]) throws -> Outcome {
        let result = try mock.send(arguments + ["--title", "x", "--output", "jsonl"])
        let objects = result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return Outcome(results: objects.filter { $0["token"] != nil }, summary: objects.last ?? [:], status: result.status)
    }

    func expectOneResultEach(_ outcome: Outcome, _ tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = outcome.results.compactMap { $0["token"] as? String }
        #expect(seen.count == tokens.count, sourceLocation: sourceLocation)
        #expect(Set(seen) == Set(tokens), sourceLocation: sourceLocation)
        let parts = ["accepted", "rejected", "temporaryFailures", "unreachable"].map(outcome.count).reduce(0, +)
        #expect(parts == tokens.count, "the counts add up", sourceLocation: sourceLocation)
        #expect(outcome.count("tokens") == tokens.count, sourceLocation: sourceLocation)
    }

    /// On the server's side: each token's own path was answered 200 exactly once, and no request
    /// went to a path outside the tokens (a request sent again by libcurl goes to its own token).
    func expectEachAnsweredOnce(_ mock: MockProcess, _ tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let requests = try mock.requestsSoFar()
        let paths = requests.compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
        let answered = requests.filter { $0["status"] as? Int == 200 }.compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
        #expect(Set(paths).isSubset(of: Set(tokens)), "a request went to a path that is no token's", sourceLocation: sourceLocation)
        #expect(
            answered.count == tokens.count && Set(answered) == Set(tokens), "\(answered.count) answered 200 for \(Set(answered).count) tokens",
            sourceLocation: sourceLocation)
    }

    @Test("GOAWAY every 300 requests: all 2,000 accepted, each once")
    func goAway() throws {
        let mock = try MockProcess(dir: dir, extra: ["--goaway-after", "300"])
        let (path, tokens) = try tokensFile(2000)
        let outcome = try run(mock, ["--tokens-file", path])
        expectOneResultEach(outcome, tokens)
        #expect(outcome.status == 0)
        #expect(outcome.count("accepted") == 2000)
        try expectEachAnsweredOnce(mock, tokens)
        let connections = Set(try mock.requests(count: 2000).compactMap { $0["connection"] as? Int })
        #expect(connections.count >= 6, "a new connection after each GOAWAY")
    }

    @Test("--connections 3 spreads one batch over three HTTP/2 connections")
    func connections() throws {
        let mock = try MockProcess(dir: dir)
        let (path, tokens) = try tokensFile(600)
        let outcome = try run(mock, ["--tokens-file", path, "--connections", "3", "--concurrency", "60"])
        expectOneResultEach(outcome, tokens)
        let connections = Set(try mock.requests(count: 600).compactMap { $0["connection"] as? Int })
        #expect(connections.count == 3)
    }

    @Test("abrupt connection close every 250 requests: nothing lost, lost streams retried on new connections")
    func abruptClose() throws {
        let mock = try MockProcess(dir: dir, extra: ["--close-after", "250"])
        let (path, tokens) = try tokensFile(1500)
        let outcome = try run(mock, ["--tokens-file", path])
        expectOneResultEach(outcome, tokens)
        #expect(outcome.status == 0)
        #expect(outcome.count("retried") > 0)
    }

    @Test("REFUSED_STREAM on every 7th stream: refused streams are sent again, each to its own token, answered once")
    func refusedStreams() throws {
        let mock = try MockProcess(dir: dir, extra: ["--refuse-every", "7"])
        let (path, tokens) = try tokensFile(700)
        let outcome = try run(mock, ["--tokens-file", path])
        expectOneResultEach(outcome, tokens)
        #expect(outcome.status == 0)
        #expect(outcome.count("accepted") == 700)
        try expectEachAnsweredOnce(mock, tokens)
    }

    @Test("--verbose while libcurl sends refused streams again: every URL the trace names is the token being sent")
    func traceNamesTheRetriedToken() throws {
        let mock = try MockProcess(dir: dir, extra: ["--refuse-every", "2"])
        let (path, tokens) = try tokensFile(6)
        let result = try mock.send(["--tokens-file", path, "--title", "x", "--concurrency", "1", "--verbose"])
        #expect(result.status == 0, "\(result.stderr.suffix(1000))")
        var sending: Substring?
        var named = 0
        for line in result.stderr.split(separator: "\n") {
            guard let range = line.range(of: "/3/device/") else { continue }
            let token = line[range.upperBound...].prefix(64)
            // Each request starts with libcurl's line of its :path.
            if line.contains(":path:") {
                sending = token
                continue
            }
            if !line.hasPrefix("> POST ") { named += 1 }
            #expect(token == sending, "the trace names \(token) while sending \(sending ?? "nothing"): \(line)")
        }
        #expect(named >= 3, "the trace names the URL of each request sent again")
        try expectEachAnsweredOnce(mock, tokens)
    }

    @Test("503 and 429 bursts: retried with back-off; a token still failing after the retries exits 75")
    func bursts() throws {
        let a = sampleToken
        let b = otherToken
        let c = String(repeating: "c3", count: 32)
        let mock = try MockProcess(
            dir: dir,
            extra: [
                "--fail-first", "\(a)=2:ServiceUnavailable", "--fail-first", "\(b)=1:TooManyRequests",
                "--fail-first", "\(c)=9:ServiceUnavailable",
            ])
        let outcome = try run(mock, ["--device-token", a, "--device-token", b, "--device-token", c, "--retries", "2"])
        expectOneResultEach(outcome, [a, b, c])
        #expect(outcome.status == 75)
        let byToken = Dictionary(uniqueKeysWithValues: outcome.results.map { ($0["token"] as! String, $0) })
        #expect(byToken[a]?["status"] as? Int == 200)
        #expect(byToken[a]?["attempts"] as? Int == 3)
        #expect(byToken[b]?["attempts"] as? Int == 2)
        #expect(byToken[c]?["status"] as? Int == 503)
        #expect(byToken[c]?["attempts"] as? Int == 3)
        #expect(outcome.count("temporaryFailures") == 1)
    }

    @Test("a slow server hitting --timeout: a temporary failure (75), not 'unreachable'")
    func timeout() throws {
        let mock = try MockProcess(dir: dir, extra: ["--delay", "3000"])
        let outcome = try run(mock, ["--device-token", sampleToken, "--timeout", "0.5", "--retries", "1"])
        expectOneResultEach(outcome, [sampleToken])
        #expect(outcome.status == 75)
        let explanation = outcome.results.first?["explanation"] as? String ?? ""
        #expect(explanation.contains("no answer in time"))
        #expect(outcome.results.first?["attempts"] as? Int == 2)
    }

    @Test("410s go to --unregistered-out, one per line; 400s do not")
    func unregisteredOut() throws {
        let dead = String(repeating: "de", count: 32)
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(dead)=Unregistered", "--fail", "\(otherToken)=BadDeviceToken"])
        let out = dir.path("dead.txt")
        let outcome = try run(
            mock,
            [
                "--device-token", sampleToken, "--device-token", dead, "--device-token", otherToken,
                "--unregistered-out", out,
            ])
        #expect(outcome.status == 1)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == dead + "\n")
    }

    @Test("a tokens file from stdin; a bad line anywhere refuses the whole file (65, its line number) and sends nothing")
    func tokensFiles() throws {
        let mock = try MockProcess(dir: dir)
        let (_, tokens) = try tokensFile(5)
        let result = try mock.send(
            ["--tokens-file", "-", "--title", "x", "--output", "jsonl"],
            stdin: "# from a pipe\n" + tokens.joined(separator: "\n"))
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 6)

        let bad = try dir.write("bad.txt", tokens.joined(separator: "\n") + "\nnot-a-token\n")
        let refused = try mock.send(["--tokens-file", bad, "--title", "x"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("bad.txt, line 6:"))
        #expect(try mock.requestsSoFar().count == 5, "only the stdin run's five arrived")
    }
}

@Suite struct ProviderTokenCacheTests {
    let dir = try! TemporaryDirectory()

    func authorizations(_ mock: MockProcess, count: Int) throws -> [String] {
        try mock.requests(count: count).compactMap { ($0["headers"] as? [String: String])?["authorization"] }
    }

    @Test("two runs a minute apart send the same JWT, from a cache file of mode 0600")
    func reused() throws {
        let mock = try MockProcess(dir: dir)
        let cache = dir.path("cache")
        let env = ["PUSHCTL_CACHE_DIR": cache]
        let first = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"], env: env)
        let second = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"], env: env)
        #expect(first.status == 0 && second.status == 0)
        func jwt(_ r: CommandResult) -> String? {
            r.stderr.split(separator: "\n").first { $0.hasPrefix("> authorization: bearer ") }.map { String($0.dropFirst(24)) }
        }
        #expect(jwt(first) != nil)
        #expect(jwt(first) == jwt(second))
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache + "/" + files[0])
        #expect(attributes[.posixPermissions] as? Int == 0o600)

        let fresh = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets", "--no-jwt-cache"], env: env)
        #expect(jwt(fresh) != nil)
        // --no-jwt-cache neither reads nor replaces the cached token:
        let again = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"], env: env)
        #expect(jwt(again) == jwt(first))
        // Sealed: no file in the cache holds a readable JWT, or any part of it.
        for file in try FileManager.default.contentsOfDirectory(atPath: cache) {
            let text = try String(contentsOfFile: cache + "/" + file, encoding: .utf8)
            #expect(text.hasPrefix("pushctl-jwt-cache sealed v1\n"))
            for part in (jwt(first) ?? "").split(separator: ".") { #expect(!text.contains(part)) }
            #expect(!text.contains("eyJ"))
        }
    }

    @Test("the cache follows the key's content: CRLF line ends keep the token, another key does not")
    func keyedByKeyContent() throws {
        let mock = try MockProcess(dir: dir)
        let env = ["PUSHCTL_CACHE_DIR": dir.path("cache-content")]
        let args = ["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"]
        func jwt(_ r: CommandResult) -> String? {
            r.stderr.split(separator: "\n").first { $0.hasPrefix("> authorization: bearer ") }.map { String($0.dropFirst(24)) }
        }
        let first = try mock.send(args, env: env)
        #expect(first.status == 0, "\(first.stderr)")

        let pem = try String(contentsOfFile: mock.keyFile, encoding: .utf8)
        try pem.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: mock.keyFile, atomically: false, encoding: .utf8)
        let crlf = try mock.send(args, env: env)
        #expect(crlf.status == 0, "\(crlf.stderr)")
        #expect(jwt(crlf) != nil && jwt(crlf) == jwt(first))

        let other = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: mock.keyFile)
        try FileManager.default.copyItem(atPath: try other.generateKey(), toPath: mock.keyFile)
        let otherKey = try mock.send(args, env: env)
        #expect(otherKey.status == 1, "the mock knows only the first key: \(otherKey.stderr)")
        #expect(jwt(otherKey) != nil && jwt(otherKey) != jwt(first))
    }

    @Test("a cache entry changed by someone, or sealed with another key, is ignored with one warning and replaced; an old plaintext entry silently")
    func tamperedOrForeign() throws {
        let mock = try MockProcess(dir: dir)
        let cache = dir.path("cache")
        let env = ["PUSHCTL_CACHE_DIR": cache]
        let args = ["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"]
        func jwt(_ r: CommandResult) -> String? {
            r.stderr.split(separator: "\n").first { $0.hasPrefix("> authorization: bearer ") }.map { String($0.dropFirst(24)) }
        }
        let first = try mock.send(args, env: env)
        #expect(first.status == 0)
        let file = cache + "/" + (try FileManager.default.contentsOfDirectory(atPath: cache)[0])
        let sealed = try String(contentsOfFile: file, encoding: .utf8)

        // One character of the box changed: the tag fails.
        var lines = sealed.split(separator: "\n").map(String.init)
        var box = Array(lines[1])
        box[20] = box[20] == "A" ? "B" : "A"
        lines[1] = String(box)
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        let tampered = try mock.send(args, env: env)
        #expect(tampered.status == 0, "\(tampered.stderr)")
        #expect(tampered.stderr.components(separatedBy: "does not open with this key").count == 2, "one warning: \(tampered.stderr)")
        #expect(jwt(tampered) != jwt(first), "a new token was signed")
        let replaced = try String(contentsOfFile: file, encoding: .utf8)
        #expect(replaced.hasPrefix("pushctl-jwt-cache sealed v1\n") && replaced != sealed)

        // An entry another key sealed, under this key's file name (what a restored cache could hold).
        let other = try TemporaryDirectory()
        let otherMock = try MockProcess(dir: other)
        let otherCache = other.path("cache")
        #expect(try otherMock.send(["--device-token", sampleToken, "--title", "x"], env: ["PUSHCTL_CACHE_DIR": otherCache]).status == 0)
        let foreign = try #require(try FileManager.default.contentsOfDirectory(atPath: otherCache).first)
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: otherCache + "/" + foreign, toPath: file)
        let refused = try mock.send(args, env: env)
        #expect(refused.status == 0 && refused.stderr.contains("does not open with this key"), "\(refused.stderr)")

        // An entry an older pushctl wrote (the JWT in the clear) is not used, and is replaced quietly.
        try ((jwt(first) ?? "") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        let plain = try mock.send(args, env: env)
        #expect(plain.status == 0 && !plain.stderr.contains("warning"), "\(plain.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("pushctl-jwt-cache sealed v1\n"))
    }
}
