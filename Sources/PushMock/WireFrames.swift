import NIOCore

/// What the connection handler and the wire rewriter of one connection share (one event loop, no locks).
final class ConnectionWire {
    /// The SETTINGS_MAX_CONCURRENT_STREAMS values to put on the wire, in the order the SETTINGS go out.
    var streamLimitsToSend: [UInt32] = []
    /// The highest stream answered: what a GOAWAY names (the connection closes at once after it, so
    /// no later stream was processed).
    var lastAnsweredStreamID: Int32 = 0
    /// A GOAWAY has gone out (from the mock or from NIOHTTP2): the connection is ending.
    var goAwayWritten = false
    /// The stream of the latest RST_STREAM written and its error code.
    var lastReset: (streamID: Int32, code: UInt32)?
}

/// Sits between TLS and NIOHTTP2 and corrects, on their way out, the two frames NIOHTTP2 gives the
/// mock no say over.
///
/// - SETTINGS_MAX_CONCURRENT_STREAMS: NIOHTTP2 answers a stream over the limit with a connection
///   error (GOAWAY PROTOCOL_ERROR), killing the legal streams too; APNs refuses just the excess with
///   RST_STREAM(REFUSED_STREAM). So NIOHTTP2 is given a limit it never reaches (``internalStreamLimit``),
///   the client is told the real one here, and the connection handler refuses the excess itself.
/// - GOAWAY after a connection error: NIOHTTP2 names stream 2^31-1 (or 0) as the last processed and
///   sends no debug data; here it names the last stream answered (the connection closes at once, so
///   no other was processed) and gets `{"reason":…}` as APNs sends.
///
/// NIOHTTP2 writes every frame as one buffer (a DATA frame's payload may follow as a second), so
/// frames are found by their 9-byte headers without copying anything but the rare frames changed.
final class WireFrameRewriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// What NIOHTTP2 is told the stream limit is; never sent to a client.
    static let internalStreamLimit: UInt32 = 0x7FFF_FFF0

    private let wire: ConnectionWire
    /// Bytes of the current frame's payload still to pass.
    private var payloadLeft = 0
    /// A frame header cut between two writes (never seen from NIOHTTP2, handled all the same).
    private var partialHeader: [UInt8] = []

    init(wire: ConnectionWire) {
        self.wire = wire
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case var .byteBuffer(buffer) = unwrapOutboundIn(data) else {
            // A file region: never written by NIOHTTP2; counted as payload bytes.
            if case let .fileRegion(region) = unwrapOutboundIn(data) { payloadLeft = max(0, payloadLeft - region.readableBytes) }
            context.write(data, promise: promise)
            return
        }
        var offset = buffer.readerIndex
        var changed = false
        while offset < buffer.writerIndex {
            if payloadLeft > 0 {
                let step = min(payloadLeft, buffer.writerIndex - offset)
                payloadLeft -= step
                offset += step
                continue
            }
            if !partialHeader.isEmpty || buffer.writerIndex - offset < 9 {
                // Gather the header byte by byte; such a frame is passed on unchanged.
                partialHeader.append(buffer.getInteger(at: offset, as: UInt8.self)!)
                offset += 1
                if partialHeader.count == 9 {
                    payloadLeft = Int(partialHeader[0]) << 16 | Int(partialHeader[1]) << 8 | Int(partialHeader[2])
                    partialHeader = []
                }
                continue
            }
            let length = Int(buffer.getInteger(at: offset, as: UInt8.self)!) << 16 | Int(buffer.getInteger(at: offset + 1, as: UInt16.self)!)
            let type = buffer.getInteger(at: offset + 3, as: UInt8.self)!
            let flags = buffer.getInteger(at: offset + 4, as: UInt8.self)!
            let stream = Int32(bitPattern: buffer.getInteger(at: offset + 5, as: UInt32.self)! & 0x7FFF_FFFF)
            let whole = offset + 9 + length <= buffer.writerIndex
            switch type {
            case 0x3 where whole && length == 4:  // RST_STREAM
                wire.lastReset = (stream, buffer.getInteger(at: offset + 9, as: UInt32.self)!)
            case 0x4 where whole && flags & 0x1 == 0:  // SETTINGS, not an ACK
                var at = offset + 9
                while at + 6 <= offset + 9 + length {
                    if buffer.getInteger(at: at, as: UInt16.self) == 0x3, buffer.getInteger(at: at + 2, as: UInt32.self) == Self.internalStreamLimit {
                        let value = wire.streamLimitsToSend.isEmpty ? Self.internalStreamLimit : wire.streamLimitsToSend.removeFirst()
                        buffer.setInteger(value, at: at + 2)
                        changed = true
                    }
                    at += 6
                }
            case 0x7 where whole:  // GOAWAY
                wire.goAwayWritten = true
                if length == 8 {
                    // NIOHTTP2's own, after a connection error: rewritten as APNs would send it.
                    let code = buffer.getInteger(at: offset + 13, as: UInt32.self)!
                    let replacement = Self.goAway(lastStreamID: wire.lastAnsweredStreamID, code: code, allocator: context.channel.allocator)
                    var rebuilt = context.channel.allocator.buffer(capacity: buffer.readableBytes + replacement.readableBytes)
                    rebuilt.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: offset - buffer.readerIndex)!)
                    rebuilt.writeImmutableBuffer(replacement)
                    let after = offset + 9 + length
                    rebuilt.writeImmutableBuffer(buffer.getSlice(at: after, length: buffer.writerIndex - after)!)
                    let newOffset = rebuilt.readerIndex + (offset - buffer.readerIndex) + replacement.readableBytes
                    buffer = rebuilt
                    changed = true
                    offset = newOffset
                    continue
                }
            default:
                break
            }
            if whole {
                offset += 9 + length
            } else {
                payloadLeft = length - (buffer.writerIndex - offset - 9)
                offset = buffer.writerIndex
            }
        }
        context.write(changed ? wrapOutboundOut(.byteBuffer(buffer)) : data, promise: promise)
    }

    /// A whole GOAWAY frame with `{"reason":…}` as its debug data.
    static func goAway(lastStreamID: Int32, code: UInt32, allocator: ByteBufferAllocator) -> ByteBuffer {
        let debug = #"{"reason":"\#(reason(forErrorCode: code))"}"#
        var frame = allocator.buffer(capacity: 17 + debug.utf8.count)
        let length = 8 + debug.utf8.count
        frame.writeInteger(UInt8(length >> 16))
        frame.writeInteger(UInt16(length & 0xFFFF))
        frame.writeInteger(UInt8(0x7))
        frame.writeInteger(UInt8(0))
        frame.writeInteger(UInt32(0))
        frame.writeInteger(UInt32(bitPattern: lastStreamID))
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
        case 0x6: return "FrameSizeError"
        case 0x9: return "CompressionError"
        case 0xb: return "EnhanceYourCalm"
        default: return "ConnectionError"
        }
    }
}
