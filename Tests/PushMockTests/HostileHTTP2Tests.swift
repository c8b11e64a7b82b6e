import Foundation
import PushMock
import Testing

/// What a hostile student or a buggy client sends with raw frames, each answered as RFC 9113 says:
/// which stream is reset or which GOAWAY ends the connection, with what code, and that nothing is
/// held open or answered that should not be. In process (``EmbeddedMock``), but for the first
/// case: through TLS, it checks the GOAWAY NIOHTTP2 writes as the wire amends it.
@Suite("Hostile HTTP/2")
struct HostileHTTP2Tests {
    func connect(_ harness: Harness) async throws -> (RawHTTP2Client, FrameWriter) {
        let client = try await RawHTTP2Client.connect(to: harness)
        try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.settings && !$0.isAck } }
        return (client, FrameWriter())
    }

    func goAway(_ frames: [WireFrame]) -> WireFrame? { frames.first { $0.type == WireFrame.goAway } }

    /// The stream's RST_STREAM code or the GOAWAY's, whichever ended it: RFC 9113 §5.4.1 lets an
    /// endpoint treat a stream error as a connection error.
    func errorCode(_ frames: [WireFrame], stream: UInt32) -> UInt32? {
        frames.first { $0.type == WireFrame.rstStream && $0.streamID == stream }?.errorCode ?? goAway(frames)?.errorCode
    }

    @Test("empty CONTINUATION frames cannot hold a header block open: GOAWAY ENHANCE_YOUR_CALM at once")
    func continuationFlood() async throws {
        try await withHarness { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            defer { Task { await client.close() } }
            let block = w.headerBlock(ProtocolFidelityTests.request + harness.standardHeaders)
            w.frame(type: WireFrame.headers, stream: 1, payload: Array(block.prefix(10)))
            for _ in 0..<100_000 { w.frame(type: 0x9, stream: 1) }
            try? await client.send(&w)
            let frames = try await client.wait { _, closed in closed }
            #expect(client.isClosed, "the connection is closed")
            let end = try #require(goAway(frames), "\(frames)")
            #expect(end.errorCode == 0xb)
            #expect(end.debugData == #"{"reason":"EnhanceYourCalm"}"#)
            #expect(end.lastStreamID == 0)
        }
    }

    @Test("a HEADERS frame on a stream id below one already opened is a connection error (PROTOCOL_ERROR), not a request")
    func streamIDBelowTheLast() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness, answered: 5)
            var w = writer
            w.request(stream: 3, headers: harness.standardHeaders)
            let frames = try await client.sendThenSettle(&w)
            let end = try #require(goAway(frames), "\(frames)")
            #expect(end.errorCode == 0x1)
            #expect(end.lastStreamID == 5)
            #expect(end.debugData == #"{"reason":"ProtocolError"}"#)
            #expect(!frames.contains { $0.streamID == 3 && $0.type == WireFrame.headers }, "stream 3 is not answered")
            #expect(harness.records.map(\.streamID) == [5])
        }
    }

    @Test("DATA on a stream already closed is STREAM_CLOSED")
    func dataOnAClosedStream() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness, answered: 1)
            var w = writer
            w.data(stream: 1, Array(#"{"aps":{}}"#.utf8), endStream: true)
            let frames = try await client.sendThenSettle(&w)
            #expect(errorCode(frames, stream: 1) == 0x5, "\(frames)")
        }
    }

    @Test("resets the server is made to send are bounded: a few hundred malformed requests end the connection (ENHANCE_YOUR_CALM)")
    func provokedResetsAreBounded() async throws {
        try await withEmbeddedMock(configure: { $0.recordLimit = 0 }) { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // An upper-case header name: a malformed request, which the server must reset (§8.1.1).
            let malformed = ProtocolFidelityTests.request + harness.standardHeaders + [("X-Upper", "1")]
            var stream: UInt32 = 1
            for _ in 0..<1000 {
                w.headers(stream: stream, malformed, endStream: true)
                stream += 2
            }
            try? await client.send(&w)
            let frames = try await client.wait(seconds: 20) { _, closed in closed }
            let resets = frames.filter { $0.type == WireFrame.rstStream }
            #expect(resets.allSatisfy { $0.errorCode == 0x1 })
            #expect((100...300).contains(resets.count), "\(resets.count) resets before the GOAWAY")
            let end = try #require(goAway(frames), "\(frames.suffix(3))")
            #expect(end.errorCode == 0xb)
            #expect(end.debugData == #"{"reason":"EnhanceYourCalm"}"#)
            #expect(client.isClosed)
        }
    }

    @Test("a PRIORITY frame whose stream depends on itself is a PROTOCOL_ERROR")
    func priorityOnItself() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness, answered: 1)
            var w = writer
            w.priority(stream: 3, dependsOn: 3)
            let frames = try await client.sendThenSettle(&w)
            #expect(errorCode(frames, stream: 3) == 0x1, "\(frames)")
        }
    }

    @Test("an INITIAL_WINDOW_SIZE that takes a stream's window past 2^31-1 is a FLOW_CONTROL_ERROR")
    func windowOverflowThroughSettings() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            // Stream 1 open (its request unfinished), its send window raised to the most allowed,
            // then every stream's initial window raised by one.
            w.headers(stream: 1, ProtocolFidelityTests.request + harness.standardHeaders, endStream: false)
            w.frame(type: WireFrame.windowUpdate, stream: 1, payload: FrameWriter.bigEndian(UInt32(Int32.max) - 65_535))
            w.settings([(0x4, 65_536)])
            let frames = try await client.sendThenSettle(&w)
            let end = try #require(goAway(frames), "\(frames)")
            #expect(end.errorCode == 0x3)
            #expect(end.debugData == #"{"reason":"FlowControlError"}"#)
        }
    }

    @Test("a PRIORITY frame of the wrong length on an idle stream gets no RST_STREAM (§6.4) but a FRAME_SIZE_ERROR GOAWAY")
    func badPriorityLengthOnAnIdleStream() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness, answered: 1)
            var w = writer
            w.frame(type: 0x2, stream: 5, payload: [0, 0, 0, 0])
            let frames = try await client.sendThenSettle(&w)
            #expect(!frames.contains { $0.type == WireFrame.rstStream && $0.streamID == 5 }, "\(frames)")
            #expect(goAway(frames)?.errorCode == 0x6, "\(frames)")
        }
    }

    @Test("WINDOW_UPDATE frames count against the control-frame budget: a flood is cut off")
    func windowUpdateFlood() async throws {
        try await withEmbeddedMock { harness in
            let (client, writer) = try await connect(harness)
            var w = writer
            for _ in 0..<20_000 { w.frame(type: WireFrame.windowUpdate, stream: 0, payload: FrameWriter.bigEndian(1)) }
            let frames = try await client.sendThenSettle(&w, seconds: 20)
            let end = try #require(goAway(frames), "no GOAWAY after 20,000 WINDOW_UPDATE frames")
            #expect(end.errorCode == 0xb)
            #expect(end.debugData == #"{"reason":"TooManyControlFrames"}"#)
        }
    }
}

extension HostileHTTP2Tests {
    func connect(_ mock: EmbeddedMock) async throws -> (EmbeddedMock, FrameWriter) { (mock, FrameWriter()) }

    /// A connection on which stream `stream` has been answered (the token taken, the limit raised).
    func connect(_ mock: EmbeddedMock, answered stream: UInt32) async throws -> (EmbeddedMock, FrameWriter) {
        var w = FrameWriter()
        w.request(stream: stream, headers: mock.standardHeaders)
        try await mock.send(&w)
        return (mock, w)
    }
}
