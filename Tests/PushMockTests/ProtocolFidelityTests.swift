import Crypto
import Foundation
import PushCore
import PushMock
import Testing

/// HTTP/2 as APNs speaks it, checked with raw frames for what a client notices: which streams are
/// answered, reset (and with which code), and what a GOAWAY says. Most in process (``EmbeddedMock``);
/// those that need curl, a socket or the wall clock through TLS (``RawHTTP2Client``).
@Suite("Protocol fidelity")
struct ProtocolFidelityTests {
    /// Connects, waits for the mock's SETTINGS and acknowledges them (so the stream limit binds).
    func connect(_ harness: Harness) async throws -> (RawHTTP2Client, FrameWriter) {
        let client = try await RawHTTP2Client.connect(to: harness)
        let writer = FrameWriter()
        try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.settings && !$0.isAck } }
        return (client, writer)
    }

    /// A connection on which stream 1 has been answered (the token taken, the stream limit raised).
    func connectWithOneAnswer(_ harness: Harness) async throws -> (RawHTTP2Client, FrameWriter) {
        let (client, writer) = try await connect(harness)
        var w = writer
        w.request(stream: 1, headers: harness.standardHeaders)
        try await client.send(&w)
        try await client.wait { frames, _ in answers(frames)[1] != nil }
        return (client, w)
    }

    /// The same, in process.
    func connect(_ mock: EmbeddedMock) async throws -> (EmbeddedMock, FrameWriter) { (mock, FrameWriter()) }

    func connectWithOneAnswer(_ mock: EmbeddedMock) async throws -> (EmbeddedMock, FrameWriter) {
        var w = FrameWriter()
        w.request(stream: 1, headers: mock.standardHeaders)
        try await mock.send(&w)
        return (mock, w)
    }

    func answers(_ frames: [WireFrame]) -> [UInt32: String] {
        var result: [UInt32: String] = [:]
        for frame in frames where frame.type == WireFrame.headers { result[frame.streamID] = frame.status }
        return result
    }

    func resets(_ frames: [WireFrame]) -> [UInt32: UInt32] {
        var result: [UInt32: UInt32] = [:]
        for frame in frames where frame.type == WireFrame.rstStream { result[frame.streamID] = frame.errorCode }
        return result
    }

    static let request = [(":method", "POST"), (":scheme", "https"), (":path", "/3/device/\(sampleToken)"), (":authority", "localhost")]

    // MARK: 1. A malformed request is a stream error

    static let malformed: [(String, [(String, String)], String?)] = [
        ("no :path", request.filter { $0.0 != ":path" }, nil),
        ("an unknown pseudo-header", request + [(":protocol2", "x")], nil),
        ("an upper-case header name", request + [("X-Upper", "1")], nil),
        ("connection:", request + [("connection", "keep-alive")], nil),
        ("te: gzip", request + [("te", "gzip")], nil),
        ("a content-length that does not match", request + [("content-length", "5")], #"{"aps":{"alert":"too long for 5"}}"#),
        ("a duplicate :method", request + [(":method", "POST")], nil),
        ("an empty :path", request.map { $0.0 == ":path" ? (":path", "") : $0 }, nil),
    ]

    @Test(arguments: 0..<malformed.count)
    func aMalformedRequestResetsItsStreamOnly(_ index: Int) async throws {
        let (name, fields, body) = Self.malformed[index]
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // A valid request takes the token and raises the limit; stream 3 is then in flight
            // while the malformed stream 5 arrives.
            w.request(stream: 1, headers: harness.standardHeaders)
            try await client.send(&w)
            try await client.wait { frames, _ in answers(frames)[1] != nil }
            w.headers(stream: 3, Self.request + harness.standardHeaders, endStream: false)
            w.headers(stream: 5, fields + harness.standardHeaders, endStream: body == nil)
            if let body { w.data(stream: 5, Array(body.utf8), endStream: true) }
            w.data(stream: 3, Array(#"{"aps":{"alert":"Hi"}}"#.utf8), endStream: true)
            w.request(stream: 7, headers: harness.standardHeaders)
            try await client.send(&w)
            let frames = try await client.wait { frames, _ in answers(frames)[7] != nil && resets(frames)[5] != nil }
            #expect(resets(frames)[5] == 0x1, "\(name): RST_STREAM(PROTOCOL_ERROR) for the malformed stream; \(frames) \(harness.records.map(\.json))")
            #expect(answers(frames)[3] == "200", "\(name): the stream in flight is answered")
            #expect(answers(frames)[7] == "200", "\(name): a later stream is answered")
            #expect(!frames.contains { $0.type == WireFrame.goAway }, "\(name): no GOAWAY")
            #expect(!client.isClosed)
            #expect(harness.records.contains { $0.fault?.hasPrefix("RST_STREAM(PROTOCOL_ERROR): malformed request") == true })
        }
    }

    // MARK: 2. Streams over the limit are refused; GOAWAY names the last stream and a reason

    @Test func streamsOverTheAcknowledgedLimitAreRefusedOneByOne() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // The mock allows one stream until a valid token: three at once, then their bodies.
            for stream: UInt32 in [1, 3, 5] { w.headers(stream: stream, Self.request + harness.standardHeaders, endStream: false) }
            try await client.send(&w)
            try await client.wait { frames, _ in resets(frames).count == 2 }
            w.data(stream: 1, Array(#"{"aps":{"alert":"Hi"}}"#.utf8), endStream: true)
            try await client.send(&w)
            let frames = try await client.wait { frames, _ in answers(frames)[1] != nil }
            #expect(resets(frames) == [3: 0x7, 5: 0x7], "REFUSED_STREAM for the excess: \(frames)")
            #expect(answers(frames)[1] == "200")
            #expect(!frames.contains { $0.type == WireFrame.goAway })
            // The SETTINGS that raise the limit follow the valid token.
            #expect(frames.contains { $0.settings[0x3] == 1000 })
            #expect(frames.first { $0.type == WireFrame.settings }?.settings == [0x1: 4096, 0x3: 1, 0x4: 65535, 0x5: 16384, 0x6: 8000])
            #expect(harness.records.filter { $0.fault == "REFUSED_STREAM (SETTINGS allow 1 stream)" }.count == 2)
        }
    }

    /// A client that opens 100 streams at once on a connection that allows one: the 99 refused
    /// streams' bodies still arrive after their RST_STREAM, and are ignored while NIOHTTP2 remembers
    /// the streams it reset (128 here; with its default, 32, the later bodies would be DATA on
    /// closed streams and end the connection). The memory stays bounded: a burst past 128 is not.
    @Test func aBurstOfStreamsOverTheLimitIsRefusedAndTheirBodiesIgnored() async throws {
        try await withEmbeddedMock { harness in
            var w = FrameWriter()
            let streams = (0..<100).map { UInt32(1 + 2 * $0) }
            for stream in streams { w.headers(stream: stream, Self.request + harness.standardHeaders, endStream: false) }
            for stream in streams { w.data(stream: stream, Array(#"{"aps":{"alert":"Hi"}}"#.utf8), endStream: true) }
            let frames = try await harness.sendThenSettle(&w)
            #expect(!frames.contains { $0.type == WireFrame.goAway }, "\(frames.suffix(3))")
            #expect(resets(frames).count == 99 && resets(frames).values.allSatisfy { $0 == 0x7 })
            #expect(answers(frames) == [1: "200"])
        }
    }

    @Test func aGoAwayNamesTheLastStreamAnsweredAndAReason() async throws {
        try await withEmbeddedMock(configure: { $0.faults.goAwayAfterRequests = 2 }) { harness in
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            for stream: UInt32 in [3, 5, 7] { w.request(stream: stream, headers: harness.standardHeaders) }
            try await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            let goAway = try #require(frames.first { $0.type == WireFrame.goAway })
            #expect(goAway.lastStreamID == 3)
            #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
            #expect(answers(frames) == [1: "200", 3: "200"], "the streams after the last one named are not processed")
        }
    }

    @Test func streamsInFlightAtAGoAwayEndQuietly() async throws {
        try await withEmbeddedMock(configure: {
            $0.faults.goAwayAfterRequests = 2
            $0.recordLimit = 0
        }) { harness in
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            // 300 streams open (as pushctl keeps hundreds in flight), then 3 ends: the GOAWAY after
            // 3 names 3 and drops the others. Their bodies still arrive, and must be ignored, not
            // taken as DATA on closed streams (a connection error that would close the connection at
            // once, losing answers written before the GOAWAY but not yet sent). None is answered.
            let streams = (0..<300).map { UInt32(3 + 2 * $0) }
            for stream in streams { w.headers(stream: stream, Self.request + harness.standardHeaders, endStream: false) }
            for stream in streams { w.data(stream: stream, Array(#"{"aps":{"alert":"Hi"}}"#.utf8), endStream: true) }
            try? await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            let goAways = frames.filter { $0.type == WireFrame.goAway }
            #expect(goAways.count == 1 && goAways.first?.lastStreamID == 3, "\(goAways)")
            #expect(goAways.first?.errorCode == 0 && goAways.first?.debugData == #"{"reason":"Shutdown"}"#)
            #expect(answers(frames) == [1: "200", 3: "200"])
        }
    }

    @Test func nothingIsAnsweredAfterAGoAway() async throws {
        try await withEmbeddedMock(configure: { $0.faults.goAwayAfterRequests = 2 }) { harness in
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            // 3 and 5 open; 5 ends first and is the second request: GOAWAY after it. 3 ends after
            // the GOAWAY: the connection closes once the GOAWAY is out, so an answer written after
            // it would be lost while the log said 200, and the client, told nothing, would send 3
            // again: answered twice. So nothing is answered after a GOAWAY (3 was not processed).
            for stream: UInt32 in [3, 5] { w.headers(stream: stream, Self.request + harness.standardHeaders, endStream: false) }
            for stream: UInt32 in [5, 3] { w.data(stream: stream, Array(#"{"aps":{"alert":"Hi"}}"#.utf8), endStream: true) }
            try? await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            #expect(frames.first { $0.type == WireFrame.goAway }?.lastStreamID == 5, "\(frames)")
            #expect(answers(frames)[3] == nil, "\(frames)")
            #expect(harness.records.map(\.streamID) == [1, 5], "\(harness.records.map(\.json))")
        }
    }

    @Test func aConnectionErrorGoAwayNamesTheLastStreamAndAReason() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            // WINDOW_UPDATE of 0 on the connection: a connection error (RFC 9113 §6.9).
            w.frame(type: WireFrame.windowUpdate, stream: 0, payload: [0, 0, 0, 0])
            try await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            let goAway = try #require(frames.first { $0.type == WireFrame.goAway }, "\(frames)")
            #expect(goAway.errorCode == 0x1)
            #expect(goAway.lastStreamID == 1, "not 2^31-1: stream 1 is the last processed")
            #expect(goAway.debugData == #"{"reason":"ProtocolError"}"#)
        }
    }

    // MARK: 3. Control frames: normal clients never cut off, floods are

    /// Clients that send a PING or a PRIORITY frame with every request: NIOHTTP2's own guard (200
    /// control frames in 30 s) would end the connection after about 200 requests; the mock's
    /// allowance grows with the requests (``MockProtocolLimits/controlFrameAllowance``).
    @Test func aThousandRequestsEachWithPriorityAndPingKeepTheConnection() async throws {
        try await withEmbeddedMock(configure: { $0.recordLimit = 0 }) { harness in
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            var stream: UInt32 = 3
            for batch in 0..<9 {
                for _ in 0..<(batch < 8 ? 111 : 111) {
                    w.priority(stream: stream)
                    w.ping(UInt64(stream))
                    w.request(stream: stream, headers: harness.standardHeaders)
                    stream += 2
                }
                try await client.send(&w)
                let last = stream - 2
                try await client.wait(seconds: 20) { frames, closed in closed || answers(frames)[last] != nil }
            }
            let frames = client.frames
            let statuses = answers(frames)
            #expect(statuses.count == 1000 && statuses.values.allSatisfy { $0 == "200" }, "\(statuses.count) answered")
            #expect(frames.filter { $0.type == WireFrame.ping && $0.isAck }.count == 999)
            #expect(!frames.contains { $0.type == WireFrame.goAway })
            #expect(!client.isClosed)
        }
    }

    @Test func aPingFloodIsCutOff() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            for i in 0..<10_000 { w.ping(UInt64(i)) }
            try? await client.send(&w)
            let frames = try await client.wait(seconds: 20) { _, closed in closed }
            let goAway = try #require(frames.first { $0.type == WireFrame.goAway })
            #expect(goAway.errorCode == 0xb)
            #expect(goAway.debugData == #"{"reason":"TooManyControlFrames"}"#)
            #expect(frames.filter { $0.type == WireFrame.ping }.count < 2000)
        }
    }

    // MARK: 4. A body over the window: 413, then RST_STREAM(NO_ERROR)

    @Test func aBodyOverTheWindowGets413ThenResetWithNoError() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            w.headers(stream: 1, Self.request + harness.standardHeaders, endStream: false)
            // The whole window (65,535 bytes) and no end: the client can send no more.
            for size in [16_384, 16_384, 16_384, 16_383] { w.data(stream: 1, [UInt8](repeating: 0x20, count: size), endStream: false) }
            try await client.send(&w)
            let frames = try await client.wait { frames, _ in resets(frames)[1] != nil }
            let onStream = frames.filter { $0.streamID == 1 }.map(\.type)
            #expect(onStream == [WireFrame.headers, WireFrame.data, WireFrame.rstStream], "\(frames)")
            #expect(answers(frames)[1] == "413")
            #expect(resets(frames)[1] == 0x0)
            #expect(!frames.contains { $0.type == WireFrame.goAway })
        }
    }

    // MARK: 5. Provider tokens: a fractional iat is a NumericDate; a string is refused, saying why

    func token(_ harness: Harness, iat: String) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: harness.key.path, encoding: .utf8))
        let input = Base64URL.encode(#"{"alg":"ES256","kid":"\#(harness.key.keyID)"}"#) + "." + Base64URL.encode(#"{"iss":"\#(sampleTeam)","iat":\#(iat)}"#)
        return input + "." + Base64URL.encode(Array(try key.signature(for: Data(input.utf8)).rawRepresentation))
    }

    @Test func theMockAndJWTVerifyAgreeOnIssueTimes() async throws {
        let seconds = now()
        let cases: [(iat: String, accepted: Bool)] = [
            ("\(seconds)", true), ("\(seconds).25", true), ("\(seconds - 10).999", true), ("\(Double(seconds))e0", true),
            ("\"\(seconds)\"", false), ("\"\(seconds).5\"", false), ("null", false), ("true", false), ("\(seconds - 3700).5", false),
        ]
        try await withHarness { harness in
            for (iat, accepted) in cases {
                let jwt = try token(harness, iat: iat)
                let response = try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer \(jwt)"))
                #expect((response.status == 200) == accepted, "iat \(iat): \(response.status) \(response.body)")
                let audit = ProviderTokenRules.audit(try DecodedJWT(parsing: jwt), now: now())
                #expect(!audit.contains { $0.outcome == .failure } == accepted, "jwt verify's checks for iat \(iat): \(audit)")
            }
            let refused = harness.server.records.first { $0.header("authorization")?.contains(#""iat":"\#(seconds)""#) == true }
            #expect(refused?.reason == "InvalidProviderToken")
            #expect(refused?.detail?.contains("iat is a string") == true, "\(String(describing: refused?.detail))")
            #expect(refused?.json.contains(#""detail":"iat is a string"#) == true)
        }
    }

    @Test func aRefusedTokenIsReportedOnceWithTheCheckThatFailed() async throws {
        let reports = ReportBox()
        try await withHarness(configure: { $0.onTokenRefused = { reason, detail in reports.add("\(reason.apnsName): \(detail)") } }) { harness in
            let other = try TestKey.swiftCrypto(in: harness.folder)
            let headers = harness.standardHeaders.setting("authorization", "bearer " + (try other.rawToken(team: sampleTeam)))
            for _ in 0..<3 { #expect(try harness.send(headers: headers).status == 403) }
            let old = harness.standardHeaders.setting("authorization", "bearer " + (try harness.key.rawToken(team: sampleTeam, issuedAt: now() - 3700)))
            for _ in 0..<2 { #expect(try harness.send(headers: old).status == 403) }
            #expect(reports.lines.count == 2, "\(reports.lines)")
            #expect(reports.lines.first?.hasPrefix("InvalidProviderToken: kid \(other.keyID) is not a key this mock knows") == true)
            #expect(reports.lines.last?.hasPrefix("ExpiredProviderToken: iat: issued 61 min ago") == true, "\(reports.lines)")
        }
    }

    @Test("the mock reads one injected clock: tokens' age and the date header follow it")
    func oneClock() async throws {
        let then: Int64 = 2_000_000_000
        try await withHarness(configure: { $0.clock = { Double(then) } }) { harness in
            // Signed now, the token is years old by the mock's clock; signed at its time, it is fresh.
            #expect(try harness.send().reason == "ExpiredProviderToken")
            let fresh = harness.standardHeaders.setting("authorization", "bearer " + (try harness.key.rawToken(team: sampleTeam, issuedAt: then - 60)))
            let answer = try harness.send(headers: fresh)
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.headers["date"] == HTTPDate.format(unixSeconds: then))
        }
    }

    // MARK: 6. APNs' own limits

    @Test func changingTheTokenWithinTwentyMinutesGets429() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            let first = try harness.token(issuedAt: now() - 60)
            let second = try harness.token(issuedAt: now())
            w.request(stream: 1, headers: harness.standardHeaders.setting("authorization", "bearer \(first)"))
            try await client.send(&w)
            try await client.wait { frames, _ in answers(frames)[1] != nil }
            w.request(stream: 3, headers: harness.standardHeaders.setting("authorization", "bearer \(second)"))
            w.request(stream: 5, headers: harness.standardHeaders.setting("authorization", "bearer \(first)"))
            try await client.send(&w)
            let frames = try await client.wait { frames, _ in answers(frames)[5] != nil }
            #expect(answers(frames) == [1: "200", 3: "429", 5: "200"], "the connection keeps its first token")
            let record = try #require(harness.records.first { $0.streamID == 3 })
            #expect(record.reason == "TooManyProviderTokenUpdates")
            #expect(record.detail?.contains("issued 60 s after") == true, "\(String(describing: record.detail))")
        }
        // Off: any token, any time.
        try await withEmbeddedMock(configure: { $0.limits.tokenUpdateIntervalSeconds = nil }) { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            w.request(
                stream: 1,
                headers: harness.standardHeaders.setting("authorization", "bearer " + (try harness.token(issuedAt: now() - 60))))
            w.request(stream: 3, headers: harness.standardHeaders)
            try await client.send(&w)
            let frames = try await client.wait { frames, _ in answers(frames)[3] != nil }
            #expect(answers(frames) == [1: "200", 3: "200"])
        }
    }

    @Test func manyBadDeviceTokensEndTheConnection() async throws {
        try await withEmbeddedMock(configure: { $0.limits.badDeviceTokenLimit = 3 }) { harness in
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            for stream: UInt32 in [3, 5, 7, 9] { w.request(stream: stream, headers: harness.standardHeaders, path: "/3/device/abc") }
            try await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            #expect(answers(frames) == [1: "200", 3: "400", 5: "400", 7: "400"])
            let goAway = try #require(frames.first { $0.type == WireFrame.goAway })
            #expect(goAway.lastStreamID == 7 && goAway.errorCode == 0)
            #expect(goAway.debugData == #"{"reason":"BadDeviceToken"}"#)
        }
    }

    // MARK: 7. Memory: connections are bounded

    @Test func connectionsOverTheLimitAreClosedWhenAccepted() async throws {
        try await withHarness(configure: { $0.connectionLimit = 1 }) { harness in
            let (first, _) = try await connect(harness)
            let second = try await RawHTTP2Client.connect(to: harness)
            let frames = try await second.wait { _, closed in closed }
            #expect(second.isClosed && frames.isEmpty)
            await second.close()
            await first.close()
            // Once the first has gone, a new one is served.
            var answered = false
            for _ in 0..<50 where !answered {
                answered = (try? harness.send().status) == 200
                if !answered { try await Task.sleep(nanoseconds: 50_000_000) }
            }
            #expect(answered)
        }
    }

    /// curl 7.88 (and pushctl's libcurl) resets every stream after its answer: NIOHTTP2's own guard
    /// (200 resets in 30 s) would end such a connection after 200 requests. The mock counts only
    /// resets of streams not yet answered, and a rapid-reset flood still ends in GOAWAY.
    @Test func resetsOfAnsweredStreamsAreFreeButAResetFloodIsCutOff() async throws {
        try await withEmbeddedMock(configure: { $0.recordLimit = 0 }) { harness in
            // As curl 7.88 does: RST_STREAM after every answered request.
            let (client, writer) = try await connectWithOneAnswer(harness)
            var w = writer
            var stream: UInt32 = 3
            for _ in 0..<1500 {
                w.request(stream: stream, headers: harness.standardHeaders)
                w.reset(stream: stream, code: 0x0)
                stream += 2
            }
            try await client.send(&w)
            let last = stream - 2
            let frames = try await client.wait(seconds: 20) { frames, closed in closed || answers(frames)[last] != nil }
            #expect(answers(frames).count == 1501)
            #expect(!frames.contains { $0.type == WireFrame.goAway })

            // Rapid reset: streams opened and reset before their answer. Three times the limit, so
            // that a slow machine whose flood straddles two of the limit's windows still trips it.
            for _ in 0..<3000 {
                w.headers(stream: stream, Self.request + harness.standardHeaders, endStream: false)
                w.reset(stream: stream)
                stream += 2
            }
            try? await client.send(&w)
            let flood = try await client.wait(seconds: 20) { _, closed in closed }
            let goAway = try #require(flood.first { $0.type == WireFrame.goAway })
            #expect(goAway.errorCode == 0xb)
            #expect(goAway.debugData == #"{"reason":"TooManyStreamResets"}"#)
            #expect(goAway.lastStreamID == last)
        }
    }

    // MARK: 8. The HTTP/2 layer: continuation, padding, flow control of answers

    @Test func aHeaderBlockInContinuationFramesWithPaddingIsRead() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // The request's header block cut in three: HEADERS (padded, with a priority) and two
            // CONTINUATIONs; its body in a padded DATA frame.
            let bytes = w.headerBlock(Self.request + harness.standardHeaders)
            let cut = [bytes.count / 3, 2 * bytes.count / 3]
            let padding = [UInt8](repeating: 0, count: 7)
            w.frame(type: WireFrame.headers, flags: 0x8 | 0x20, stream: 1, payload: [7] + FrameWriter.bigEndian(0) + [15] + bytes[..<cut[0]] + padding)
            w.frame(type: 0x9, stream: 1, payload: Array(bytes[cut[0]..<cut[1]]))
            w.frame(type: 0x9, flags: 0x4, stream: 1, payload: Array(bytes[cut[1]...]))
            w.frame(type: WireFrame.data, flags: 0x8 | 0x1, stream: 1, payload: [3] + Array(#"{"aps":{"alert":"Hi"}}"#.utf8) + [0, 0, 0])
            try await client.send(&w)
            let frames = try await client.wait { frames, closed in closed || answers(frames)[1] != nil }
            #expect(answers(frames)[1] == "200", "\(frames)")
            #expect(harness.records.first?.body == #"{"aps":{"alert":"Hi"}}"#, "the padding is not part of the body")
        }
    }

    @Test func aStreamThatDependsOnItselfIsAProtocolError() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // Stream 1 depends on itself (RFC 9113 §5.3.1): a stream error of type PROTOCOL_ERROR, which
            // NIOHTTP2 makes a connection error (§5.4.1 allows it); no request is taken from it.
            let block = w.headerBlock(Self.request + harness.standardHeaders)
            w.frame(type: WireFrame.headers, flags: 0x4 | 0x20 | 0x1, stream: 1, payload: FrameWriter.bigEndian(1) + [15] + block)
            try await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            let goAway = try #require(frames.first { $0.type == WireFrame.goAway }, "\(frames)")
            #expect(goAway.errorCode == 0x1 && goAway.lastStreamID == 0)
            #expect(goAway.debugData == #"{"reason":"ProtocolError"}"#)
            #expect(answers(frames).isEmpty && harness.records.isEmpty)
        }
    }

    @Test func anAnswersBodyWaitsForTheClientsWindow() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // A stream window of 10 bytes: the 400's body (27 bytes) goes out as 10, then the rest
            // once the client opens the window.
            w.settings([(0x4, 10)])
            w.request(stream: 1, headers: harness.standardHeaders, path: "/3/device/abc")
            try await client.send(&w)
            let first = try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.data } }
            // A PING's answer comes after whatever the server had to send before it: had the body
            // ignored the window, its rest would be there by then.
            w.frame(type: WireFrame.ping, stream: 0, payload: Array("window!!".utf8))
            try await client.send(&w)
            _ = try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.ping && $0.isAck } }
            #expect(client.frames.filter { $0.type == WireFrame.data }.map(\.payload.count) == [10], "\(first)")
            w.frame(type: WireFrame.windowUpdate, stream: 1, payload: FrameWriter.bigEndian(100))
            try await client.send(&w)
            let frames = try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.data && $0.endStream } }
            let data = frames.filter { $0.type == WireFrame.data && $0.streamID == 1 }
            let body = #"{"reason":"BadDeviceToken"}"#
            #expect(data.map(\.payload.count) == [10, body.utf8.count - 10])
            #expect(String(decoding: data.flatMap(\.payload), as: UTF8.self) == body)
            #expect(answers(frames)[1] == "400")
        }
    }

    @Test func aFrameOverTheSizeLimitEndsTheConnection() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // SETTINGS_MAX_FRAME_SIZE is 16,384: a bigger frame is a connection error (RFC 9113 §4.2).
            w.frame(type: WireFrame.data, stream: 1, payload: [UInt8](repeating: 0, count: 16_385))
            try? await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            let goAway = try #require(frames.first { $0.type == WireFrame.goAway }, "\(frames)")
            #expect(goAway.errorCode == 0x6)
            #expect(goAway.debugData == #"{"reason":"FrameSizeError"}"#)
        }
    }
}

final class ReportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
