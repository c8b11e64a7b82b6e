import ChildProcess
import Foundation
import PushCore
import PushMock
import PushWords
import Testing

@Suite("Streams, faults and the log")
struct FaultAndStreamTests {
    // MARK: - The stream limit

    @Test func startsAtOneStreamAndRaisesTheLimitAfterAValidToken() async throws {
        try await withHarness(configure: { $0.maxConcurrentStreams = 77 }) { harness in
            let frames = try harness.nghttp(requests: 3)
            let settings = frames.components(separatedBy: "recv SETTINGS frame").dropFirst()
            let first = try #require(settings.first)
            #expect(first.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"), "\(first)")
            #expect(frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):77]"), "\(frames)")
            #expect(frames.components(separatedBy: ":status: 200").count - 1 == 3)
        }
    }

    @Test func aBenchmarkMayStartAboveOneStream() async throws {
        try await withHarness(configure: {
            $0.maxConcurrentStreams = 77
            $0.initialConcurrentStreams = 50
        }) { harness in
            let frames = try harness.nghttp(requests: 1)
            let first = try #require(frames.components(separatedBy: "recv SETTINGS frame").dropFirst().first)
            #expect(first.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):50]"), "\(first)")
            #expect(frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):77]"), "\(frames)")
        }
    }

    @Test func keepsOneStreamWhileTokensAreRefused() async throws {
        try await withHarness(configure: { $0.maxConcurrentStreams = 77 }) { harness in
            let frames = try harness.nghttp(requests: 2, headers: harness.standardHeaders.setting("authorization", "bearer a.b.c"))
            #expect(frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
            #expect(!frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):77]"))
            #expect(frames.contains(":status: 403"))
        }
    }

    @Test func answersAThousandRequestsMultiplexedByCurl() async throws {
        try await withHarness { harness in
            let config = harness.folder.appendingPathComponent("curl.conf").path
            let body = harness.folder.appendingPathComponent("payload.json").path
            try #"{"aps":{"alert":"Hello"}}"#.write(toFile: body, atomically: true, encoding: .utf8)
            var lines = [
                "http2", "cacert = \"\(harness.caPath)\"", "data-binary = \"@\(body)\"",
                #"write-out = "%{http_code}\n""#,
            ]
            for (name, value) in harness.standardHeaders { lines.append("header = \"\(name): \(value)\"") }
            for _ in 0..<1000 {
                lines.append("url = \"\(harness.server.url)/3/device/\(sampleToken)\"")
                lines.append("output = /dev/null")
            }
            try lines.joined(separator: "\n").write(toFile: config, atomically: true, encoding: .utf8)

            let result = try runTool(Tool.path("curl"), ["-s", "-Z", "--parallel-max", "100", "-K", config])
            let statuses = result.text.split(separator: "\n")
            #expect(statuses.count == 1000)
            #expect(statuses.allSatisfy { $0 == "200" }, "\(Set(statuses))")

            let records = harness.server.records
            #expect(records.count == 1000)
            // curl opens extra connections while each is limited to one stream; once the limit
            // is raised, a few connections carry nearly everything.
            let perConnection = Dictionary(grouping: records, by: \.connectionID).mapValues(\.count)
            #expect(perConnection.values.max()! >= 100, "\(perConnection)")
        }
    }

    @Test("h2load: every request answered 200, 100 in flight on each connection", arguments: [(1000, 1), (2000, 4)])
    func answersH2load(requests: Int, connections: Int) async throws {
        try await withHarness { harness in
            let body = harness.folder.appendingPathComponent("payload.json").path
            try #"{"aps":{"alert":"Hello"}}"#.write(toFile: body, atomically: true, encoding: .utf8)
            var arguments = ["-n", String(requests), "-c", String(connections), "-m", "100", "-d", body]
            for (name, value) in harness.standardHeaders { arguments += ["-H", "\(name): \(value)"] }
            arguments.append("\(harness.server.url)/3/device/\(sampleToken)")
            let report = try runTool(Tool.path("h2load"), arguments).text
            #expect(report.contains("\(requests) succeeded"), "\(report)")
            #expect(report.contains("status codes: \(requests) 2xx"), "\(report)")

            let records = harness.server.records
            #expect(Set(records.map(\.connectionID)).count == connections)
            #expect(records.count == requests && records.allSatisfy { $0.status == 200 })
            #expect(records.map(\.streamID).max() == 2 * requests / connections - 1)
        }
    }

    // MARK: - Faults

    @Test func failsTheFirstAttemptsThenSucceeds() async throws {
        let token = try DeviceToken(parsing: sampleToken)
        try await withHarness(configure: {
            $0.faults.failFirstAttempts = [token: .init(attempts: 2, reason: .serviceUnavailable)]
        }) { harness in
            let answers = try (0..<3).map { _ in try harness.send() }
            #expect(answers.map(\.status) == [503, 503, 200])
            #expect(answers[0].reason == "ServiceUnavailable")
        }
    }

    @Test func faultsChangeWhileRunning() async throws {
        try await withHarness { harness in
            #expect(try harness.send().status == 200)
            harness.server.faults.failTokens = [try DeviceToken(parsing: sampleToken): .tooManyRequests]
            let limited = try harness.send()
            #expect(limited.status == 429 && limited.reason == "TooManyRequests")
            harness.server.faults = MockFaults()
            #expect(try harness.send().status == 200)
        }
    }

