import Foundation
import Testing

/// `pushctl send` end to end: the built binary, libcurl, TLS + HTTP/2, and `pushctl mock`.
@Suite struct SendCommandTests {
    let dir = try! TemporaryDirectory()

    func headers(_ request: [String: Any]) -> [String: String] { request["headers"] as? [String: String] ?? [:] }

    @Test("an alert from the builder flags arrives with exactly the headers and payload given")
    func alert() throws {
        let mock = try MockProcess(dir: dir)
        let id = "123e4567-e89b-12d3-a456-426614174000"
        let result = try mock.send([
            "--device-token", "<\(sampleToken.uppercased())>", "--title", "Hello", "--body", "From pushctl",
            "--badge", "3", "--sound", "default", "--collapse-id", "news", "--expiration", "0",
            "--apns-id", id,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Whole tokens when stdout is not a terminal (a file or a pipe keeps what a script needs).
        #expect(result.stdout.hasPrefix("✓ \(sampleToken)  200  apns-id \(id)"))
        #expect(result.stderr.contains("1 token: 1 accepted"))
        let requests = try mock.requests(count: 1)
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request["method"] as? String == "POST")
        #expect(request["path"] as? String == "/3/device/\(sampleToken)")
        let h = headers(request)
        #expect(h["apns-push-type"] == "alert")
        #expect(h["apns-topic"] == "com.example.app")
        #expect(h["apns-priority"] == "10")
        #expect(h["apns-collapse-id"] == "news")
        #expect(h["apns-expiration"] == "0")
        #expect(h["apns-id"] == id)
        #expect(h["content-type"] == nil, "no stray form content-type")
        #expect(h["accept"] == nil)
        #expect((h["authorization"] ?? "").contains("\"kid\":\"ABC123DEFG\""))
        #expect(request["body"] as? String == #"{"aps":{"alert":{"title":"Hello","body":"From pushctl"},"badge":3,"sound":"default"}}"#)
    }

    @Test("a payload file is sent byte for byte")
    func payloadFile() throws {
        let mock = try MockProcess(dir: dir)
        let text = "{\n  \"zeta\": 1,\n  \"aps\" : { \"alert\" : \"Hi ☀️\" }\n}\n"
        let file = try dir.write("payload.json", text)
        let result = try mock.send(["--device-token", sampleToken, "--payload", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try mock.requests(count: 1).first?["body"] as? String == text)
    }

    @Test("content-available alone makes a background push at priority 5; VoIP gets its topic suffix and 5120 bytes")
    func inference() throws {
        let mock = try MockProcess(dir: dir)
        #expect(try mock.send(["--device-token", sampleToken, "--content-available", "--custom", "sync=true"]).status == 0)
        let big = "{\"aps\":{},\"blob\":\"" + String(repeating: "v", count: 5000) + "\"}"
        let voip = try mock.send(["--device-token", sampleToken, "--push-type", "voip", "--payload-json", big])
        #expect(voip.status == 0, "\(voip.stderr)")
        let requests = try mock.requests(count: 2)
        #expect(headers(requests[0])["apns-push-type"] == "background")
        #expect(headers(requests[0])["apns-priority"] == "5")
        #expect(requests[0]["body"] as? String == #"{"aps":{"content-available":1},"sync":true}"#)
        #expect(headers(requests[1])["apns-topic"] == "com.example.app.voip")
    }

    @Test(
        "each pre-send rule refuses with 65, says why, and nothing reaches the server",
        arguments: [
            (["--payload-json", "{\"aps\":{\"alert\":\"" + String(repeating: "a", count: 4077) + "\"}}"], "1 over APNs' limit of 4096 bytes"),
            (
                ["--push-type", "voip", "--payload-json", "{\"aps\":{},\"x\":\"" + String(repeating: "a", count: 5104) + "\"}"],
                "1 over APNs' limit of 5120 bytes"
            ),
            (["--content-available", "--priority", "10"], "--priority 10 with a background push"),
            (["--title", "x", "--priority", "7"], "--priority must be 10"),
            (["--title", "x", "--push-type", "fast"], "not an APNs push type"),
            (["--title", "x", "--collapse-id", String(repeating: "é", count: 33)], "66 bytes, 2 over APNs' limit of 64 bytes"),
            (["--title", "x", "--apns-id", "not-a-uuid"], "is not a UUID"),
            (["--title", "x", "--expiration", "soon"], "--expiration must be UNIX seconds"),
            (["--title", "x", "--expiration", "2026-12-01"], "that date (2026-12-01 00:00 UTC) is 1796083200: --expiration 1796083200"),
            (["--payload-json", "[1,2]"], "not a JSON object"),
            (["--payload-json", "{\"aps\":"], "not valid JSON"),
            (["--payload-json", "   "], "is empty"),
            (["--title", "x", "--device-token", "abc"], "odd number of hex digits"),
            (["--title", "x", "--device-token", "zz11"], "has 'z' at position 1"),
            (["--title", "x", "--interruption-level", "loud"], "the interruption level must be one of"),
            (["--title", "x", "--interruption-level", "timesensitive"], "got 'timesensitive'; did you mean time-sensitive?"),
        ])
    func refusals(_ arguments: [String], _ message: String) throws {
        let mock = try MockProcess(dir: dir)
        let tokens = arguments.contains("--device-token") ? [] : ["--device-token", sampleToken]
        let result = try mock.send(tokens + arguments)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try mock.requestsSoFar().isEmpty, "a refused notification must not be sent")
    }

    @Test("mixed answers: exit 1, exactly one jsonl result per token, the dead token's timestamp, then a summary")
    func mixed() throws {
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(otherToken)=Unregistered"])
        let result = try mock.send(["--device-token", sampleToken, "--device-token", otherToken, "--title", "x", "--output", "jsonl"])
        #expect(result.status == 1)
        let lines = result.stdoutLines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.count == 3)
        let byToken = Dictionary(uniqueKeysWithValues: lines.prefix(2).map { ($0["token"] as! String, $0) })
        #expect(byToken[sampleToken]?["status"] as? Int == 200)
        #expect(byToken[otherToken]?["status"] as? Int == 410)
        #expect(byToken[otherToken]?["reason"] as? String == "Unregistered")
        #expect((byToken[otherToken]?["timestamp"] as? Int ?? 0) > 1_600_000_000_000)
        let explanation = byToken[otherToken]?["explanation"] as? String ?? ""
        #expect(explanation.contains("stop sending to it"))
        #expect(byToken[otherToken]?["attempts"] as? Int == 1)
        // Every result has the same keys in the same order, accepted (the fast path) or not.
        for line in result.stdoutLines.prefix(2) {
            #expect(
                ResultShape.keys(line) == ["token", "status", "outcome", "apnsId", "apnsUniqueId", "reason", "timestamp", "explanation", "attempts"], "\(line)")
        }
        #expect(byToken[sampleToken]?["outcome"] as? String == "accepted" && byToken[otherToken]?["outcome"] as? String == "rejected")
        #expect(lines[2]["summary"] as? Bool == true)
        #expect(lines[2]["accepted"] as? Int == 1)
        #expect(lines[2]["rejected"] as? Int == 1)
    }

    @Test(
        "the default mock refuses a token APNs could never have issued (shorter than 32 bytes) with 400 BadDeviceToken, as APNs does",
        arguments: ["1234", "0badbadbad", String(sampleToken.dropLast(2))])
    func shortTokens(_ token: String) throws {
        let mock = try MockProcess(dir: dir)
        let result = try mock.send(["--device-token", token, "--title", "x"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("400 BadDeviceToken"), "\(result.stdout)")
        #expect(try mock.requests(count: 1).first?["reason"] as? String == "BadDeviceToken")
    }

    @Test(
        "rejection reasons map to exit codes and explanations",
        arguments: [
            ("BadDeviceToken", Int32(1), "other environment (sandbox vs production)"),
            ("DeviceTokenNotForTopic", Int32(1), "belongs to another app"),
            ("TopicDisallowed", Int32(1), "not allowed"),
            ("ServiceUnavailable", Int32(75), "unavailable"),
            ("TooManyRequests", Int32(75), "too many notifications"),
        ])
    func reasons(_ reason: String, _ status: Int32, _ explanation: String) throws {
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(sampleToken)=\(reason)"])
        let result = try mock.send(["--device-token", sampleToken, "--title", "x", "--retries", "0"])
        #expect(result.status == status, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(reason))
        #expect(result.stdout.contains(explanation))
    }

    @Test("--output json is one document with every result and the summary")
    func json() throws {
        let mock = try MockProcess(dir: dir)
        let result = try mock.send(["--device-token", sampleToken, "--device-token", otherToken, "--body", "x", "--output", "json"])
        #expect(result.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(doc["results"] as? [[String: Any]])
        #expect(Set(results.compactMap { $0["token"] as? String }) == [sampleToken, otherToken])
        #expect((doc["summary"] as? [String: Any])?["accepted"] as? Int == 2)
        // Both went over one connection, multiplexed.
        let connections = Set(try mock.requests(count: 2).compactMap { $0["connection"] as? Int })
        #expect(connections.count == 1)
    }

    @Test("--dry-run prints the request and a curl command, redacts the JWT, sends nothing")
    func dryRun() throws {
        let mock = try MockProcess(dir: dir)
        let result = try mock.send(["--device-token", sampleToken, "--title", "x", "--dry-run"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("POST \(mock.url)/3/device/\(sampleToken)"))
        #expect(result.stdout.contains("apns-push-type: alert"))
        #expect(result.stdout.contains("curl --http2 --request POST"))
        #expect(result.stdout.contains("--header 'content-type:'"))
        #expect(!result.stdout.contains("eyJ"), "the JWT must be redacted")
        #expect(try mock.requestsSoFar().isEmpty)
    }

    @Test("--verbose shows libcurl's trace with the JWT redacted; --show-secrets shows it")
    func verbose() throws {
        let mock = try MockProcess(dir: dir)
        let result = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("> POST /3/device/\(sampleToken) HTTP/2"))
        #expect(result.stderr.contains("< HTTP/2 200"))
        #expect(result.stderr.contains("authorization: bearer [JWT redacted"))
        #expect(!result.stderr.contains("eyJ"), "the JWT must never appear in verbose output")
        let secrets = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"])
        #expect(secrets.stderr.contains("authorization: bearer eyJ"))
    }

    @Test("environment variables configure everything; PUSHCTL_JWT replaces signing")
    func environment() throws {
        let mock = try MockProcess(dir: dir)
        let env = [
            "PUSHCTL_ENDPOINT": mock.url, "PUSHCTL_CACERT": mock.caFile, "PUSHCTL_KEY_FILE": mock.keyFile,
            "PUSHCTL_TEAM_ID": "DEF123GHIJ", "PUSHCTL_TOPIC": "com.example.env",
        ]
        let result = try CLI.pushctl(["send", "--device-token", sampleToken, "--body", "x"], env: env)
        #expect(result.status == 0, "\(result.stderr)")
        let jwt = try CLI.pushctl(["jwt", "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ"]).stdout
        let withJWT = try CLI.pushctl(
            [
                "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--topic", "a.b",
                "--device-token", sampleToken, "--body", "x",
            ],
            env: ["PUSHCTL_JWT": jwt.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(withJWT.status == 0, "\(withJWT.stderr)")
        let requests = try mock.requests(count: 2)
        #expect(headers(requests[0])["apns-topic"] == "com.example.env")
        #expect(headers(requests[1])["apns-topic"] == "a.b")
    }

    @Test("a missing key or payload file: 66, nothing sent")
    func missingFiles() throws {
        let mock = try MockProcess(dir: dir)
        let payload = try mock.send(["--device-token", sampleToken, "--payload", dir.path("nope.json")])
        #expect(payload.status == 66)
        #expect(payload.stderr.contains("cannot read payload file"))
        let key = try CLI.pushctl([
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", dir.path("AuthKey_NOPE123456.p8"),
            "--team-id", "DEF123GHIJ", "--topic", "a.b", "--device-token", sampleToken, "--title", "x",
        ])
        #expect(key.status == 66)
        #expect(try mock.requestsSoFar().isEmpty)
    }

    @Test("an unreachable server: 69, each token still gets a result")
    func unreachable() throws {
        let key = try dir.generateKey()
        let result = try CLI.pushctl([
            "send", "--endpoint", "https://127.0.0.1:1", "--key-file", key, "--team-id", "DEF123GHIJ",
            "--topic", "a.b", "--device-token", sampleToken, "--device-token", otherToken, "--title", "x",
            "--output", "jsonl",
        ])
        #expect(result.status == 69)
        #expect(result.stdoutLines.count == 3)
        #expect(result.stdout.contains("could not reach APNs"))
    }
}
