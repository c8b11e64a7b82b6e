import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import PushMock

// A client that writes HTTP/2 frames byte by byte over TLS: it can break every rule a real client
// library refuses to break (more streams than SETTINGS allow, malformed headers, floods), and it
// keeps every frame the mock sends, so a test asserts what a client would notice.

/// One frame the mock sent.
struct WireFrame: Sendable, CustomStringConvertible {
    let type: UInt8
    let flags: UInt8
    let streamID: UInt32
    let payload: [UInt8]
    /// A HEADERS frame's fields, decoded.
    var fields: [(name: String, value: String)] = []

    static let data: UInt8 = 0, headers: UInt8 = 1, rstStream: UInt8 = 3, settings: UInt8 = 4
    static let ping: UInt8 = 6, goAway: UInt8 = 7, windowUpdate: UInt8 = 8

    var endStream: Bool { flags & 0x1 != 0 && (type == Self.data || type == Self.headers) }
    var isAck: Bool { flags & 0x1 != 0 && (type == Self.settings || type == Self.ping) }
    /// RST_STREAM's or GOAWAY's error code.
    var errorCode: UInt32? {
        switch type {
        case Self.rstStream where payload.count == 4: return Self.integer(payload, at: 0)
        case Self.goAway where payload.count >= 8: return Self.integer(payload, at: 4)
        default: return nil
        }
    }
    var lastStreamID: UInt32? { type == Self.goAway && payload.count >= 8 ? Self.integer(payload, at: 0) & 0x7FFF_FFFF : nil }
    var debugData: String { type == Self.goAway && payload.count > 8 ? String(decoding: payload[8...], as: UTF8.self) : "" }
    var status: String? { fields.first { $0.name == ":status" }?.value }
    /// SETTINGS parameters by identifier.
    var settings: [UInt16: UInt32] {
        guard type == Self.settings else { return [:] }
        var result: [UInt16: UInt32] = [:]
        var at = 0
        while at + 6 <= payload.count {
            result[UInt16(payload[at]) << 8 | UInt16(payload[at + 1])] = Self.integer(payload, at: at + 2)
            at += 6
        }
        return result
    }

    static func integer(_ bytes: [UInt8], at index: Int) -> UInt32 {
        bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    var description: String {
        let names = [0: "DATA", 1: "HEADERS", 2: "PRIORITY", 3: "RST_STREAM", 4: "SETTINGS", 6: "PING", 7: "GOAWAY", 8: "WINDOW_UPDATE"]
        var text = "\(names[Int(type)] ?? "type \(type)") stream=\(streamID) flags=\(flags)"
        if let errorCode { text += " error=\(errorCode)" }
        if let lastStreamID { text += " last=\(lastStreamID) \(debugData)" }
        if !fields.isEmpty { text += " \(fields.map { "\($0.name): \($0.value)" }.joined(separator: ", "))" }
        if type == Self.settings { text += " \(settings.sorted { $0.key < $1.key })" }
        return text
    }
}

/// Frames to send, encoded by hand (HPACK through NIOHPACK, which checks nothing).
struct FrameWriter {
    var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
    var bytes = ByteBufferAllocator().buffer(capacity: 1024)

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    mutating func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32, payload: [UInt8] = []) {
        bytes.writeInteger(UInt8(payload.count >> 16))
        bytes.writeInteger(UInt16(payload.count & 0xFFFF))
        bytes.writeInteger(type)
        bytes.writeInteger(flags)
        bytes.writeInteger(stream)
        bytes.writeBytes(payload)
    }

    mutating func settings(_ values: [(UInt16, UInt32)]) {
        var payload: [UInt8] = []
        for (id, value) in values { payload += [UInt8(id >> 8), UInt8(id & 0xFF)] + Self.bigEndian(value) }
        frame(type: WireFrame.settings, stream: 0, payload: payload)
    }

