import Foundation
import PushCore
import PushMock
import PushWords
import Testing

/// The hostile faults: answers no APNs sends but proxies, load balancers and broken servers do.
/// Each is checked against the real server with curl or nghttp, and in the record it leaves.
@Suite("Hostile faults")
struct HostileFaultTests {
    // MARK: - Replaced answers

    @Test func aProxysAnswerReplacesTheFirstNAnswers() async throws {
        try await withHarness(configure: {
            $0.faults.answer = .init(status: 503, body: Array("<html>busy</html>".utf8))
            $0.faults.answerCount = 1
        }) { harness in
            let first = try harness.send()
            #expect(first.status == 503)
            #expect(first.body == "<html>busy</html>")
            #expect(first.headers["apns-id"] == nil, "a proxy's answer has no apns-id")
            #expect(first.headers["content-type"] == nil)
            #expect(first.headers["content-length"] == "17")
            let second = try harness.send()
            #expect(second.status == 200)
            #expect(isUUID(second.headers["apns-id"]))

            let records = harness.server.records
            #expect(records.map(\.status) == [503, 200])
            #expect(records[0].fault == "answer replaced by 503")
            #expect(records[0].reason == nil && records[0].apnsID == nil)
            #expect(records[1].fault == nil)
        }
    }

    @Test func everyAnswerIsReplacedWithoutACount() async throws {
        try await withHarness(configure: { $0.faults.answer = .init(status: 500) }) { harness in
            let answers = try (0..<3).map { _ in try harness.send() }
            #expect(answers.map(\.status) == [500, 500, 500])
            #expect(answers.allSatisfy { $0.body.isEmpty })
        }
    }

    @Test func aGarbageTimestampIsSentVerbatim() async throws {
        let body = #"{"reason":"Unregistered","timestamp":1e300}"#
        try await withHarness(configure: { $0.faults.answer = .init(status: 410, body: Array(body.utf8)) }) { harness in
            let answer = try harness.send()
            #expect(answer.status == 410)
            #expect(answer.body == body)
            #expect(harness.server.records.first?.reason == "Unregistered", "the log reads the reason from the body")
        }
    }

    @Test func aRequestThatFailsTheChecksKeepsItsAnswer() async throws {
        try await withHarness(configure: {
            $0.faults.answer = .init(status: 503)
            $0.faults.answerCount = 1
        }) { harness in
            let refused = try harness.send(headers: harness.standardHeaders.setting("apns-priority", "2"))
            #expect(refused.status == 400 && refused.reason == "BadPriority")
            #expect(try harness.send().status == 503, "the count is of requests that pass the checks")
            #expect(try harness.send().status == 200)
        }
    }

    @Test func theReplacementWinsOverAFailToken() async throws {
        let token = try DeviceToken(parsing: sampleToken)
        try await withHarness(configure: {
            $0.faults.failTokens = [token: .unregistered]
            $0.faults.answer = .init(status: 502, body: Array("bad gateway".utf8))
            $0.faults.answerCount = 1
        }) { harness in
            #expect(try harness.send().status == 502)
            let next = try harness.send()
            #expect(next.status == 410 && next.reason == "Unregistered")
        }
    }

    @Test func anInformationalStatusGoesBeforeTheNormalAnswer() async throws {
        try await withHarness(configure: { $0.faults.answer = .init(status: 103) }) { harness in
            let frames = try harness.nghttp(requests: 1)
            let informational = try #require(frames.range(of: ":status: 103"), "\(frames)")
            let final = try #require(frames.range(of: ":status: 200"), "\(frames)")
            #expect(informational.lowerBound < final.lowerBound)
            #expect(harness.server.records.first?.fault == "103 sent first")
            #expect(try harness.send().status == 200, "curl reads past the 1xx")
        }
    }

    // MARK: - retry-after and padding

