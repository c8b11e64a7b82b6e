import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOSSL
import NIOTLS
import PushCore

/// One TCP connection's state. Touched only on that connection's event loop (its streams share it).
final class MockConnection: @unchecked Sendable {
    let id: Int
    let channel: any Channel
    /// Requests taken for an answer (not refused).
    var requests = 0
    var streamLimitRaised = false
    var goAwaySent = false

    init(id: Int, channel: any Channel) {
        self.id = id
        self.channel = channel
    }

    /// APNs starts a connection at one stream and raises the limit after a request with a valid token.
    func raiseStreamLimit(to limit: Int) {
        guard !streamLimitRaised else { return }
        streamLimitRaised = true
        let settings = HTTP2Frame(
            streamID: .rootStream,
            payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: limit)])))
        channel.writeAndFlush(settings, promise: nil)
    }

    /// GOAWAY with `{"reason":…}` as debug data, then close once it is written.
    func goAway(lastStreamID: HTTP2StreamID, reason: RejectionReason) {
        guard !goAwaySent else { return }
        goAwaySent = true
        let data = channel.allocator.buffer(string: #"{"reason":"\#(reason.apnsName)"}"#)
        let frame = HTTP2Frame(
            streamID: .rootStream,
            payload: .goAway(lastStreamID: lastStreamID, errorCode: .noError, opaqueData: data))
        let channel = self.channel
        channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Lets a connection through only if TLS agreed on `h2`: APNs refuses HTTP/1.x.
final class ALPNGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private var refused = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tls = event as? TLSUserEvent, case let .handshakeCompleted(negotiatedProtocol) = tls {
            if negotiatedProtocol == "h2" {
                context.fireUserInboundEventTriggered(event)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            } else {
                refused = true
                context.close(promise: nil)
            }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !refused { context.fireChannelRead(data) }
    }
}

/// The last handler of a connection: a TLS or HTTP/2 protocol error ends the connection
/// (NIOHTTP2 has already sent GOAWAY or RST_STREAM), so a broken client cannot hold resources.
final class ConnectionErrorHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// One HTTP/2 stream: collects the request, applies faults and checks, answers as APNs would.
final class APNsStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// Bodies beyond this are refused at once; below it they are counted but not kept past
    /// ``MockRequestRecord/bodyKeptLimit``, so a stream never holds more than a few KB.
    static let maximumBodyBytes = 1 << 20

    private let connection: MockConnection
    private let core: MockServerCore
    private var headers: HPACKHeaders?
    private var head = RequestHead()
    private var body: ByteBuffer?
    private var bodyByteCount = 0
    private var answered = false

    init(connection: MockConnection, core: MockServerCore) {
        self.connection = connection
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        switch unwrapInboundIn(data) {
        case let .headers(frame):
            if headers == nil {
                headers = frame.headers
                for (name, value, _) in frame.headers { head.add(name: name, value: value) }
            }  // a second HEADERS frame holds trailers: APNs has none to read
            if frame.endStream { requestComplete(context: context) }
        case let .data(frame):
            if case let .byteBuffer(buffer) = frame.data { take(buffer, context: context) }
            if bodyByteCount > Self.maximumBodyBytes {
                answer(context: context, reason: .payloadTooLarge, apnsID: nil, fault: nil, thenReset: true)
            } else if frame.endStream {
                requestComplete(context: context)
            }
        default:
            break
        }
    }

    private func take(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        let room = MockRequestRecord.bodyKeptLimit - (body?.readableBytes ?? 0)
        if room > 0 {
            var kept = body ?? context.channel.allocator.buffer(capacity: min(buffer.readableBytes, room))
            kept.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: min(room, buffer.readableBytes))!)
            body = kept
        }
        bodyByteCount += buffer.readableBytes
    }

    private func requestComplete(context: ChannelHandlerContext) {
        switch core.gate(requestsOnConnection: connection.requests) {
        case .dropConnection:
            answered = true
            record(status: 0, reason: nil, apnsID: nil, fault: "connection closed", context: context)
            connection.channel.close(mode: .all, promise: nil)
            return
        case .refuse:
            refuse(context: context, fault: "REFUSED_STREAM")
            return
        case let .answer(delay, goAwayAfter, goAwayReason):
            if connection.goAwaySent {
                refuse(context: context, fault: "REFUSED_STREAM (after GOAWAY)")
                return
            }
            connection.requests += 1
            let number = connection.requests

            let result = core.check.evaluate(head, bodyByteCount: bodyByteCount, now: Int64(Date().timeIntervalSince1970))
            if result.tokenAccepted { connection.raiseStreamLimit(to: core.maxConcurrentStreams) }
            let reason: RejectionReason?
            switch result.outcome {
            case let .rejected(why): reason = why
            case let .accepted(token): reason = core.simulatedFailure(for: token)
            }
            let clientID = head.apnsID.flatMap { RequestCheck.isCanonicalUUID($0) ? $0 : nil }
            let goAway = goAwayAfter.map { number >= $0 } ?? false

            let respond = {
                self.answer(
                    context: context, reason: reason, apnsID: clientID, loggable: result.loggableAuthorization,
                    fault: goAway ? "GOAWAY after this answer" : nil, thenReset: false)
                if goAway, let streamID = self.streamID(context) {
                    self.connection.goAway(lastStreamID: streamID, reason: goAwayReason)
                }
            }
            if delay > 0 {
                answered = true  // no more reads matter; the answer is on its way
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay)), respond)
            } else {
                respond()
            }
        }
    }

    private func refuse(context: ChannelHandlerContext, fault: String) {
        answered = true
        record(status: 0, reason: nil, apnsID: nil, fault: fault, context: context)
        context.writeAndFlush(wrapOutboundOut(.rstStream(.refusedStream)), promise: nil)
    }

    private func answer(
        context: ChannelHandlerContext, reason: RejectionReason?, apnsID clientID: String?,
        loggable: String? = nil, fault: String?, thenReset: Bool
    ) {
        answered = true
        let apnsID = clientID ?? UUID().uuidString.lowercased()
        var response = HPACKHeaders()
        if let reason {
            var json = #"{"reason":"\#(reason.apnsName)""#
            if reason.status == 410 { json += #","timestamp":\#(Int64(Date().timeIntervalSince1970 * 1000))"# }
            json += "}"
            let bytes = context.channel.allocator.buffer(string: json)
            response.add(name: ":status", value: String(reason.status))
            response.add(name: "apns-id", value: apnsID)
            response.add(name: "content-type", value: "application/json")
            response.add(name: "content-length", value: String(bytes.readableBytes))
            context.write(wrapOutboundOut(.headers(.init(headers: response))), promise: nil)
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(bytes), endStream: true))), promise: nil)
        } else {
            response.add(name: ":status", value: "200")
            response.add(name: "apns-id", value: apnsID)
            response.add(name: "apns-unique-id", value: UUID().uuidString.lowercased())
            context.write(wrapOutboundOut(.headers(.init(headers: response, endStream: true))), promise: nil)
        }
        if thenReset {
            // The client is still sending; tell it to stop (RFC 9113 §8.1).
            context.write(wrapOutboundOut(.rstStream(.noError)), promise: nil)
        }
        context.flush()
        record(status: reason?.status ?? 200, reason: reason?.apnsName, apnsID: apnsID, fault: fault, loggable: loggable, context: context)
    }

    private func streamID(_ context: ChannelHandlerContext) -> HTTP2StreamID? {
        try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
    }

    private func record(
        status: Int, reason: String?, apnsID: String?, fault: String?, loggable: String? = nil,
        context: ChannelHandlerContext
    ) {
        guard core.journal.isActive else { return }
        var list: [(name: String, value: String)] = []
        for (name, value, _) in headers ?? HPACKHeaders() where !name.hasPrefix(":") {
            if name == APNsHeader.authorization {
                list.append((name, loggable ?? core.check.verifier.loggable(authorization: value)))
            } else {
                list.append((name, value))
            }
        }
        var text = ""
        if let body { text = String(decoding: body.readableBytesView, as: UTF8.self) }
        core.journal.append(
            MockRequestRecord(
                time: Date(),
                connectionID: connection.id,
                streamID: streamID(context).map { Int($0) } ?? 0,
                method: head.method ?? "",
                path: head.path ?? "",
                headers: list,
                body: text,
                bodyByteCount: bodyByteCount,
                status: status,
                reason: reason,
                apnsID: apnsID,
                fault: fault))
    }
}