    mutating func settingsAck() { frame(type: WireFrame.settings, flags: 0x1, stream: 0) }

    mutating func headers(stream: UInt32, _ fields: [(String, String)], endStream: Bool) {
        frame(type: WireFrame.headers, flags: 0x4 | (endStream ? 0x1 : 0), stream: stream, payload: headerBlock(fields))
    }

    /// A header block for `fields`, through this writer's HPACK table, to frame by hand.
    mutating func headerBlock(_ fields: [(String, String)]) -> [UInt8] {
        var block = ByteBufferAllocator().buffer(capacity: 256)
        try! encoder.encode(headers: HPACKHeaders(fields), to: &block)
        return Array(block.readableBytesView)
    }

    mutating func data(stream: UInt32, _ body: [UInt8], endStream: Bool) {
        frame(type: WireFrame.data, flags: endStream ? 0x1 : 0, stream: stream, payload: body)
    }

    mutating func priority(stream: UInt32, dependsOn: UInt32 = 0, weight: UInt8 = 15) {
        frame(type: 2, stream: stream, payload: Self.bigEndian(dependsOn) + [weight])
    }

    mutating func ping(_ value: UInt64) {
        frame(type: WireFrame.ping, stream: 0, payload: (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) })
    }

    mutating func reset(stream: UInt32, code: UInt32 = 0x8) {
        frame(type: WireFrame.rstStream, stream: stream, payload: Self.bigEndian(code))
    }

    /// A request the mock accepts: POST, the standard headers, a small alert.
    mutating func request(stream: UInt32, headers: [(String, String)], path: String = "/3/device/\(sampleToken)", body: String = #"{"aps":{"alert":"Hi"}}"#) {
        let fields = [(":method", "POST"), (":scheme", "https"), (":path", path), (":authority", "localhost")] + headers
        self.headers(stream: stream, fields, endStream: false)
        data(stream: stream, Array(body.utf8), endStream: true)
    }

    /// Takes what has been written so far.
    mutating func take() -> ByteBuffer {
        defer { bytes = ByteBufferAllocator().buffer(capacity: 1024) }
        return bytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}

/// Splits the bytes the mock writes into frames, decoding HEADERS' fields.
struct WireFrameReader {
    private var pending: ByteBuffer?
    private var decoder = HPACKDecoder(allocator: ByteBufferAllocator())

    /// The frames these bytes complete (a frame split across reads waits for its end).
    mutating func read(_ bytes: ByteBuffer) -> [WireFrame] {
        var incoming = bytes
        if pending == nil { pending = incoming } else { pending!.writeBuffer(&incoming) }
        var received: [WireFrame] = []
        while var buffer = pending, buffer.readableBytes >= 9 {
            let length =
                Int(buffer.getInteger(at: buffer.readerIndex, as: UInt8.self)!) << 16
                | Int(buffer.getInteger(at: buffer.readerIndex + 1, as: UInt16.self)!)
            guard buffer.readableBytes >= 9 + length else { break }
            buffer.moveReaderIndex(forwardBy: 3)
            let type = buffer.readInteger(as: UInt8.self)!
            let flags = buffer.readInteger(as: UInt8.self)!
            let stream = buffer.readInteger(as: UInt32.self)! & 0x7FFF_FFFF
            var payload = buffer.readSlice(length: length)!
            pending = buffer
            var frame = WireFrame(type: type, flags: flags, streamID: stream, payload: Array(payload.readableBytesView))
            if type == WireFrame.headers {
                if flags & 0x8 != 0 { payload.moveReaderIndex(forwardBy: 1) }  // padded (the mock never pads)
                if flags & 0x20 != 0 { payload.moveReaderIndex(forwardBy: 5) }
                if let fields = try? decoder.decodeHeaders(from: &payload) { frame.fields = fields.map { ($0.name, $0.value) } }
            }
            received.append(frame)
        }
        if pending?.readableBytes == 0 { pending = nil }
        return received
    }
}

