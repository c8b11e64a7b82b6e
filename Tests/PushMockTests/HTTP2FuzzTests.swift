import ChildProcess
import Foundation
import NIOCore
import NIOHTTP2
import PushCore
import PushWords
import Testing

@testable import PushMock

/// The mock reads bytes from anyone on the network: mutated frame sequences (fixed seed) must never
/// crash or hang it. Whatever a connection gets, a GOAWAY always says why, no frame is over the
/// size the client allows, and a fresh connection is served at once afterwards.
@Suite("HTTP/2 fuzz")
struct HTTP2FuzzTests {
    static let cases = 160
    static let barrier: UInt64 = 0xF022_F022_F022_F022

    /// A valid conversation: two requests (one padded, one in CONTINUATIONs), and control frames.
    static func conversation(_ standardHeaders: [(String, String)], writer: inout FrameWriter) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        func take(_ write: (inout FrameWriter) -> Void) {
            write(&writer)
            let bytes = writer.take()
            frames.append(Array(bytes.readableBytesView))
        }
        take { $0.request(stream: 1, headers: standardHeaders) }
        take { $0.ping(7) }
        take { $0.priority(stream: 3) }
        take { $0.settings([(0x4, 1000), (0x5, 16_384)]) }
        take { $0.frame(type: 0x8, stream: 0, payload: FrameWriter.bigEndian(5000)) }
        take { $0.headers(stream: 3, ProtocolFidelityTests.request + standardHeaders, endStream: false) }
        take { $0.frame(type: 0x0, flags: 0x8 | 0x1, stream: 3, payload: [2] + Array(#"{"aps":{}}"#.utf8) + [0, 0]) }
        take { $0.reset(stream: 3) }
        take { $0.frame(type: 0x9, flags: 0x4, stream: 5, payload: [0x82]) }
        take { $0.frame(type: 0x7, stream: 0, payload: FrameWriter.bigEndian(0) + FrameWriter.bigEndian(0)) }
        return frames
    }

    /// One mutation of the conversation's frames.
    static func mutate(_ frames: inout [[UInt8]], _ random: inout SplitMix64) {
        let index = Int.random(in: 0..<frames.count, using: &random)
        var frame = frames[index]
        switch Int.random(in: 0..<8, using: &random) {
        case 0 where !frame.isEmpty:  // a byte flipped anywhere
            frame[Int.random(in: 0..<frame.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
        case 1 where frame.count >= 9:  // another type
            frame[3] = UInt8.random(in: 0...12, using: &random)
        case 2 where frame.count >= 9:  // other flags
            frame[4] = UInt8.random(in: 0...255, using: &random)
        case 3 where frame.count >= 9:  // another stream, often 0 or even
            frame[8] = random.pick([0, 1, 2, 3, 4, 5, 7, 99, UInt8.random(in: 0...255, using: &random)])
        case 4 where frame.count >= 9:  // a shorter length: what is left is read as the next frame
            let length = frame.count - 9
            let lie = Int.random(in: 0...max(0, length), using: &random)
            frame[0] = 0
            frame[1] = UInt8(lie >> 8)
            frame[2] = UInt8(lie & 0xFF)
        case 5:  // a frame twice
            frames.insert(frame, at: index)
        case 6 where frame.count > 9:  // cut short, its length kept: the rest is read from what follows
            frame.removeLast(Int.random(in: 1...(frame.count - 9), using: &random))
        default:  // random bytes in between
            frames.insert((0..<Int.random(in: 1...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: index)
        }
        frames[index] = frame
    }

    /// In process, every case a new connection to one mock: what a case leaves behind in the
    /// server (its counters, its journal) must not keep the next from being served.
    @Test func mutatedFrameSequencesNeverBreakTheMock() async throws {
        let mock = try EmbeddedMock(configure: { $0.recordLimit = 100 })
        defer { _ = try? mock.channel.finish(acceptAlreadyClosed: true) }
        /// A fresh connection to the same mock is served.
        func served() async throws -> Bool {
            let fresh = try EmbeddedMock(sharing: mock)
            defer { _ = try? fresh.channel.finish(acceptAlreadyClosed: true) }
            var writer = FrameWriter()
            writer.request(stream: 1, headers: fresh.standardHeaders)
            let frames = try await fresh.sendThenSettle(&writer)
            return frames.contains { $0.type == WireFrame.headers && $0.status == "200" }
        }
        var random = SplitMix64(seed: 0x5EED_C0DE_C)
        var closedCases = 0
        for number in 0..<Self.cases {
            let client = try EmbeddedMock(sharing: mock)
            var writer = FrameWriter()
            var frames = Self.conversation(client.standardHeaders, writer: &writer)
            for _ in 0..<Int.random(in: 1...4, using: &random) { Self.mutate(&frames, &random) }
            writer.bytes.writeBytes(frames.joined())
            writer.ping(Self.barrier)
            try? await client.send(&writer)
            // Everything sent has been read (a length that swallowed the barrier leaves the mock waiting).
            let received = client.frames
            if client.isClosed { closedCases += 1 }
            for goAway in received where goAway.type == WireFrame.goAway {
                #expect(goAway.debugData.hasPrefix(#"{"reason":""#), "case \(number): a GOAWAY says why: \(goAway)")
            }
            #expect(received.allSatisfy { $0.payload.count <= 16_384 }, "case \(number)")
            _ = try? client.channel.finish(acceptAlreadyClosed: true)
            if number % 40 == 39 {
                #expect(try await served(), "case \(number): a fresh connection is served")
            }
        }
        #expect(try await served())
        // The mutations reach the error paths, and leave some connections standing.
        #expect(closedCases > Self.cases / 4 && closedCases < Self.cases, "\(closedCases) of \(Self.cases) connections closed")
    }

    // MARK: - The one piece of frame work left: two frames NIOHTTP2 writes, amended

    /// NIOHTTP2's SETTINGS, as it encodes them: the mock's five, the stream limit its ceiling.
    static let settingsFrame: [UInt8] =
        [0, 0, 30, 0x4, 0, 0, 0, 0, 0]
        + [0, 1, 0, 0, 0x10, 0] + [0, 3, 0x7F, 0xFF, 0xFF, 0xFF] + [0, 4, 0, 0, 0xFF, 0xFF] + [0, 5, 0, 0, 0x40, 0] + [0, 6, 0, 0, 0x1F, 0x40]

    @Test func aSettingsFrameGoesOutWithTheRealStreamLimit() throws {
        let amended = try #require(WireAmendment.streamLimit(1).apply(to: ByteBuffer(bytes: Self.settingsFrame)))
        var expected = Self.settingsFrame
        expected[17...20] = [0, 0, 0, 1]
        #expect(Array(amended.readableBytesView) == expected)
        let raised = try #require(WireAmendment.streamLimit(1000).apply(to: ByteBuffer(bytes: [0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 3, 0x7F, 0xFF, 0xFF, 0xFF])))
        #expect(Array(raised.readableBytesView) == [0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0x03, 0xE8])
        // Anything but the whole SETTINGS frame expected is left as it is.
        for other: [UInt8] in [
            [0, 0, 0, 0x4, 0x1, 0, 0, 0, 0],  // an ACK
            [0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 3, 0x7F, 0xFF, 0xFF],  // cut short
            [0, 0, 8, 0x6, 0, 0, 0, 0, 0, 0, 3, 0x7F, 0xFF, 0xFF, 0xFF, 0, 0],  // a PING
            [0, 0, 3],
        ] {
            #expect(WireAmendment.streamLimit(1).apply(to: ByteBuffer(bytes: other)) == nil, "\(other)")
        }
    }

    @Test func nioHTTP2sGoAwayGoesOutNamingTheLastStreamAnsweredAndAReason() throws {
        // NIOHTTP2's GOAWAY after a connection error: last stream 2^31-1, PROTOCOL_ERROR, no debug data.
        let original: [UInt8] = [0, 0, 8, 0x7, 0, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1]
        let amended = try #require(WireAmendment.goAway(lastStreamID: 5, code: 1).apply(to: ByteBuffer(bytes: original)))
        let reason = Array(#"{"reason":"ProtocolError"}"#.utf8)
        #expect(Array(amended.readableBytesView) == [0, 0, UInt8(8 + reason.count), 0x7, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1] + reason)
        let calm = try #require(WireAmendment.goAway(lastStreamID: 0, code: 0xb).apply(to: ByteBuffer(bytes: original)))
        #expect(String(decoding: calm.readableBytesView.dropFirst(17), as: UTF8.self) == #"{"reason":"EnhanceYourCalm"}"#)
        #expect(WireAmendment.goAway(lastStreamID: 5, code: 1).apply(to: ByteBuffer(bytes: Self.settingsFrame)) == nil)
    }

    @Test func theWireAmendsOnlyTheFramesNIOHTTP2WritesOfItsOwn() {
        let wire = ConnectionWire(advertisedStreamLimit: 1)
        wire.wroteFrame(
            HTTP2Frame(
                streamID: .rootStream, payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: ConnectionWire.streamCeiling)]))))
        #expect(wire.takeAmendment() == .streamLimit(1))
        #expect(wire.takeAmendment() == nil, "once")
        wire.wroteFrame(HTTP2Frame(streamID: .rootStream, payload: .settings(.ack)))
        wire.wroteFrame(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: 1), ack: true)))
        #expect(wire.takeAmendment() == nil)
        // The mock's own GOAWAY carries its reason: left alone.
        wire.lastAnsweredStreamID = 7
        wire.wroteFrame(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: 7, errorCode: .noError, opaqueData: ByteBuffer(string: "{}"))))
        #expect(wire.takeAmendment() == nil && wire.goAwayWritten)
        wire.wroteFrame(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: .maxID, errorCode: .frameSizeError, opaqueData: nil)))
        #expect(wire.takeAmendment() == .goAway(lastStreamID: 7, code: 6))
        // RST_STREAM: the mock's own (announced) or NIOHTTP2's, for a stream error it reports next.
        wire.ownResets.insert(3)
        wire.wroteFrame(HTTP2Frame(streamID: 3, payload: .rstStream(.refusedStream)))
        #expect(wire.takeStreamErrorReset() == nil)
        wire.wroteFrame(HTTP2Frame(streamID: 9, payload: .rstStream(.protocolError)))
        let reset = wire.takeStreamErrorReset()
        #expect(reset?.streamID == 9 && reset?.code == .protocolError)
        #expect(wire.takeStreamErrorReset() == nil)
    }

    /// The amendments rely on NIOHTTP2 (1.46, pinned in Package.swift) calling its frame delegate
    /// just before it writes each such frame, as one buffer of its own. Through TLS, as a client
    /// reads them: should NIOHTTP2 write them otherwise, a client would be told 2^31-1 streams or a
    /// GOAWAY without its reason, and this fails.
    @Test func throughTLSTheAmendedFramesReachTheClientAsAPNsWritesThem() async throws {
        try await withHarness(configure: { $0.maxConcurrentStreams = 77 }) { harness in
            let client = try await RawHTTP2Client.connect(to: harness)
            defer { Task { await client.close() } }
            var w = FrameWriter()
            w.request(stream: 1, headers: harness.standardHeaders)
            try await client.send(&w)
            try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.headers && $0.streamID == 1 } }
            // A WINDOW_UPDATE of 0 on the connection: a connection error, for which NIOHTTP2 writes the GOAWAY.
            w.frame(type: WireFrame.windowUpdate, stream: 0, payload: [0, 0, 0, 0])
            try await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            let limits = frames.filter { $0.type == WireFrame.settings && !$0.isAck }.compactMap { $0.settings[0x3] }
            #expect(limits == [1, 77], "SETTINGS_MAX_CONCURRENT_STREAMS as the client reads it: \(frames)")
            let end = try #require(frames.first { $0.type == WireFrame.goAway }, "\(frames)")
            #expect(end.lastStreamID == 1 && end.errorCode == 0x1)
            #expect(end.debugData == #"{"reason":"ProtocolError"}"#)
        }
    }
}
