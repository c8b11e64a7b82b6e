import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOTLS
import PushCore
import PushWords

/// Lets a connection through only if TLS agreed on `h2`: APNs refuses HTTP/1.x.
final class ALPNGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private var refused = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tls = event as? TLSUserEvent, case .handshakeCompleted(let negotiatedProtocol) = tls {
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

/// One connection's HTTP/2 frames to and from ``APNsRules``: it gathers each stream's request,
/// hands it over once its body is in, and writes what the rules decided. It holds no APNs rule;
/// the connection's state is one ``ConnectionState`` value, owned here.
///
/// It works on the connection's frames from NIOHTTP2's handler directly, with no child channel per
/// stream: with one stream per request, child channels, their pipelines and promises cost about
/// half of the CPU time. So it keeps the connection's receive window open itself (streams need
/// none), refuses streams over the limit the client has acknowledged, and closes connections that
/// never finish setting up or that idle.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// SETTINGS_INITIAL_WINDOW_SIZE, as APNs sends it. Every payload APNs accepts (5 KB at most) fits,
    /// so streams need no WINDOW_UPDATE; only the connection's window is replenished.
    static let streamWindow = 65_535
    /// A body that fills its stream's window without ending cannot end (``APNsRules/bodyOverflowReply``).
    static let maximumBodyBytes = streamWindow - 1
    /// The connection's receive window: opened to this at once, topped up when half of it is used
    /// (every DATA byte counts, on streams reset or not): room for many bodies in flight.
    static let connectionWindow = 1 << 20

    /// One stream's request as it arrives: a reference, so that the frames that add to it and
    /// the steps that answer it share one record and never copy its headers or body.
    private final class Exchange {
        let headers: HPACKHeaders?
        var head = RequestHead()
        var body: ByteBuffer?
        var bodyByteCount = 0
        var answered = false
        /// Counted among the connection's open streams (not refused).
        var counted = false
        /// When the last of its frames arrived, for ``MockProtocolLimits/idleTimeoutMilliseconds``.
        var lastActivity: NIODeadline

        init(headers: HPACKHeaders? = nil, now: NIODeadline) {
            self.headers = headers
            lastActivity = now
            if let headers { for (name, value, _) in headers { head.add(name: name, value: value) } }
        }
    }

    private let id: Int
    private let core: MockServerCore
    private let rules: APNsRules
    private let wire: ConnectionWire
    private var state: ConnectionState
    private var exchanges: [HTTP2StreamID: Exchange] = [:]
    /// The last exchange whose stream closed before it was answered: NIOHTTP2 closes a stream it
    /// resets for a stream error just before it reports the error, which the log line needs it for.
    private var closedUnanswered: (streamID: HTTP2StreamID, exchange: Exchange)?
    private var flushPending = false
    /// Closes the connection unless TLS and the client's preface are done in time.
    private var setupDeadline: Scheduled<Void>?
    private var idleCheck: Scheduled<Void>?