    @Test func refusesStreamsWithRefusedStream() async throws {
        try await withHarness(configure: { $0.faults.refuseEveryNthStream = 2 }) { harness in
            let frames = try harness.nghttp(requests: 4)
            #expect(frames.components(separatedBy: "error_code=REFUSED_STREAM(0x07)").count - 1 == 2, "\(frames)")
            #expect(frames.components(separatedBy: ":status: 200").count - 1 == 2)
            let faults = harness.server.records.map(\.fault)
            #expect(faults.filter { $0 == "REFUSED_STREAM" }.count == 2)
        }
    }

    @Test func curlRetriesARefusedStream() async throws {
        try await withHarness(configure: { $0.faults.refuseFirstStreams = 1 }) { harness in
            let response = try harness.send()
            #expect(response.status == 200, "\(response.stderr)")
            #expect(harness.server.records.map(\.status) == [0, 200])
        }
    }

    @Test func sendsGoAwayWithAReasonAfterNRequests() async throws {
        try await withHarness(configure: { $0.faults.goAwayAfterRequests = 2 }) { harness in
            let frames = try harness.nghttp(requests: 4)
            #expect(frames.contains("recv GOAWAY frame"), "\(frames)")
            #expect(frames.contains(#"{"reason":"Shutdown"}"#), "\(frames)")
            #expect(frames.components(separatedBy: ":status: 200").count - 1 == 2)

            // curl moves to a new connection after the GOAWAY and gets every answer.
            harness.server.clearRecords()
            let url = harness.server.url + "/3/device/\(sampleToken)"
            let response = try harness.send(extraArguments: [url, url])
            #expect(response.curlStatus == 0, "\(response.stderr)")
            let records = harness.server.records
            #expect(records.map(\.status) == [200, 200, 200])
            #expect(records[0].connectionID == records[1].connectionID)
            #expect(records[2].connectionID != records[1].connectionID)
        }
    }

    @Test func dropsTheConnectionAfterNRequests() async throws {
        try await withHarness(configure: { $0.faults.closeAfterRequests = 1 }) { harness in
            let url = harness.server.url + "/3/device/\(sampleToken)"
            // Two requests on one connection: the first is answered, the second is cut off.
            let response = try harness.send(extraArguments: [url])
            #expect(response.curlStatus != 0, "curl sees the connection die")
            let records = harness.server.records
            #expect(records.map(\.status) == [200, 0])
            #expect(records.last?.fault == "connection closed")
            #expect(records.first?.connectionID == records.last?.connectionID)
        }
    }

    @Test func delaysAnswers() async throws {
        try await withHarness(configure: { $0.faults.responseDelayMilliseconds = 400 }) { harness in
            let start = Date()
            let response = try harness.send()
            #expect(response.status == 200)
            #expect(Date().timeIntervalSince(start) >= 0.4)
        }
    }

    // MARK: - The log

    @Test func logsOneJSONLinePerRequestWithoutTheSignature() async throws {
        let folder = try makeTemporaryDirectory()
        let logPath = folder.appendingPathComponent("mock.jsonl").path
        var signature = ""
        try await withHarness(configure: { $0.logPath = logPath }) { harness in
            signature = String(harness.token.split(separator: ".")[2])
            #expect(try harness.send().status == 200)
            #expect(try harness.send(headers: harness.standardHeaders.setting("apns-priority", "2")).status == 400)
            let record = try #require(harness.server.records.first)
            #expect(record.header("authorization")?.hasPrefix(#"bearer {"alg":"ES256","kid":""#) == true)
        }
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(!text.contains(signature), "the log must never hold a signature")
        let first = try JSONValue.parse(String(lines[0]))
        #expect(first["method"] == .string("POST"))
        #expect(first["path"] == .string("/3/device/\(sampleToken)"))
        #expect(first["status"] == .integer(200))
        #expect(first["stream"] == .integer(1))
        #expect(first["connection"]?.integerValue != nil)
        #expect(first["body"] == .string(#"{"aps":{"alert":"Hello"}}"#))
        #expect(first["time"]?.stringValue?.hasSuffix("Z") == true)
        let authorization = try #require(first["headers"]?["authorization"]?.stringValue)
        #expect(authorization.contains(#""iss":"\#(sampleTeam)""#))
        let second = try JSONValue.parse(String(lines[1]))
        #expect(second["reason"] == .string("BadPriority"))
        #expect(second["headers"]?["apns-priority"] == .string("2"))
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Robustness

    @Test func survivesOversizedHeadersAndGarbage() async throws {
        try await withHarness { harness in
            let huge = harness.standardHeaders + [("x-filler", String(repeating: "h", count: 40_000))]
            let oversized = try harness.send(headers: huge)
            #expect(oversized.status != 200)

            // Not HTTP/2 at all, though TLS agreed on h2.
            let garbage = Data("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8 + (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let port = String(harness.server.port)
            _ = try runTool(Tool.path("openssl"), ["s_client", "-connect", "127.0.0.1:\(port)", "-alpn", "h2", "-quiet"], stdin: garbage)

            #expect(try harness.send().status == 200, "the mock still answers")
        }
    }
}