/// A TLS connection to the mock that sends raw bytes and keeps every frame the mock sends.
final class RawHTTP2Client: Sendable {
    private struct State {
        var frames: [WireFrame] = []
        var closed = false
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, state: NIOLockedValueBox<State>) {
        self.group = group
        self.channel = channel
        self.state = state
    }

    /// How far a connection goes on its own: a client that stops half-way holds a connection open.
    enum SetUp: Sendable {
        /// TCP only: no TLS ClientHello.
        case tcp
        /// TLS with ALPN h2, then nothing: no HTTP/2 preface.
        case tls
        /// TLS, then the client preface (with empty SETTINGS).
        case preface
    }

    /// Connects, completes TLS with ALPN h2 and sends the client preface (with empty SETTINGS). `acknowledgeSettings`: answer the mock's SETTINGS
    /// with an ACK, as every client must (the mock enforces a stream limit once it is acknowledged).
    /// `from`: the local address to connect from (another loopback address plays another machine).
    static func connect(
        to harness: Harness, acknowledgeSettings: Bool = true, setUp: SetUp = .preface, from source: String? = nil
    ) async throws -> RawHTTP2Client {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(harness.caPath)
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let state = NIOLockedValueBox(State())
        do {
            var bootstrap = ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if setUp != .tcp {
                            try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                        }
                        try channel.pipeline.syncOperations.addHandler(
                            FrameCollector(state: state, acknowledgeSettings: acknowledgeSettings, sendPreface: setUp == .preface))
                    }
                }
            if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
            let channel = try await bootstrap.connect(host: "127.0.0.1", port: harness.server.port).get()
            return RawHTTP2Client(group: group, channel: channel, state: state)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    func send(_ writer: inout FrameWriter) async throws {
        try await channel.writeAndFlush(writer.take()).get()
    }

    var frames: [WireFrame] { state.withLockedValue { $0.frames } }
    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Waits until `condition` holds for the frames received (or the connection closed), at most `seconds`.
    @discardableResult
    func wait(seconds: Double = 10, until condition: ([WireFrame], Bool) -> Bool) async throws -> [WireFrame] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let (frames, closed) = state.withLockedValue { ($0.frames, $0.closed) }
            if condition(frames, closed) { return frames }
            if closed { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return frames
    }

    func close() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Splits the byte stream into frames; answers SETTINGS with an ACK when asked to.
    private final class FrameCollector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private var reader = WireFrameReader()
        private let state: NIOLockedValueBox<State>
        private let acknowledgeSettings: Bool
        private let sendPreface: Bool

        init(state: NIOLockedValueBox<State>, acknowledgeSettings: Bool, sendPreface: Bool) {
            self.state = state
            self.acknowledgeSettings = acknowledgeSettings
            self.sendPreface = sendPreface
        }

        /// The client preface goes first, before any ACK of the mock's SETTINGS.
        func channelActive(context: ChannelHandlerContext) {
            guard sendPreface else { return context.fireChannelActive() }
            var preface = context.channel.allocator.buffer(capacity: 40)
            preface.writeBytes(FrameWriter.preface)
            preface.writeBytes([0, 0, 0, WireFrame.settings, 0, 0, 0, 0, 0])
            context.writeAndFlush(wrapOutboundOut(preface), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let received = reader.read(unwrapInboundIn(data))
            for frame in received where acknowledgeSettings && frame.type == WireFrame.settings && !frame.isAck {
                var ack = context.channel.allocator.buffer(capacity: 9)
                ack.writeBytes([0, 0, 0, WireFrame.settings, 1, 0, 0, 0, 0])
                context.writeAndFlush(wrapOutboundOut(ack), promise: nil)
            }
            state.withLockedValue { $0.frames += received }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

extension Harness {
    /// The headers pushctl sends for an alert, for a raw request.
    var rawHeaders: [(String, String)] { standardHeaders }
}
