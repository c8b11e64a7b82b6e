import NIOCore
import NIOHPACK
import NIOHTTP2

/// What the codec and the connection handler of one connection share (one event loop, no locks).
final class ConnectionWire {
    /// The highest stream answered: what a GOAWAY names (the connection closes at once after it, so
    /// no later stream was processed).
    var lastAnsweredStreamID: Int32 = 0
    /// A GOAWAY has gone out (from the mock or from the codec): the connection is ending.
    var goAwayWritten = false
}

/// A request the codec found malformed (RFC 9113 §8.1.1) and reset with RST_STREAM(PROTOCOL_ERROR).
struct MalformedRequest: Error, CustomStringConvertible {
    let streamID: HTTP2StreamID
    let description: String
}

/// The server side of HTTP/2 for the mock, between TLS and ``APNsConnectionHandler``: frames in,
/// frames out, with the connection's rules (RFC 9113) kept here.
///
/// The mock answers one request per stream, tens of thousands a second on one core. NIOHTTP2's
/// general handler spent most of the mock's CPU on that (a stream state machine, header
/// validation on both sides, Huffman coding of every answer); this codec does what a server that
/// never pushes and never uploads more than a few bytes needs:
/// - reads frames in place, HPACK-decodes header blocks (NIOHPACK's decoder, with its table and
///   limits), and hands ``HTTP2Frame``s to the handler; a malformed request is reset on its own;
/// - keeps both flow-control windows: it gives back every byte read to the connection's window
///   (streams need none: a body APNs accepts fits the first), and DATA it sends waits for the
///   client's window;
/// - answers PING and SETTINGS, tells the handler when a stream has closed (`StreamClosedEvent`,
///   after the frame or the flush that closed it, never in the middle of a write);
/// - encodes answers without the dynamic table (``HTTP2ResponseEncoder``) and writes everything
///   one flush produced as one buffer;
/// - ends the connection on a connection error with a GOAWAY that names the last stream answered
///   and gives `{"reason":…}` as APNs does.
final class HTTP2ServerCodec: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = ByteBuffer

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// SETTINGS_MAX_FRAME_SIZE and SETTINGS_INITIAL_WINDOW_SIZE as the mock sends them.
    static let maxFrameSize = 16_384
    static let streamWindow = 65_535
    static let maxHeaderListSize = 8000
    /// A header block (HEADERS and its CONTINUATIONs) longer than this ends the connection.
    static let headerBlockLimit = 65_536
    /// The connection's window is opened this much at once, then replenished every `windowBatch`
    /// bytes read: room for many bodies in flight.
    static let windowBoost = 1 << 20
    static let windowBatch = 1 << 15
    /// Empty DATA frames without END_STREAM in a row before the connection is cut off (CVE-2019-9518).
    static let emptyDataLimit = 100

    private final class Stream {
        var remoteClosed = false
        var localClosed = false
        var sendWindow: Int
        var receiveWindow = HTTP2ServerCodec.streamWindow
        var contentLength: Int?
        var dataBytes = 0
        /// DATA waiting for the client's window, in order.
        var queued: [(data: ByteBuffer, endStream: Bool, promise: EventLoopPromise<Void>?)] = []

        init(sendWindow: Int) { self.sendWindow = sendWindow }

        /// The body against its content-length (§8.1.1): too long already, or short at its end.
        func lengthProblem(ended: Bool) -> String? {
            guard let declared = contentLength, dataBytes > declared || (ended && dataBytes != declared) else { return nil }
            return "a body of \(dataBytes) bytes\(ended ? "" : " so far") where content-length says \(declared)"
        }
    }

    private struct HeaderBlock {
        var streamID: Int32
        var endStream: Bool
        /// A stream that depends on itself (§5.3.1): refused once its block is decoded.
        var selfDependent: Bool
        var fragments: ByteBuffer
    }

    private let wire: ConnectionWire
    private let initialSettings: [(parameter: UInt16, value: UInt32)]
    private var decoder: HPACKDecoder
    private var prefaceLeft = HTTP2ServerCodec.preface.count
    private var clientSettingsSeen = false
    private var settingsSent = false
    private var pending: ByteBuffer?
    private var streams: [Int32: Stream] = [:]
    private var lastClientStream: Int32 = 0
    private var headerBlock: HeaderBlock?
    private var emptyDataInARow = 0
    private var peerMaxFrameSize = HTTP2ServerCodec.maxFrameSize
    private var peerInitialWindow = HTTP2ServerCodec.streamWindow
    private var connectionSendWindow = HTTP2ServerCodec.streamWindow
    private var connectionReceiveWindow = HTTP2ServerCodec.streamWindow
    private var consumedSinceUpdate = 0
    private var output: ByteBuffer
    private var outputPromises: [EventLoopPromise<Void>] = []
    private var closedStreams: [Int32] = []
    private var reading = false
    private var failed = false

    /// `initialSettings`: the SETTINGS sent first (identifier, value), in order.
    init(wire: ConnectionWire, initialSettings: [(parameter: UInt16, value: UInt32)], allocator: ByteBufferAllocator) {
        self.wire = wire
        self.initialSettings = initialSettings
        decoder = HPACKDecoder(allocator: allocator, maxDynamicTableSize: 4096, maxHeaderListSize: Self.maxHeaderListSize)
        output = allocator.buffer(capacity: 1024)
    }

    // MARK: - Connection life

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendSettings(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendSettings(context: context)
        context.fireChannelActive()
    }

    /// The server's preface: SETTINGS, then the connection's window opened wide. (TLS holds them
    /// until its handshake is done.)
    private func sendSettings(context: ChannelHandlerContext) {
        guard !settingsSent else { return }
        settingsSent = true
        writeFrameHeader(length: 6 * initialSettings.count, type: 0x4, flags: 0, stream: 0)
        for (parameter, value) in initialSettings {
            output.writeInteger(parameter)
            output.writeInteger(value)
        }
        writeWindowUpdate(Self.windowBoost)
        flush(context: context)
    }

    private func writeWindowUpdate(_ increment: Int) {
        connectionReceiveWindow += increment
        writeFrameHeader(length: 4, type: 0x8, flags: 0, stream: 0)
        output.writeInteger(UInt32(increment))
    }

    func channelInactive(context: ChannelHandlerContext) {
        let error = ChannelError.ioOnClosedChannel
        for stream in streams.values { for item in stream.queued { item.promise?.fail(error) } }
        streams.removeAll()
        context.fireChannelInactive()
    }

    // MARK: - Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed, !wire.goAwayWritten else { return }
        var buffer = unwrapInboundIn(data)
        if var held = pending {
            pending = nil
            held.writeBuffer(&buffer)
            buffer = held
        }
        reading = true
        defer { reading = false }
        guard readPreface(&buffer, context: context) else { return }
        while !failed, !wire.goAwayWritten, buffer.readableBytes >= 9 {
            let length = Int(buffer.getInteger(at: buffer.readerIndex, as: UInt8.self)!) << 16
                | Int(buffer.getInteger(at: buffer.readerIndex + 1, as: UInt16.self)!)
            if length > Self.maxFrameSize {
                connectionError(.frameSizeError, context: context)
                return
            }
            guard buffer.readableBytes >= 9 + length else { break }
            let type = buffer.readInteger(as: UInt32.self)! & 0xFF  // length (24 bits) and type
            let flags = buffer.readInteger(as: UInt8.self)!
            let stream = Int32(bitPattern: buffer.readInteger(as: UInt32.self)! & 0x7FFF_FFFF)
            let payload = buffer.readSlice(length: length)!
            handleFrame(type: UInt8(type), flags: flags, stream: stream, payload: payload, context: context)
            deliverClosedStreams(context: context)
        }
        if !failed, buffer.readableBytes > 0 { pending = buffer.slice() }
    }

    /// Checks the client's connection preface (RFC 9113 §3.4); false while it is incomplete or wrong.
    private func readPreface(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) -> Bool {
        guard prefaceLeft > 0 else { return true }
        let offset = Self.preface.count - prefaceLeft
        let step = min(prefaceLeft, buffer.readableBytes)
        guard buffer.readBytes(length: step)! == Array(Self.preface[offset..<offset + step]) else {
            connectionError(.protocolError, context: context)
            return false
        }
        prefaceLeft -= step
        if prefaceLeft > 0 { return false }
        return true
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        if output.readableBytes > 0 { flush(context: context) }
    }

    private func handleFrame(type: UInt8, flags: UInt8, stream: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        if headerBlock != nil, type != 0x9 {
            connectionError(.protocolError, context: context)  // a header block is not interleaved (§6.10)
            return
        }
        if !clientSettingsSeen, type != 0x4 || flags & 0x1 != 0 {
            connectionError(.protocolError, context: context)  // the preface ends with SETTINGS (§3.4)
            return
        }
        switch type {
        case 0x0: readData(flags: flags, stream: stream, payload: payload, context: context)
        case 0x1: readHeaders(flags: flags, stream: stream, payload: payload, context: context)
        case 0x2: readPriority(stream: stream, payload: payload, context: context)
        case 0x3: readReset(stream: stream, payload: payload, context: context)
        case 0x4: readSettings(flags: flags, stream: stream, payload: payload, context: context)
        case 0x5: connectionError(.protocolError, context: context)  // PUSH_PROMISE from a client
        case 0x6: readPing(flags: flags, stream: stream, payload: payload, context: context)
        case 0x7: readGoAway(stream: stream, payload: payload, context: context)
        case 0x8: readWindowUpdate(stream: stream, payload: payload, context: context)
        case 0x9: readContinuation(flags: flags, stream: stream, payload: payload, context: context)
        default: break  // unknown frame types are ignored (§5.5)
        }
    }

    /// The payload without its padding (PADDED flag), or nil after a connection error.
    private func unpadded(_ payload: ByteBuffer, flags: UInt8, context: ChannelHandlerContext) -> (ByteBuffer, padding: Int?)? {
        guard flags & 0x8 != 0 else { return (payload, nil) }
        var payload = payload
        guard let padding = payload.readInteger(as: UInt8.self).map(Int.init), padding <= payload.readableBytes else {
            connectionError(.protocolError, context: context)
            return nil
        }
        return (payload.getSlice(at: payload.readerIndex, length: payload.readableBytes - padding)!, padding)
    }

    private func readData(flags: UInt8, stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        let endStream = flags & 0x1 != 0
        guard id != 0, id <= lastClientStream else { return connectionError(.protocolError, context: context) }
        connectionReceiveWindow -= payload.readableBytes
        guard connectionReceiveWindow >= 0 else { return connectionError(.flowControlError, context: context) }
        // Every byte read, whatever becomes of its stream, is given back to the connection's window.
        consumedSinceUpdate += payload.readableBytes
        if consumedSinceUpdate >= Self.windowBatch {
            writeWindowUpdate(consumedSinceUpdate)
            consumedSinceUpdate = 0
        }
        guard let (data, padding) = unpadded(payload, flags: flags, context: context) else { return }
        emptyDataInARow = data.readableBytes == 0 && !endStream ? emptyDataInARow + 1 : 0
        guard emptyDataInARow <= Self.emptyDataLimit else { return connectionError(.enhanceYourCalm, context: context) }
        guard let stream = streams[id] else { return }  // a stream already closed (reset, or answered and ended)
        if stream.remoteClosed { return streamError(id, code: .streamClosed, context: context) }
        stream.receiveWindow -= payload.readableBytes
        if stream.receiveWindow < 0 { return streamError(id, code: .flowControlError, context: context) }
        stream.dataBytes += data.readableBytes
        if let why = stream.lengthProblem(ended: endStream) { return malformed(id, why, context: context) }
        if endStream { stream.remoteClosed = true }
        let frame = HTTP2Frame(streamID: HTTP2StreamID(Int(id)), payload: .data(.init(data: .byteBuffer(data), endStream: endStream, paddingBytes: padding)))
        context.fireChannelRead(wrapInboundOut(frame))
        if endStream { closeIfDone(id, stream) }
    }

    private func readHeaders(flags: UInt8, stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard id != 0 else { return connectionError(.protocolError, context: context) }
        guard var (fragment, _) = unpadded(payload, flags: flags, context: context) else { return }
        var selfDependent = false
        if flags & 0x20 != 0 {  // PRIORITY: dependency and weight first
            guard let dependency = fragment.readInteger(as: UInt32.self), fragment.readInteger(as: UInt8.self) != nil else {
                return connectionError(.frameSizeError, context: context)
            }
            selfDependent = Int32(bitPattern: dependency & 0x7FFF_FFFF) == id
        }
        let block = HeaderBlock(streamID: id, endStream: flags & 0x1 != 0, selfDependent: selfDependent, fragments: fragment)
        if flags & 0x4 != 0 {
            finishHeaderBlock(block, context: context)
        } else {
            headerBlock = block
        }
    }

    private func readContinuation(flags: UInt8, stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard var block = headerBlock, block.streamID == id else { return connectionError(.protocolError, context: context) }
        headerBlock = nil
        var payload = payload
        block.fragments.writeBuffer(&payload)
        guard block.fragments.readableBytes <= Self.headerBlockLimit else { return connectionError(.enhanceYourCalm, context: context) }
        if flags & 0x4 != 0 {
            finishHeaderBlock(block, context: context)
        } else {
            headerBlock = block
        }
    }

    /// A whole header block: always decoded (the HPACK table must follow every block), then a
    /// new request, trailers, or a block on a stream already gone (dropped).
    private func finishHeaderBlock(_ block: HeaderBlock, context: ChannelHandlerContext) {
        var fragments = block.fragments
        let headers: HPACKHeaders
        do {
            headers = try decoder.decodeHeaders(from: &fragments)
        } catch {
            return connectionError(.compressionError, context: context)
        }
        let id = block.streamID
        if block.selfDependent {
            if id & 1 == 1, id > lastClientStream { lastClientStream = id }
            return streamError(id, code: .protocolError, context: context)
        }
        if let stream = streams[id] {
            guard !stream.remoteClosed else { return streamError(id, code: .streamClosed, context: context) }
            guard block.endStream else { return malformed(id, "trailers without END_STREAM", context: context) }
            if let why = HTTP2RequestRules.problem(inTrailers: headers) { return malformed(id, why, context: context) }
            if let why = stream.lengthProblem(ended: true) { return malformed(id, why, context: context) }
            stream.remoteClosed = true
            context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: HTTP2StreamID(Int(id)), payload: .headers(.init(headers: headers, endStream: true)))))
            closeIfDone(id, stream)
            return
        }
        guard id & 1 == 1 else { return connectionError(.protocolError, context: context) }  // clients open odd streams
        guard id > lastClientStream else { return }  // a stream already closed
        lastClientStream = id
        var contentLength: Int?
        if let why = HTTP2RequestRules.problem(inRequest: headers, contentLength: &contentLength) {
            return malformed(id, why, context: context)
        }
        if block.endStream, let declared = contentLength, declared != 0 {
            return malformed(id, "no body where content-length says \(declared)", context: context)
        }
        let stream = Stream(sendWindow: peerInitialWindow)
        stream.contentLength = contentLength
        stream.remoteClosed = block.endStream
        streams[id] = stream
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: HTTP2StreamID(Int(id)), payload: .headers(.init(headers: headers, endStream: block.endStream)))))
    }

    private func readPriority(stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard id != 0 else { return connectionError(.protocolError, context: context) }
        guard payload.readableBytes == 5 else { return streamError(id, code: .frameSizeError, context: context) }
        let dependency = payload.getInteger(at: payload.readerIndex, as: UInt32.self)!
        let priority = HTTP2Frame.StreamPriorityData(
            exclusive: dependency & 0x8000_0000 != 0, dependency: HTTP2StreamID(Int(dependency & 0x7FFF_FFFF)),
            weight: payload.getInteger(at: payload.readerIndex + 4, as: UInt8.self)!)
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: HTTP2StreamID(Int(id)), payload: .priority(priority))))
    }

    private func readReset(stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard payload.readableBytes == 4 else { return connectionError(.frameSizeError, context: context) }
        guard id != 0, id <= lastClientStream else { return connectionError(.protocolError, context: context) }
        let code = HTTP2ErrorCode(networkCode: Int(payload.getInteger(at: payload.readerIndex, as: UInt32.self)!))
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: HTTP2StreamID(Int(id)), payload: .rstStream(code))))
        if streams[id] != nil { close(id) }
    }

    private func readSettings(flags: UInt8, stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard id == 0 else { return connectionError(.protocolError, context: context) }
        if flags & 0x1 != 0 {
            guard payload.readableBytes == 0 else { return connectionError(.frameSizeError, context: context) }
            context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.ack))))
            return
        }
        guard payload.readableBytes % 6 == 0 else { return connectionError(.frameSizeError, context: context) }
        var payload = payload
        var settings: [HTTP2Setting] = []
        while let identifier = payload.readInteger(as: UInt16.self), let value = payload.readInteger(as: UInt32.self) {
            guard apply(setting: identifier, value: Int(value), context: context) else { return }
            settings.append(HTTP2Setting(parameter: HTTP2SettingsParameter(extensionSetting: Int(identifier)), value: Int(value)))
        }
        clientSettingsSeen = true
        writeFrameHeader(length: 0, type: 0x4, flags: 0x1, stream: 0)
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))))
    }

    /// One of the client's settings (§6.5.2); false after a connection error.
    private func apply(setting identifier: UInt16, value: Int, context: ChannelHandlerContext) -> Bool {
        switch identifier {
        case 0x2 where value > 1:
            connectionError(.protocolError, context: context)
            return false
        case 0x4:
            guard value <= Int(Int32.max) else {
                connectionError(.flowControlError, context: context)
                return false
            }
            let delta = value - peerInitialWindow
            peerInitialWindow = value
            for stream in streams.values { stream.sendWindow += delta }
            if delta > 0 { sendQueuedData() }
        case 0x5:
            guard (16_384...16_777_215).contains(value) else {
                connectionError(.protocolError, context: context)
                return false
            }
            peerMaxFrameSize = value
        default:
            break  // the mock keeps no table for its answers and pushes nothing
        }
        return true
    }

    private func readPing(flags: UInt8, stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard payload.readableBytes == 8 else { return connectionError(.frameSizeError, context: context) }
        guard id == 0 else { return connectionError(.protocolError, context: context) }
        let value = payload.getInteger(at: payload.readerIndex, as: UInt64.self)!
        let ack = flags & 0x1 != 0
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: value), ack: ack))))
        guard !ack, !wire.goAwayWritten else { return }
        writeFrameHeader(length: 8, type: 0x6, flags: 0x1, stream: 0)
        output.writeInteger(value)
    }

    private func readGoAway(stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard payload.readableBytes >= 8 else { return connectionError(.frameSizeError, context: context) }
        guard id == 0 else { return connectionError(.protocolError, context: context) }
        var payload = payload
        let last = payload.readInteger(as: UInt32.self)! & 0x7FFF_FFFF
        let code = HTTP2ErrorCode(networkCode: Int(payload.readInteger(as: UInt32.self)!))
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: HTTP2StreamID(Int(last)), errorCode: code, opaqueData: payload))
        context.fireChannelRead(wrapInboundOut(frame))
    }

    private func readWindowUpdate(stream id: Int32, payload: ByteBuffer, context: ChannelHandlerContext) {
        guard payload.readableBytes == 4 else { return connectionError(.frameSizeError, context: context) }
        let increment = Int(payload.getInteger(at: payload.readerIndex, as: UInt32.self)! & 0x7FFF_FFFF)
        if id == 0 {
            connectionSendWindow += increment
            guard increment > 0, connectionSendWindow <= Int(Int32.max) else {
                return connectionError(increment == 0 ? .protocolError : .flowControlError, context: context)
            }
        } else {
            guard id <= lastClientStream else { return connectionError(.protocolError, context: context) }
            guard let stream = streams[id] else { return }
            stream.sendWindow += increment
            guard increment > 0, stream.sendWindow <= Int(Int32.max) else {
                return streamError(id, code: increment == 0 ? .protocolError : .flowControlError, context: context)
            }
        }
        sendQueuedData()
    }

    // MARK: - Errors

    /// GOAWAY with the error, naming the last stream answered and the error's name as its reason,
    /// then the connection closes once it is written.
    private func connectionError(_ code: HTTP2ErrorCode, context: ChannelHandlerContext) {
        guard !failed else { return }
        failed = true
        if !wire.goAwayWritten {
            let networkCode = UInt32(code.networkCode)
            let debug = #"{"reason":"\#(Self.reason(forErrorCode: networkCode))"}"#
            writeFrameHeader(length: 8 + debug.utf8.count, type: 0x7, flags: 0, stream: 0)
            output.writeInteger(UInt32(bitPattern: wire.lastAnsweredStreamID))
            output.writeInteger(networkCode)
            output.writeString(debug)
            wire.goAwayWritten = true
        }
        let channel = context.channel
        let written = context.eventLoop.makePromise(of: Void.self)
        outputPromises.append(written)
        flush(context: context)
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
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

    /// RST_STREAM for one stream; the connection carries on.
    private func streamError(_ id: Int32, code: HTTP2ErrorCode, context: ChannelHandlerContext) {
        writeReset(id, code: code)
        if streams[id] != nil { close(id) }
    }

    /// A malformed request: RST_STREAM(PROTOCOL_ERROR), and the handler told why.
    private func malformed(_ id: Int32, _ why: String, context: ChannelHandlerContext) {
        streamError(id, code: .protocolError, context: context)
        context.fireErrorCaught(MalformedRequest(streamID: HTTP2StreamID(Int(id)), description: why))
    }

    // MARK: - Writing

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        let id = Int32(frame.streamID)
        switch frame.payload {
        case let .headers(headers):
            guard let stream = streams[id], !stream.localClosed else { return dropped(promise) }
            writeHeaders(id, headers.headers, endStream: headers.endStream)
            if headers.endStream { endLocally(id, stream) }
        case let .data(data):
            guard let stream = streams[id], !stream.localClosed, case let .byteBuffer(bytes) = data.data else { return dropped(promise) }
            let size = bytes.readableBytes
            if stream.queued.isEmpty, size <= min(stream.sendWindow, connectionSendWindow, peerMaxFrameSize) {
                // The usual answer: a small body the windows take at once.
                writeFrameHeader(length: size, type: 0x0, flags: data.endStream ? 0x1 : 0, stream: id)
                output.writeImmutableBuffer(bytes)
                stream.sendWindow -= size
                connectionSendWindow -= size
                if data.endStream { endLocally(id, stream) }
            } else {
                stream.queued.append((bytes, data.endStream, promise))
                sendQueued(id, stream)
                return
            }
        case let .rstStream(code):
            guard streams[id] != nil else { return dropped(promise) }
            writeReset(id, code: code)
            close(id)
        case let .settings(.settings(settings)):
            let known = settings.compactMap { setting in Self.identifiers[setting.parameter].map { ($0, UInt32(setting.value)) } }
            writeFrameHeader(length: 6 * known.count, type: 0x4, flags: 0, stream: 0)
            for (identifier, value) in known {
                output.writeInteger(identifier)
                output.writeInteger(value)
            }
        case let .goAway(lastStreamID, errorCode, opaqueData):
            let debug = opaqueData ?? ByteBuffer()
            writeFrameHeader(length: 8 + debug.readableBytes, type: 0x7, flags: 0, stream: 0)
            output.writeInteger(UInt32(Int32(lastStreamID)))
            output.writeInteger(UInt32(errorCode.networkCode))
            output.writeImmutableBuffer(debug)
            wire.goAwayWritten = true
        default:
            return dropped(promise)  // nothing else is sent by the mock
        }
        if let promise { outputPromises.append(promise) }
    }

    private static let identifiers: [HTTP2SettingsParameter: UInt16] = [
        .headerTableSize: 0x1, .enablePush: 0x2, .maxConcurrentStreams: 0x3, .initialWindowSize: 0x4, .maxFrameSize: 0x5, .maxHeaderListSize: 0x6,
    ]

    /// A frame for a stream already gone (reset by the client while its answer waited).
    private func dropped(_ promise: EventLoopPromise<Void>?) {
        promise?.succeed(())
    }

    func flush(context: ChannelHandlerContext) {
        if output.readableBytes > 0 {
            let promises = outputPromises
            outputPromises = []
            var promise: EventLoopPromise<Void>?
            if promises.count == 1 {
                promise = promises[0]
            } else if !promises.isEmpty {
                let all = context.eventLoop.makePromise(of: Void.self)
                all.futureResult.whenComplete { result in for each in promises { each.completeWith(result) } }
                promise = all
            }
            let bytes = output
            // The next flush is likely to be as large: one allocation, no regrowing.
            output = context.channel.allocator.buffer(capacity: max(1024, bytes.readableBytes))
            context.write(wrapOutboundOut(bytes), promise: promise)
        }
        context.flush()
        if !reading { deliverClosedStreams(context: context) }
    }

    /// The answer's header block, encoded in place after its frame header; cut into HEADERS and
    /// CONTINUATION frames only if it is longer than the client's frame size (never so far).
    private func writeHeaders(_ id: Int32, _ headers: HPACKHeaders, endStream: Bool) {
        let start = output.writerIndex
        writeFrameHeader(length: 0, type: 0x1, flags: 0x4 | (endStream ? 0x1 : 0), stream: id)
        HTTP2ResponseEncoder.encode(headers, into: &output)
        let length = output.writerIndex - start - 9
        if length <= peerMaxFrameSize {
            output.setInteger(UInt8(truncatingIfNeeded: length >> 16), at: start)
            output.setInteger(UInt16(truncatingIfNeeded: length), at: start + 1)
            return
        }
        var block = output.getSlice(at: start + 9, length: length)!
        output.moveWriterIndex(to: start)
        var first = true
        repeat {
            let piece = block.readSlice(length: min(block.readableBytes, peerMaxFrameSize))!
            let last = block.readableBytes == 0
            let flags: UInt8 = (last ? 0x4 : 0) | (first && endStream ? 0x1 : 0)
            writeFrameHeader(length: piece.readableBytes, type: first ? 0x1 : 0x9, flags: flags, stream: id)
            output.writeImmutableBuffer(piece)
            first = false
        } while block.readableBytes > 0
    }

    /// Writes what the windows allow of a stream's queued DATA.
    private func sendQueued(_ id: Int32, _ stream: Stream) {
        while !stream.queued.isEmpty {
            var item = stream.queued[0]
            let room = min(stream.sendWindow, connectionSendWindow, peerMaxFrameSize)
            if item.data.readableBytes > 0 && room <= 0 { return }
            let size = min(item.data.readableBytes, max(room, 0))
            let piece = item.data.readSlice(length: size)!
            let finished = item.data.readableBytes == 0
            writeFrameHeader(length: size, type: 0x0, flags: finished && item.endStream ? 0x1 : 0, stream: id)
            output.writeImmutableBuffer(piece)
            stream.sendWindow -= size
            connectionSendWindow -= size
            if finished {
                stream.queued.removeFirst()
                if let promise = item.promise { outputPromises.append(promise) }
                if item.endStream { return endLocally(id, stream) }
            } else {
                stream.queued[0] = item
            }
        }
    }

    private func sendQueuedData() {
        for (id, stream) in streams where !stream.queued.isEmpty { sendQueued(id, stream) }
    }

    private func writeReset(_ id: Int32, code: HTTP2ErrorCode) {
        writeFrameHeader(length: 4, type: 0x3, flags: 0, stream: id)
        output.writeInteger(UInt32(code.networkCode))
    }

    private func writeFrameHeader(length: Int, type: UInt8, flags: UInt8, stream: Int32) {
        output.writeInteger(UInt8(truncatingIfNeeded: length >> 16))
        output.writeInteger(UInt16(truncatingIfNeeded: length))
        output.writeInteger(type)
        output.writeInteger(flags)
        output.writeInteger(UInt32(bitPattern: stream))
    }

    // MARK: - Stream ends

    private func endLocally(_ id: Int32, _ stream: Stream) {
        stream.localClosed = true
        closeIfDone(id, stream)
    }

    private func closeIfDone(_ id: Int32, _ stream: Stream) {
        if stream.localClosed && stream.remoteClosed { close(id) }
    }

    private func close(_ id: Int32) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        for item in stream.queued { item.promise?.succeed(()) }
        closedStreams.append(id)
    }

    /// Tells the handler which streams have closed, outside any write it is in the middle of.
    private func deliverClosedStreams(context: ChannelHandlerContext) {
        while !closedStreams.isEmpty {
            let closed = closedStreams
            closedStreams = []
            for id in closed {
                context.fireUserInboundEventTriggered(StreamClosedEvent(streamID: HTTP2StreamID(Int(id)), reason: nil))
            }
        }
    }
}