    @Test func retryAfterGoesOnEveryAnswerButA200() async throws {
        let token = try DeviceToken(parsing: sampleToken)
        try await withHarness(configure: { $0.faults.retryAfter = "999999" }) { harness in
            let accepted = try harness.send()
            #expect(accepted.status == 200)
            #expect(accepted.headers["retry-after"] == nil)
            harness.server.faults.failTokens = [token: .tooManyRequests]
            let limited = try harness.send()
            #expect(limited.status == 429 && limited.reason == "TooManyRequests")
            #expect(limited.headers["retry-after"] == "999999")
            #expect(harness.server.records.last?.fault == "retry-after: 999999")

            harness.server.faults = MockFaults(answer: .init(status: 503), retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(try harness.send().headers["retry-after"] == "Wed, 21 Oct 2015 07:28:00 GMT")
        }
    }

    @Test func paddingMakesA200BodyOver64KiB() async throws {
        try await withHarness(configure: { $0.faults.padBodyBytes = 70_000 }) { harness in
            let accepted = try harness.send()
            #expect(accepted.status == 200)
            #expect(accepted.headers["content-length"] == "70000")
            #expect(accepted.body.utf8.count == 70_000)
            #expect(accepted.body.utf8.allSatisfy { $0 == UInt8(ascii: " ") })
            #expect(isUUID(accepted.headers["apns-id"]))

            let refused = try harness.send(headers: harness.standardHeaders.setting("apns-priority", "2"))
            #expect(refused.status == 400)
            #expect(refused.reason == "BadPriority", "spaces keep a JSON body JSON")
            #expect(refused.body.utf8.count == #"{"reason":"BadPriority"}"#.utf8.count + 70_000)
            #expect(harness.server.records.map(\.fault) == ["body padded with 70000 bytes", "body padded with 70000 bytes"])
        }
    }

    @Test func aHugePaddedBodyArrivesWhole() async throws {
        try await withHarness(configure: { $0.faults.padBodyBytes = 4 << 20 }) { harness in
            let answer = try harness.send()
            #expect(answer.status == 200)
            #expect(answer.body.utf8.count == 4 << 20)
        }
    }

    // MARK: - Silence, resets, GOAWAY errors, no streams

    @Test func aSilentServerReadsButNeverAnswers() async throws {
        try await withHarness(configure: { $0.faults.silent = true }) { harness in
            let start = Date()
            let response = try harness.send(extraArguments: ["--max-time", "2"])
            #expect(response.curlStatus == 28, "curl timed out: \(response.stderr)")
            #expect(Date().timeIntervalSince(start) >= 1.9)
            let records = harness.server.records
            #expect(records.count == 1)
            #expect(records.first?.status == 0)
            #expect(records.first?.fault == "silent: never answered")
            #expect(records.first?.body == #"{"aps":{"alert":"Hello"}}"#, "the request was read")

            // SETTINGS still come, and a valid token still raises the limit; no HEADERS ever do.
            let frames = try harness.nghttp(requests: 2, timeout: 2)
            #expect(frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"), "\(frames)")
            #expect(!frames.contains(":status:"), "\(frames)")
            #expect(!frames.contains("recv GOAWAY"), "never closed: \(frames)")
        }
    }

    @Test func resetsEveryStreamWithInternalError() async throws {
        try await withHarness(configure: { $0.faults.resetStreams = true }) { harness in
            let frames = try harness.nghttp(requests: 3)
            #expect(frames.components(separatedBy: "error_code=INTERNAL_ERROR(0x02)").count - 1 == 3, "\(frames)")
            #expect(!frames.contains(":status:"))
            let records = harness.server.records
            #expect(records.count == 3)
            #expect(records.allSatisfy { $0.status == 0 && $0.fault == "RST_STREAM(INTERNAL_ERROR)" })
            #expect(try harness.send().curlStatus != 0)
        }
    }

    @Test func goAwayCarriesTheErrorCode() async throws {
        try await withHarness(configure: {
            $0.faults.goAwayAfterRequests = 1
            $0.faults.goAwayErrorCode = 1
        }) { harness in
            let frames = try harness.nghttp(requests: 2)
            #expect(frames.contains("last_stream_id=13, error_code=PROTOCOL_ERROR(0x01)"), "\(frames)")
            #expect(frames.contains(#"{"reason":"Shutdown"}"#))
            #expect(harness.server.records.first?.fault == "GOAWAY (PROTOCOL_ERROR (0x1)) after this answer")
        }
    }

    @Test func goAwayWithoutAnErrorIsAsBefore() async throws {
        try await withHarness(configure: { $0.faults.goAwayAfterRequests = 1 }) { harness in
            // Two requests: with one, nghttp may leave before it reads the GOAWAY.
            let frames = try harness.nghttp(requests: 2)
            #expect(frames.contains("error_code=NO_ERROR(0x00), opaque_data(21)=[{\"reason\":\"Shutdown\"}]"), "\(frames)")
            #expect(harness.server.records.first?.fault == "GOAWAY after this answer")
        }
    }

    @Test(arguments: [(0, 0), (0, 1000)])
    func aServerThatAllowsNoStreams(initial: Int, maximum: Int) async throws {
        try await withHarness(configure: {
            $0.initialConcurrentStreams = initial
            $0.maxConcurrentStreams = maximum
        }) { harness in
            let frames = try harness.nghttp(requests: 2, timeout: 2)
            #expect(frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):0]"), "\(frames)")
            #expect(!frames.contains(":status:"), "\(frames)")
            #expect(!frames.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"), "never raised: \(frames)")
            // curl sends at once, before it has read SETTINGS: refused, never answered.
            let response = try harness.send(extraArguments: ["--max-time", "3"])
            #expect(response.status != 200, "\(response.stderr)")
            #expect(harness.server.records.allSatisfy { $0.status == 0 && $0.fault == "REFUSED_STREAM (SETTINGS allow 0 streams)" })
        }
    }

    // MARK: - Numbers from the client

    @Test(arguments: [Int64.min, Int64.min + 1, Int64.max, -1])
    func anIssueTimeAtTheEdgesOfInt64IsExpiredNotATrap(issuedAt: Int64) async throws {
        try await withHarness { harness in
            let token = try harness.key.rawToken(team: sampleTeam, issuedAt: issuedAt)
            let answer = try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer \(token)"))
            #expect(answer.status == 403)
            #expect(answer.reason == "ExpiredProviderToken")
            #expect(try harness.send().status == 200, "the mock still answers")
        }
    }

    // MARK: - Configuration

    @Test func refusesFaultsNoServerCanHonour() async throws {
        func start(_ faults: MockFaults) async -> InputError? {
            do {
                let server = try await MockAPNsServer.start(MockAPNsConfiguration(faults: faults))
                try await server.shutdown()
                return nil
            } catch {
                return error as? InputError
            }
        }
        for faults in [
            MockFaults(answer: .init(status: 99)), MockFaults(answer: .init(status: 600)),
            MockFaults(answerCount: -1), MockFaults(retryAfter: "1\r\nx-injected: 1"),
            MockFaults(padBodyBytes: MockFaults.padBodyLimit + 1), MockFaults(padBodyBytes: -1),
            MockFaults(responseDelayMilliseconds: Int.max),
        ] {
            let error = await start(faults)
            #expect(error?.kind == .usage, "\(faults)")
        }
        #expect(await start(MockFaults(answer: .init(status: 100), padBodyBytes: MockFaults.padBodyLimit)) == nil)
    }

    @Test func zeroStreamLimitsAreAllowedButStillBounded() async throws {
        let zero = try await MockAPNsServer.start(MockAPNsConfiguration(maxConcurrentStreams: 0, initialConcurrentStreams: 0))
        try await zero.shutdown()
        await #expect(throws: InputError.self) {
            try await MockAPNsServer.start(MockAPNsConfiguration(maxConcurrentStreams: 0, initialConcurrentStreams: 1))
        }
        await #expect(throws: InputError.self) {
            try await MockAPNsServer.start(MockAPNsConfiguration(maxConcurrentStreams: Int(Int32.max) + 1))
        }
    }

    @Test func namesHTTP2ErrorCodes() {
        #expect(MockFaults.parseHTTP2ErrorCode("PROTOCOL_ERROR") == 1)
        #expect(MockFaults.parseHTTP2ErrorCode("enhance_your_calm") == 0xb)
        #expect(MockFaults.parseHTTP2ErrorCode("2") == 2)
        #expect(MockFaults.parseHTTP2ErrorCode("0xd") == 0xd)
        #expect(MockFaults.parseHTTP2ErrorCode("4294967295") == UInt32.max)
        #expect(MockFaults.parseHTTP2ErrorCode("4294967296") == nil)
        #expect(MockFaults.parseHTTP2ErrorCode("-1") == nil)
        #expect(MockFaults.parseHTTP2ErrorCode("SAD") == nil)
        #expect(MockFaults.describeHTTP2ErrorCode(2) == "INTERNAL_ERROR (0x2)")
        #expect(MockFaults.describeHTTP2ErrorCode(0x1234) == "0x1234")
    }
}
