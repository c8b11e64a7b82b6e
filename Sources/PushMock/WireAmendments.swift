import NIOCore
import NIOHTTP2

/// What the connection handler, NIOHTTP2's handler (through its frame delegate) and the
/// ``WireAmender`` of one connection share (one event loop, no locks).
///
/// NIOHTTP2 writes every frame of the connection; two of them APNs writes otherwise, and no
/// option of NIOHTTP2 says so. They are amended on their way to TLS, and only they:
/// - SETTINGS_MAX_CONCURRENT_STREAMS. NIOHTTP2 treats a stream over the limit as a connection
///   error (GOAWAY PROTOCOL_ERROR, every stream lost); APNs refuses just that stream with
///   RST_STREAM(REFUSED_STREAM), as RFC 9113 §5.1.2 allows. So NIOHTTP2 is told a limit it never
///   reaches (``streamCeiling``), the client the real one (``advertisedStreamLimit``), and the
///   connection handler refuses the excess.
/// - The GOAWAY NIOHTTP2 sends after a connection error names stream 2^31-1 (or 0) and carries no
///   debug data; APNs names the last stream it processed and gives `{"reason":…}`.
///
/// NIOHTTP2 1.46's public API has neither (its configuration sets the limit it enforces, as a
/// connection error, and writes its own GOAWAY whole). The amendments rely on its frame delegate
/// being called just before each frame is written as one buffer: verified on the version range
/// pinned in Package.swift, and checked through TLS by
/// `HTTP2FuzzTests.throughTLSTheAmendedFramesReachTheClientAsAPNsWritesThem`.
final class ConnectionWire: NIOHTTP2FrameDelegate {
    /// SETTINGS_MAX_CONCURRENT_STREAMS as NIOHTTP2 is told it; never sent to a client.
    static let streamCeiling = Int(Int32.max)

    /// What the client is told in place of ``streamCeiling``: the first limit, then the raised one.
    var advertisedStreamLimit: UInt32
    /// The highest stream answered: what a GOAWAY names (the connection closes at once after it, so
    /// no later stream was processed).
    var lastAnsweredStreamID: Int32 = 0
    /// A GOAWAY has gone out (from the mock or from NIOHTTP2): the connection is ending.
    private(set) var goAwayWritten = false
    /// Streams the connection handler resets itself, until NIOHTTP2 writes the RST_STREAM (which
    /// it may hold back while TLS cannot take more).
    var ownResets: Set<HTTP2StreamID> = []
    /// The last RST_STREAM NIOHTTP2 wrote of its own accord (a stream error in what the client
    /// sent), until the connection handler takes it with the error NIOHTTP2 reports next.
    private var streamErrorReset: (streamID: HTTP2StreamID, code: HTTP2ErrorCode)?
    /// How the frame being written must change, for the ``WireAmender`` it goes through next.
    private var amendment: WireAmendment?

    init(advertisedStreamLimit: UInt32) {
        self.advertisedStreamLimit = advertisedStreamLimit
    }

    /// Called by NIOHTTP2 just before it writes the frame's bytes (the next write to pass the amender).
    func wroteFrame(_ frame: HTTP2Frame) {
        switch frame.payload {
        case .settings(.settings(let values)) where values.contains(where: { $0.parameter == .maxConcurrentStreams }):
            amendment = .streamLimit(advertisedStreamLimit)
        case .goAway(_, let code, let debugData):
            goAwayWritten = true
            // The mock's own GOAWAYs carry their reason already.
            if debugData == nil { amendment = .goAway(lastStreamID: lastAnsweredStreamID, code: UInt32(truncatingIfNeeded: code.networkCode)) }
        case .rstStream(let code):
            if ownResets.remove(frame.streamID) == nil { streamErrorReset = (frame.streamID, code) }
        default:
            break
        }
    }

    func takeAmendment() -> WireAmendment? {
        defer { amendment = nil }
        return amendment
    }

    /// The stream NIOHTTP2 reset for a stream error, once: nil when the error was not about what the
    /// client sent (an answer to a stream already gone).
    func takeStreamErrorReset() -> (streamID: HTTP2StreamID, code: HTTP2ErrorCode)? {
        defer { streamErrorReset = nil }
        return streamErrorReset
    }
}

/// Between TLS and NIOHTTP2: applies the ``ConnectionWire``'s amendment to the frame it was made
/// for, and passes every other write through untouched.
final class WireAmender: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let wire: ConnectionWire

    init(wire: ConnectionWire) {
        self.wire = wire
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let amendment = wire.takeAmendment(), case .byteBuffer(let bytes) = unwrapOutboundIn(data),
            let amended = amendment.apply(to: bytes)
        else {
            context.write(data, promise: promise)
            return
        }
        context.write(wrapOutboundOut(.byteBuffer(amended)), promise: promise)
    }
}

/// A change to one frame NIOHTTP2 has encoded (a whole frame, in one buffer).
enum WireAmendment: Equatable {
    /// A SETTINGS frame: its MAX_CONCURRENT_STREAMS gets this value.
    case streamLimit(UInt32)
    /// NIOHTTP2's GOAWAY after a connection error: this last stream, and `{"reason":…}` named after the code.
    case goAway(lastStreamID: Int32, code: UInt32)

    /// The frame as the client must see it, or nil when `frame` is not the frame expected (then it
    /// goes out as it is).
    func apply(to frame: ByteBuffer) -> ByteBuffer? {
        guard frame.readableBytes >= 9, let header = frame.getBytes(at: frame.readerIndex, length: 9) else { return nil }
        let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
        guard frame.readableBytes == 9 + length else { return nil }
        switch self {
        case .streamLimit(let limit):
            guard header[3] == 0x4, header[4] & 0x1 == 0, length % 6 == 0 else { return nil }
            var amended = frame
            var at = frame.readerIndex + 9
            while at < frame.writerIndex {
                if amended.getInteger(at: at, as: UInt16.self) == 0x3 { amended.setInteger(limit, at: at + 2) }
                at += 6
            }
            return amended
        case .goAway(let lastStreamID, let code):
            guard header[3] == 0x7 else { return nil }
            return Self.goAway(lastStreamID: lastStreamID, code: code)
        }
    }

    /// A GOAWAY frame with `{"reason":…}` (the error's name, as APNs spells its reasons) as debug data.
    static func goAway(lastStreamID: Int32, code: UInt32) -> ByteBuffer {
        let debug = #"{"reason":"\#(reason(forErrorCode: code))"}"#
        var frame = ByteBufferAllocator().buffer(capacity: 17 + debug.utf8.count)
        let length = 8 + debug.utf8.count
        frame.writeInteger(UInt8(truncatingIfNeeded: length >> 16))
        frame.writeInteger(UInt16(truncatingIfNeeded: length))
        frame.writeInteger(UInt8(0x7))
        frame.writeInteger(UInt8(0))
        frame.writeInteger(UInt32(0))
        frame.writeInteger(UInt32(bitPattern: lastStreamID) & 0x7FFF_FFFF)
        frame.writeInteger(code)
        frame.writeString(debug)
        return frame
    }

    /// The reason a GOAWAY after a connection error gives: the error's name, as APNs spells its reasons.
    static func reason(forErrorCode code: UInt32) -> String {
        switch code {
        case 0x1: return "ProtocolError"
        case 0x2: return "InternalError"
        case 0x3: return "FlowControlError"
        case 0x4: return "SettingsTimeout"
        case 0x5: return "StreamClosed"
        case 0x6: return "FrameSizeError"
        case 0x9: return "CompressionError"
        case 0xb: return "EnhanceYourCalm"
        default: return "ConnectionError"
        }
    }
}
