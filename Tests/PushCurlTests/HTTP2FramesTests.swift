import Testing

@testable import PushCurl

/// The GOAWAY probe's own HTTP/2 reader and writer, against bytes made by hand (RFC 9113 §4.1,
/// §6.8; RFC 7541 §5.1).
@Suite struct HTTP2FramesTests {
    /// A GOAWAY as APNs sends one for a certificate of the wrong environment.
    let apnsGoAway: [UInt8] =
        [
            0x00, 0x00, 0x2E, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00,  // length 46, GOAWAY, stream 0
            0x80, 0x00, 0x00, 0x00,  // last stream 0, with the reserved bit set (ignored)
            0x00, 0x00, 0x00, 0x00,
        ]  // NO_ERROR
        + Array(#"{"reason":"BadCertificateEnvironment"}"#.utf8)

    @Test("a GOAWAY split across reads comes out whole, once, with APNs' reason")
    func goAwayAcrossReads() throws {
        var buffer: [UInt8] = []
        var frames: [HTTP2Frames.Frame] = []
        for byte in apnsGoAway {
            buffer.append(byte)
            while let frame = HTTP2Frames.next(&buffer) { frames.append(frame) }
        }
        #expect(buffer.isEmpty)
        let frame = try #require(frames.count == 1 ? frames[0] : nil, "\(frames.count) frames")
        #expect(frame.type == 0x7 && frame.stream == 0)
        let notice = try #require(HTTP2Frames.goAway(frame.payload))
        #expect(notice.lastStreamID == 0 && notice.errorCode == 0)
        #expect(notice.reason == "BadCertificateEnvironment")
    }

    @Test("frames back to back: SETTINGS, PING, then a GOAWAY with an error code and no debug data")
    func framesInARow() throws {
        var buffer =
            HTTP2Frames.settings(ack: false)
            + HTTP2Frames.frame(type: 0x6, flags: 0, stream: 0, payload: [1, 2, 3, 4, 5, 6, 7, 8])
            + HTTP2Frames.frame(type: 0x7, flags: 0, stream: 0, payload: [0, 0, 0, 3, 0, 0, 0, 0x0B])
        let frames = [HTTP2Frames.next(&buffer), HTTP2Frames.next(&buffer), HTTP2Frames.next(&buffer)].compactMap { $0 }
        #expect(frames.map(\.type) == [0x4, 0x6, 0x7] && buffer.isEmpty)
        let notice = try #require(HTTP2Frames.goAway(frames[2].payload))
        #expect(notice.lastStreamID == 3 && notice.errorCode == 0x0B && notice.debugData.isEmpty && notice.reason == nil)
    }

    @Test("a GOAWAY too short to hold its fields is no notice; debug data is kept to 1 KiB")
    func goAwayBounds() {
        #expect(HTTP2Frames.goAway([0, 0, 0, 1, 0, 0, 0]) == nil)
        let long = HTTP2Frames.goAway([0, 0, 0, 1, 0, 0, 0, 2] + [UInt8](repeating: 0x41, count: 5000))
        #expect(long?.debugData.count == 1024)
    }

    @Test("the request it sends: GET / on stream 1, END_STREAM and END_HEADERS, :authority as a literal")
    func getRoot() {
        let bytes = HTTP2Frames.getRoot(authority: "api.push.apple.com:443")
        #expect(Array(bytes.prefix(9)) == [0, 0, 27, 0x1, 0x5, 0, 0, 0, 1])
        #expect(Array(bytes[9...]) == [0x82, 0x87, 0x84, 0x01, 22] + Array("api.push.apple.com:443".utf8))
        #expect(HTTP2Frames.getRoot(authority: String(repeating: "a", count: 300)).count == 9 + 4 + 3 + 255, "a long name is cut to 255 bytes")
    }

    @Test("HPACK integers: under the prefix, at it, and over it (RFC 7541 C.1)")
    func integers() {
        #expect(HTTP2Frames.integer(10, prefixBits: 5, flags: 0) == [10])
        #expect(HTTP2Frames.integer(1337, prefixBits: 5, flags: 0) == [31, 154, 10])
        #expect(HTTP2Frames.integer(127, prefixBits: 7, flags: 0) == [127, 0])
        #expect(HTTP2Frames.integer(42, prefixBits: 8, flags: 0) == [42])
    }

    @Test("random bytes never trap the reader, and every frame it returns is as long as its header says")
    func fuzz() {
        var generator = SplitMix64(seed: 0x9E37_79B9)
        for _ in 0..<2000 {
            var buffer = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let total = buffer.count
            var consumed = 0
            while let frame = HTTP2Frames.next(&buffer) {
                consumed += 9 + frame.payload.count
                if frame.type == 0x7 { _ = HTTP2Frames.goAway(frame.payload) }
            }
            #expect(consumed + buffer.count == total)
        }
    }
}

/// A seeded generator, so a failing case can be run again.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
