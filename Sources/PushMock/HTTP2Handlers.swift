import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOTLS
import PushCore

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

/// One connection's APNs: reads the frames of every stream, applies faults and checks, answers.
///
/// It works on the connection's frames directly instead of a child channel per stream
/// (NIOHTTP2's multiplexer): with one stream per request, the child channels, their pipelines
/// and promises cost about half of the CPU time. The price is doing flow control here.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// Bodies beyond this are refused at once; below it they are counted but not kept past
    /// ``MockRequestRecord/bodyKeptLimit``, so a stream never holds more than a few KB.
    static let maximumBodyBytes = 1 << 20
    /// SETTINGS_INITIAL_WINDOW_SIZE: any body up to the limit fits in a stream's window, so
    /// streams need no WINDOW_UPDATE; only the connection's window is replenished.
    static let streamWindow = maximumBodyBytes + (1 << 16)
    /// Replenish the connection window once this much has been read.
    private static let connectionWindowBatch = 1 << 15
    private static let connectionWindowBoost = 1 << 20

    /// A request being read, or answered and waiting for its stream to close.
    private struct Exchange {
        var headers: HPACKHeaders?
        var head = RequestHead()
        var body: ByteBuffer?
        var bodyByteCount = 0
        var answered = false
    }

    private let id: Int
    private let core: MockServerCore
    private var exchanges: [HTTP2StreamID: Exchange] = [:]
    /// Requests taken for an answer (not refused) on this connection.
    private var requests = 0
    private var streamLimitRaised = false
    private var goAwaySent = false
    private var unacknowledgedBytes = 0
    private var flushPending = false
    /// apns-id and apns-unique-id values; Foundation's UUID reads /dev/urandom each time.
    private var identifiers = UUIDGenerator()

    init(id: Int, core: MockServerCore) {
        self.id = id
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        // Room for many bodies in flight before the first WINDOW_UPDATE.
        let boost = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: Self.connectionWindowBoost))
        context.writeAndFlush(wrapOutboundOut(boost), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case let .headers(payload):
            // Exchanges are mutated in place: a copy would make the body buffer copy itself on write.
            if exchanges[frame.streamID] == nil {
                exchanges[frame.streamID] = Exchange(headers: payload.headers)
                for (name, value, _) in payload.headers { exchanges[frame.streamID]!.head.add(name: name, value: value) }
            }  // a later HEADERS frame holds trailers: APNs has none to read
            if payload.endStream, exchanges[frame.streamID]?.answered == false {
                requestComplete(frame.streamID, context: context)
            }

        case let .data(payload):
            let size = payload.data.readableBytes
            replenishConnectionWindow(consumed: size + (payload.paddingBytes.map { $0 + 1 } ?? 0), context: context)
            guard exchanges[frame.streamID]?.answered == false else { return }
            if case let .byteBuffer(buffer) = payload.data { keep(buffer, in: &exchanges[frame.streamID]!, context: context) }
            exchanges[frame.streamID]!.bodyByteCount += size
            if exchanges[frame.streamID]!.bodyByteCount > Self.maximumBodyBytes {
                // Answer now; the rest of the body is ignored (and the stream's window, sized for
                // the limit, soon stops the client).
                answer(frame.streamID, reply: Reply(reason: .payloadTooLarge), faults: core.faults, context: context)
            } else if payload.endStream {
                requestComplete(frame.streamID, context: context)
            }

        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if flushPending {
            flushPending = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent { exchanges[closed.streamID] = nil }
        context.fireUserInboundEventTriggered(event)
    }

    /// A TLS or HTTP/2 protocol error ends the connection (NIOHTTP2 has already sent GOAWAY
    /// or RST_STREAM), so a broken client cannot hold resources.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A stream error (say, a stream over the limit before the client saw SETTINGS) has
        // reset that stream only; the connection and its other streams carry on.
        if error is NIOHTTP2Errors.StreamError { return }
        context.close(promise: nil)
    }

    private func replenishConnectionWindow(consumed: Int, context: ChannelHandlerContext) {
        unacknowledgedBytes += consumed
        guard unacknowledgedBytes >= Self.connectionWindowBatch else { return }
        let update = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: unacknowledgedBytes))
        unacknowledgedBytes = 0
        context.write(wrapOutboundOut(update), promise: nil)
        flushPending = true
    }

    private func keep(_ buffer: ByteBuffer, in exchange: inout Exchange, context: ChannelHandlerContext) {
        let room = MockRequestRecord.bodyKeptLimit - (exchange.body?.readableBytes ?? 0)
        guard room > 0 else { return }
        let length = min(room, buffer.readableBytes)
        var kept = exchange.body ?? context.channel.allocator.buffer(capacity: length)
        exchange.body = nil  // the only reference now, so the write below does not copy
        kept.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: length)!)
        exchange.body = kept
    }

    // MARK: - Answering

    private func requestComplete(_ streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        guard let exchange = exchanges[streamID] else { return }
        if (streamLimitRaised ? core.maxConcurrentStreams : core.initialConcurrentStreams) == 0 {
            // A client may open streams before it has seen the SETTINGS that allow none (and
            // NIOHTTP2 enforces only acknowledged settings): refused, as APNs refuses excess streams,
            // and never taken as the valid token that would raise the limit.
            reset(streamID, exchange: exchange, code: .refusedStream, fault: "REFUSED_STREAM (SETTINGS allow 0 streams)", context: context)
            return
        }
        switch core.gate(requestsOnConnection: requests) {
        case .dropConnection:
            exchanges[streamID]?.answered = true
            record(exchange, streamID: streamID, status: 0, fault: "connection closed")
            context.close(promise: nil)

        case .refuse:
            reset(streamID, exchange: exchange, code: .refusedStream, fault: "REFUSED_STREAM", context: context)

        case .reset:
            reset(streamID, exchange: exchange, code: .internalError, fault: "RST_STREAM(INTERNAL_ERROR)", context: context)

        case let .answer(faults):
            if goAwaySent {
                reset(streamID, exchange: exchange, code: .refusedStream, fault: "REFUSED_STREAM (after GOAWAY)", context: context)
                return
            }
            requests += 1
            let now = Int64(Date().timeIntervalSince1970)
            let result = core.check.evaluate(exchange.head, bodyByteCount: exchange.bodyByteCount, now: now)
            if result.tokenAccepted { raiseStreamLimit(context: context) }
            exchanges[streamID]?.answered = true
            if faults.silent {
                // Read, never answered: the stream stays open until the client resets it.
                record(exchange, streamID: streamID, status: 0, fault: "silent: never answered", loggable: result.loggableAuthorization)
                return
            }
            var reply = Reply()
            switch result.outcome {
            case let .rejected(why):
                reply.reason = why
            case let .accepted(hex):
                reply.replacement = core.replacementAnswer(faults)
                if reply.replacement.map({ $0.status < 200 }) ?? true {
                    reply.reason = core.simulatedFailure(forDeviceHex: hex)
                }
            }
            let goAway = faults.goAwayAfterRequests.map { requests >= $0 } ?? false

            let respond = { [self] in
                var notes: [String] = []
                if goAway {
                    let code = faults.goAwayErrorCode == 0 ? "" : " (\(MockFaults.describeHTTP2ErrorCode(faults.goAwayErrorCode)))"
                    notes.append("GOAWAY\(code) after this answer")
                }
                answer(streamID, reply: reply, faults: faults, loggable: result.loggableAuthorization, notes: notes, context: context)
                if goAway {
                    sendGoAway(lastStreamID: streamID, reason: faults.goAwayReason, code: faults.goAwayErrorCode, context: context)
                }
            }
            let delay = min(faults.responseDelayMilliseconds, MockFaults.delayLimitMilliseconds)
            if delay > 0 {
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay))) {
                    respond()
                    context.flush()
                }
            } else {
                respond()
            }
        }
    }

    private func reset(
        _ streamID: HTTP2StreamID, exchange: Exchange, code: HTTP2ErrorCode, fault: String, context: ChannelHandlerContext
    ) {
        exchanges[streamID]?.answered = true
        record(exchange, streamID: streamID, status: 0, fault: fault)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(code))), promise: nil)
        flushPending = true
    }

    /// What a request is answered with.
    private struct Reply {
        /// The APNs reason, or nil for 200.
        var reason: RejectionReason?
        /// A fault's status and body in place of the above (a 1xx goes before it instead).
        var replacement: MockFaults.Answer?
    }

    private func answer(
        _ streamID: HTTP2StreamID, reply: Reply, faults: MockFaults, loggable: String? = nil, notes: [String] = [],
        context: ChannelHandlerContext
    ) {
        // The stream may be gone: reset by the client while a delayed answer waited.
        guard exchanges[streamID] != nil else { return }
        exchanges[streamID]!.answered = true
        let exchange = exchanges[streamID]!
        var notes = notes

        let clientID = exchange.head.apnsID.flatMap { RequestCheck.isCanonicalUUID($0) ? $0 : nil }
        let apnsID = clientID ?? identifiers.next()
        var response = HPACKHeaders()
        var body: ByteBuffer?
        let status: Int
        var loggedReason: String?
        var loggedID: String? = apnsID

        if let replacement = reply.replacement, replacement.status < 200 {
            // Informational: no body, not the end of the stream; the normal answer follows.
            let informational = HPACKHeaders([(":status", String(replacement.status))])
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: informational)))), promise: nil)
            notes.append("\(replacement.status) sent first")
        }
        if let replacement = reply.replacement, replacement.status >= 200 {
            // As a proxy answers: the status and the body, nothing APNs would add.
            status = replacement.status
            response.add(name: ":status", value: String(status))
            if !replacement.body.isEmpty { body = context.channel.allocator.buffer(bytes: replacement.body) }
            loggedReason = Self.reason(inBody: replacement.body)
            loggedID = nil
            notes.append("answer replaced by \(status)")
        } else if let reason = reply.reason {
            status = reason.status
            var json = #"{"reason":"\#(reason.apnsName)""#
            if reason.status == 410 { json += #","timestamp":\#(Int64(Date().timeIntervalSince1970 * 1000))"# }
            json += "}"
            body = context.channel.allocator.buffer(string: json)
            response.add(name: ":status", value: String(status))
            response.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
            response.add(name: "content-type", value: "application/json")
            loggedReason = reason.apnsName
        } else {
            status = 200
            response.add(name: ":status", value: "200")
            response.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
            response.add(name: "apns-unique-id", value: identifiers.next(), indexing: .nonIndexable)
        }
        // APNs dates its answers (pushctl doctor compares the clocks with it); a replaced answer stays bare.
        if reply.replacement.map({ $0.status < 200 }) ?? true { response.add(name: "date", value: HTTPDate.format(unixSeconds: Int64(Date().timeIntervalSince1970))) }
        if status != 200, let retryAfter = faults.retryAfter, MockFaults.isSendableHeaderValue(retryAfter) {
            response.add(name: "retry-after", value: retryAfter, indexing: .nonIndexable)
            notes.append("retry-after: \(retryAfter)")
        }
        let padding = min(max(0, faults.padBodyBytes), MockFaults.padBodyLimit)
        if padding > 0 {
            var padded = body ?? context.channel.allocator.buffer(capacity: padding)
            padded.writeRepeatingByte(UInt8(ascii: " "), count: padding)
            body = padded
            notes.append("body padded with \(padding) bytes")
        }

        if let body {
            response.add(name: "content-length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: response)))), promise: nil)
            let data = HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(body), endStream: true))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: data)), promise: nil)
        } else {
            let headers = HTTP2Frame.FramePayload.headers(.init(headers: response, endStream: true))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: headers)), promise: nil)
        }
        flushPending = true
        record(
            exchange, streamID: streamID, status: status, reason: loggedReason, apnsID: loggedID,
            fault: notes.isEmpty ? nil : notes.joined(separator: "; "), loggable: loggable)
    }

    /// The `reason` of a JSON body, for the log (nil when the body is not such JSON).
    private static func reason(inBody body: [UInt8]) -> String? {
        guard body.first == UInt8(ascii: "{"), body.count <= 4096 else { return nil }
        return (try? JSONValue.parse(body))?["reason"]?.stringValue
    }

    /// APNs starts a connection at one stream and raises the limit after a request with a valid token.
    private func raiseStreamLimit(context: ChannelHandlerContext) {
        guard !streamLimitRaised else { return }
        streamLimitRaised = true
        let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: core.maxConcurrentStreams)]
        context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
        flushPending = true
    }

    /// GOAWAY with an error code (NO_ERROR unless a fault says otherwise) and `{"reason":…}` as
    /// debug data, then close once it is written.
    private func sendGoAway(lastStreamID: HTTP2StreamID, reason: RejectionReason, code: UInt32, context: ChannelHandlerContext) {
        guard !goAwaySent else { return }
        goAwaySent = true
        let data = context.channel.allocator.buffer(string: #"{"reason":"\#(reason.apnsName)"}"#)
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: HTTP2ErrorCode(networkCode: Int(code)), opaqueData: data))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func record(
        _ exchange: Exchange, streamID: HTTP2StreamID, status: Int, reason: String? = nil, apnsID: String? = nil,
        fault: String?, loggable: String? = nil
    ) {
        guard core.journal.isActive else { return }
        var list: [(name: String, value: String)] = []
        for (name, value, _) in exchange.headers ?? HPACKHeaders() where !name.hasPrefix(":") {
            if name == APNsHeader.authorization {
                list.append((name, loggable ?? core.check.verifier.loggable(authorization: value)))
            } else {
                list.append((name, value))
            }
        }
        core.journal.append(
            MockRequestRecord(
                time: Date(),
                connectionID: id,
                streamID: Int(streamID),
                method: exchange.head.method ?? "",
                path: exchange.head.path ?? "",
                headers: list,
                body: exchange.body.map { String(decoding: $0.readableBytesView, as: UTF8.self) } ?? "",
                bodyByteCount: exchange.bodyByteCount,
                status: status,
                reason: reason,
                apnsID: apnsID,
                fault: fault))
    }
}