    init(id: Int, core: MockServerCore, wire: ConnectionWire, now: NIODeadline) {
        self.id = id
        self.core = core
        self.wire = wire
        rules = core.rules
        state = ConnectionState(limits: core.limits, initialStreamLimit: core.initialConcurrentStreams, now: now)
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        setupDeadline = context.eventLoop.scheduleTask(in: .milliseconds(Int64(core.limits.setupTimeoutMilliseconds))) {
            channel.close(promise: nil)
        }
        // NIOHTTP2 has written the server's SETTINGS (TLS holds them until its handshake is done).
        let boost = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: Self.connectionWindow - Self.streamWindow))
        context.writeAndFlush(wrapOutboundOut(boost), promise: nil)
        if let timeout = core.limits.idleTimeoutMilliseconds { scheduleIdleCheck(in: .milliseconds(Int64(timeout)), context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        setupDeadline?.cancel()
        idleCheck?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if let deadline = setupDeadline {
            // The first frame is the client's SETTINGS, after its preface: the connection is set up.
            deadline.cancel()
            setupDeadline = nil
        }
        let now = context.eventLoop.now
        if core.limits.idleTimeoutMilliseconds != nil { state.lastFrame = now }
        switch frame.payload {
        case .headers(let payload):
            let exchange: Exchange
            if let known = exchanges[frame.streamID] {
                exchange = known  // a later HEADERS frame holds trailers: APNs has none to read
            } else {
                exchange = Exchange(headers: payload.headers, now: now)
                exchanges[frame.streamID] = exchange
                switch state.admitStream() {
                case .take:
                    exchange.counted = true
                case .refuse(let why):
                    // Refused streams are never taken as the valid token that would raise the limit.
                    reset(frame.streamID, exchange: exchange, code: .refusedStream, fault: "REFUSED_STREAM (\(why))", context: context)
                    return
                }
            }
            if payload.endStream, !exchange.answered {
                requestComplete(frame.streamID, exchange: exchange, context: context)
            }

        case .data(let payload):
            readBody(payload, stream: frame.streamID, context: context)

        case .rstStream:
            if exchanges[frame.streamID]?.answered == false, let goAway = state.spend(.resetOfAWaitingStream, now: now) {
                sendGoAway(goAway, context: context)
            }

        case .ping(_, ack: false), .priority, .settings(.settings), .windowUpdate:
            if let goAway = state.spend(.controlFrame, now: now) { sendGoAway(goAway, context: context) }

        case .settings(.ack):
            state.settingsAcknowledged()

        default:
            break
        }
    }

    private func readBody(_ payload: HTTP2Frame.FramePayload.Data, stream streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        guard let exchange = exchanges[streamID], !exchange.answered else { return }
        guard case .byteBuffer(let buffer) = payload.data else { return }
        keep(buffer, in: exchange, context: context)
        exchange.bodyByteCount += buffer.readableBytes
        if core.limits.idleTimeoutMilliseconds != nil { exchange.lastActivity = context.eventLoop.now }
        if exchange.bodyByteCount > Self.maximumBodyBytes && !payload.endStream {
            // The stream's window, sized for what APNs accepts, would stop the client for ever.
            answer(streamID, reply: APNsRules.bodyOverflowReply, faults: core.faults, context: context)
            resetAfterAnswer(streamID, context: context)
        } else if payload.endStream {
            requestComplete(streamID, exchange: exchange, context: context)
        }
    }

    /// RST_STREAM(NO_ERROR) after an answer, flushed first: NIOHTTP2 drops a stream's unflushed DATA
    /// when it is reset.
    private func resetAfterAnswer(_ streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        context.flush()
        wire.ownResets.insert(streamID)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.noError))), promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if flushPending {
            flushPending = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The most frequent first: each cast that fails costs a look at the type.
        switch event {
        case let window as NIOHTTP2WindowUpdatedEvent:
            if window.streamID == .rootStream, let open = window.inboundWindowSize, open <= Self.connectionWindow / 2 {
                context.write(
                    wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: Self.connectionWindow - open))), promise: nil)
                flushPending = true
            }
        case let closed as StreamClosedEvent:
            if let exchange = exchanges.removeValue(forKey: closed.streamID) {
                if exchange.counted { state.streamClosed() }
                if !exchange.answered { closedUnanswered = (closed.streamID, exchange) }
            }
        case is TLSUserEvent:
            // A slow TLS handshake is not idleness: the idle clock starts when TLS is done.
            state.lastFrame = context.eventLoop.now
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A stream error in what the client sent (a malformed request, a stream's window overrun…):
    /// NIOHTTP2 has reset that stream and reports why; the connection and its other streams carry
    /// on, as RFC 9113 §8.1.1 wants. Any other error ends the connection, so that a broken client
    /// cannot hold resources: after NIOHTTP2's GOAWAY (a connection error) once that is out, after
    /// TLS errors at once. Once the mock's own GOAWAY is on its way, the end follows it.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if state.goAwaySent { return }
        guard !wire.goAwayWritten, error is any NIOHTTP2Error else {
            if wire.goAwayWritten { Self.finish(context.channel) } else { context.close(promise: nil) }
            return
        }
        // Not a reset of NIOHTTP2's: a frame of the mock's own for a stream already gone.
        guard let (streamID, code) = wire.takeStreamErrorReset() else { return }
        let exchange: Exchange
        if let open = exchanges[streamID] {
            exchange = open
        } else if let closed = closedUnanswered, closed.streamID == streamID {
            exchange = closed.exchange
        } else {
            exchange = Exchange(now: context.eventLoop.now)
        }
        closedUnanswered = nil
        if exchange.answered { return }
        exchange.answered = true
        let name = MockFaults.http2ErrorCodes.first { $0.code == code.networkCode }?.name ?? "0x\(String(code.networkCode, radix: 16))"
        let what = code == .protocolError ? "malformed request: " : ""
        record(exchange, streamID: streamID, status: 0, fault: "RST_STREAM(\(name)): \(what)\(Self.describe(error))")
    }

    /// NIOHTTP2's error by its type's name (`MissingPseudoHeader`), without values or source location.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.split(separator: "(", maxSplits: 1).first.map(String.init) ?? text
    }

    private func scheduleIdleCheck(in delay: TimeAmount, context: ChannelHandlerContext) {
        idleCheck = context.eventLoop.assumeIsolated().scheduleTask(in: max(delay, .milliseconds(10))) { [self] in
            guard context.channel.isActive, let timeout = core.limits.idleTimeoutMilliseconds else { return }
            let next = enforceIdleTimeout(milliseconds: timeout, context: context)
            scheduleIdleCheck(in: next - context.eventLoop.now, context: context)
        }
    }

    /// Answers the requests whose body stalled, and ends a connection with nothing to do, as the
    /// connection's state says (``ConnectionState/idleCheck(_:now:timeout:)``); when to look again.
    private func enforceIdleTimeout(milliseconds: Int, context: ChannelHandlerContext) -> NIODeadline {
        let streams = exchanges.map {
            ConnectionState.StreamActivity(streamID: Int32($0.key), answered: $0.value.answered, lastActivity: $0.value.lastActivity)
        }
        let check = state.idleCheck(streams, now: context.eventLoop.now, timeout: .milliseconds(Int64(milliseconds)))
        for streamID in check.stalled.map({ HTTP2StreamID(Int($0)) }) {
            answer(streamID, reply: APNsRules.idleReply(milliseconds: milliseconds), faults: core.faults, context: context)
            resetAfterAnswer(streamID, context: context)
        }
        if check.goAway { sendGoAway(APNsRules.idleGoAway, context: context) }
        if !check.stalled.isEmpty { context.flush() }
        return check.next
    }

    private func keep(_ buffer: ByteBuffer, in exchange: Exchange, context: ChannelHandlerContext) {
        let room = MockRequestRecord.bodyKeptLimit - (exchange.body?.readableBytes ?? 0)
        guard room > 0 else { return }
        let length = min(room, buffer.readableBytes)
        var kept = exchange.body ?? context.channel.allocator.buffer(capacity: length)
        exchange.body = nil  // the only reference now, so the write below does not copy
        kept.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: length)!)
        exchange.body = kept
    }

    // MARK: - Carrying out what the rules decide

    private func requestComplete(_ streamID: HTTP2StreamID, exchange: Exchange, context: ChannelHandlerContext) {
        let request = CompletedRequest(
            streamID: Int32(streamID), head: exchange.head, body: exchange.body, bodyByteCount: exchange.bodyByteCount,
            certificate: clientCertificate(context))
        let faults = core.faults
        let decision = rules.decide(request, faults: faults, state: &state, now: core.clock())
        if let limit = decision.raiseStreamLimit { sendStreamLimit(limit, context: context) }
        if let problem = decision.liveActivityProblem {
            core.onLiveActivityProblem?("\(problem.subject) on connection \(id), stream \(Int(streamID)): \(problem.text)")
        }
        if case .reset(let code) = decision.action {
            reset(streamID, exchange: exchange, code: code, fault: decision.fault ?? "", context: context)
            return
        }
        exchange.answered = true
        switch decision.action {
        case .ignore, .reset:
            break
        case .goAway(let goAway):
            record(exchange, streamID: streamID, status: 0, fault: decision.fault)
            sendGoAway(goAway, context: context)
        case .close:
            record(exchange, streamID: streamID, status: 0, fault: decision.fault)
            context.close(promise: nil)
        case .silence:
            record(exchange, streamID: streamID, status: 0, fault: decision.fault, loggable: decision.loggable)
        case .answer(let reply, let delay, let goAway):
            let respond = { [self] in
                answer(streamID, reply: reply, faults: faults, context: context)
                if let goAway { sendGoAway(goAway, context: context) }
            }
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
        exchange.answered = true
        record(exchange, streamID: streamID, status: 0, fault: fault)
        wire.ownResets.insert(streamID)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(code))), promise: nil)
        flushPending = true
    }

    /// Writes an answer; not when the stream is gone (reset by the client while a delayed answer
    /// waited) or after the mock's GOAWAY.
    private func answer(_ streamID: HTTP2StreamID, reply: APNsRules.Reply, faults: MockFaults, context: ChannelHandlerContext) {
        guard let exchange = exchanges[streamID], !state.goAwaySent else { return }
        exchange.answered = true
        state.answered(stream: Int32(streamID))
        wire.lastAnsweredStreamID = state.lastAnsweredStreamID
        let response = APNsResponse(reply, request: exchange.head, faults: faults, date: dateHeader(), now: core.clock(), identifiers: &state.identifiers)
        if let informational = response.informational {
            let headers = HPACKHeaders([(":status", String(informational))])
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers)))), promise: nil)
        }
        if let body = response.body {
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: response.headers)))), promise: nil)
            let data = HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(body), endStream: true))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: data)), promise: nil)
        } else {
            let headers = HTTP2Frame.FramePayload.headers(.init(headers: response.headers, endStream: true))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: headers)), promise: nil)
        }
        flushPending = true
        record(
            exchange, streamID: streamID, status: response.status, reason: response.loggedReason, apnsID: response.loggedID,
            fault: response.notes.isEmpty ? nil : response.notes.joined(separator: "; "), loggable: reply.loggable, detail: reply.detail)
    }

    /// A SETTINGS frame with the raised stream limit. NIOHTTP2 is told its ceiling again; the
    /// client gets the real limit (see ConnectionWire).
    private func sendStreamLimit(_ limit: Int, context: ChannelHandlerContext) {
        wire.advertisedStreamLimit = UInt32(limit)
        let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: ConnectionWire.streamCeiling)]
        context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
        flushPending = true
    }

    /// GOAWAY with its code and `{"reason":…}` as debug data, then the end of the connection once
    /// it is written (``finish(_:)``). It names the last stream answered unless it says otherwise:
    /// the streams after it were not processed, and a client retries them on a new connection.
    private func sendGoAway(_ goAway: APNsRules.GoAway, context: ChannelHandlerContext) {
        guard !state.goAwaySent else { return }
        state.goAwaySent = true
        let last = HTTP2StreamID(Int(goAway.lastStreamID ?? state.lastAnsweredStreamID))
        let data = context.channel.allocator.buffer(string: #"{"reason":"\#(goAway.reason.apnsName)"}"#)
        let frame = HTTP2Frame(
            streamID: .rootStream, payload: .goAway(lastStreamID: last, errorCode: HTTP2ErrorCode(networkCode: Int(goAway.code)), opaqueData: data))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in Self.finish(channel) }
    }

    /// How long a connection that is ending waits for the client to close its side.
    static let lingerTime = TimeAmount.seconds(2)

    /// Ends a connection after what has been written to it, as nginx's lingering close does: TLS's
    /// close_notify and TCP's FIN go out after the last byte (`close(mode: .output)`), what the client
    /// still sends is read and dropped, and the connection closes when the client closes its side, or
    /// after ``lingerTime``. Closing at once while the client's requests still arrive makes TCP send
    /// RST, and a client loses the answers (and the GOAWAY) it had not read yet: it then sends those
    /// requests again, though they were answered.
    static func finish(_ channel: any Channel) {
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: lingerTime) { channel.close(promise: nil) }
    }

    /// The `date` header's value, formatted once a second (not once an answer).
    private var lastDate: (second: Int64, text: String) = (-1, "")

    private func dateHeader() -> String {
        let now = Int64(core.clock())
        if now != lastDate.second { lastDate = (now, HTTPDate.format(unixSeconds: now)) }
        return lastDate.text
    }

    /// The verified TLS client certificate of this connection (read once), if the client sent one.
    private var peerCertificate: ProviderCertificate??

    private func clientCertificate(_ context: ChannelHandlerContext) -> ProviderCertificate? {
        if let known = peerCertificate { return known }
        let facts = ClientCertificates.peer(of: context.pipeline)
        peerCertificate = .some(facts)
        return facts
    }

    private func record(
        _ exchange: Exchange, streamID: HTTP2StreamID, status: Int, reason: String? = nil, apnsID: String? = nil,
        fault: String?, loggable: String? = nil, detail: String? = nil
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
        if let certificate = peerCertificate ?? nil, exchange.head.authorization == nil {
            list.append(("tls-client-certificate", ClientCertificates.summary(certificate)))
        }
        core.journal.append(
            MockRequestRecord(
                time: Date(timeIntervalSince1970: core.clock()),
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
                fault: fault,
                detail: detail))
    }
}
