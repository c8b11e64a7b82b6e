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

/// One connection's APNs: reads the frames of every stream, applies faults and checks, answers.
///
/// It works on the connection's frames from NIOHTTP2's handler directly, with no child channel per
/// stream: with one stream per request, child channels, their pipelines and promises cost about
/// half of the CPU time. So it keeps the connection's receive window open itself (streams need
/// none), refuses streams over the limit the client has acknowledged, as APNs does, and closes
/// connections that never finish setting up or that idle.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// SETTINGS_INITIAL_WINDOW_SIZE, as APNs sends it. Every payload APNs accepts (5 KB at most) fits,
    /// so streams need no WINDOW_UPDATE; only the connection's window is replenished.
    static let streamWindow = 65_535
    /// A body that fills its stream's window without ending cannot end: it is answered 413 at once,
    /// then reset with NO_ERROR, as nginx does, so that the client stops uploading.
    static let maximumBodyBytes = streamWindow - 1
    /// The connection's receive window: opened to this at once, topped up when half of it is used
    /// (every DATA byte counts, on streams reset or not): room for many bodies in flight.
    static let connectionWindow = 1 << 20

    /// A request being read, or answered and waiting for its stream to close.
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
        var lastActivity = NIODeadline.now()

        init(headers: HPACKHeaders? = nil) {
            self.headers = headers
            if let headers { for (name, value, _) in headers { head.add(name: name, value: value) } }
        }
    }

    private let id: Int
    private let core: MockServerCore
    private let wire: ConnectionWire
    private var exchanges: [HTTP2StreamID: Exchange] = [:]
    /// The last exchange whose stream closed before it was answered: NIOHTTP2 closes a stream it
    /// resets for a stream error just before it reports the error, which the log line needs it for.
    private var closedUnanswered: (streamID: HTTP2StreamID, exchange: Exchange)?
    /// Requests taken for an answer (not refused) on this connection.
    private var requests = 0
    private var streamLimitRaised = false
    private var goAwaySent = false
    private var flushPending = false
    /// apns-id and apns-unique-id values; Foundation's UUID reads /dev/urandom each time.
    private var identifiers = UUIDGenerator()

    /// SETTINGS_MAX_CONCURRENT_STREAMS values sent and not yet acknowledged, oldest first.
    private var streamLimitsUnacknowledged: [Int]
    /// The limit the client has acknowledged; nil before its first SETTINGS ACK (RFC 9113 §6.5.3: a
    /// setting binds once acknowledged, so a client may open streams in the first round trip).
    private var streamLimitAcknowledged: Int?
    private var openStreams = 0
    private var policy: ConnectionPolicy
    /// Closes the connection unless TLS and the client's preface are done in time.
    private var setupDeadline: Scheduled<Void>?
    private var idleCheck: Scheduled<Void>?

    init(id: Int, core: MockServerCore, wire: ConnectionWire) {
        self.id = id
        self.core = core
        self.wire = wire
        streamLimitsUnacknowledged = [core.initialConcurrentStreams]
        policy = ConnectionPolicy(limits: core.limits)
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
        if core.limits.idleTimeoutMilliseconds != nil { policy.lastFrame = .now() }
        switch frame.payload {
        case .headers(let payload):
            let exchange: Exchange
            if let known = exchanges[frame.streamID] {
                exchange = known  // a later HEADERS frame holds trailers: APNs has none to read
            } else {
                exchange = Exchange(headers: payload.headers)
                exchanges[frame.streamID] = exchange
                guard admit(frame.streamID, exchange: exchange, context: context) else { return }
            }
            if payload.endStream, !exchange.answered {
                requestComplete(frame.streamID, exchange: exchange, context: context)
            }

        case .data(let payload):
            readBody(payload, stream: frame.streamID, context: context)

        case .rstStream:
            // curl resets every stream after its answer: only resets of streams still waiting count.
            if exchanges[frame.streamID]?.answered == false, policy.countReset() {
                sendGoAway(reason: .unknown("TooManyStreamResets"), code: UInt32(HTTP2ErrorCode.enhanceYourCalm.networkCode), context: context)
            }

        case .ping(_, ack: false), .priority, .settings(.settings), .windowUpdate:
            if policy.spendControlFrame() {
                sendGoAway(reason: .unknown("TooManyControlFrames"), code: UInt32(HTTP2ErrorCode.enhanceYourCalm.networkCode), context: context)
            }

        case .settings(.ack):
            if !streamLimitsUnacknowledged.isEmpty { streamLimitAcknowledged = streamLimitsUnacknowledged.removeFirst() }

        default:
            break
        }
    }

    private func readBody(_ payload: HTTP2Frame.FramePayload.Data, stream streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        guard let exchange = exchanges[streamID], !exchange.answered else { return }
        guard case .byteBuffer(let buffer) = payload.data else { return }
        keep(buffer, in: exchange, context: context)
        exchange.bodyByteCount += buffer.readableBytes
        if core.limits.idleTimeoutMilliseconds != nil { exchange.lastActivity = .now() }
        if exchange.bodyByteCount > Self.maximumBodyBytes && !payload.endStream {
            // Answer now; the stream's window, sized for what APNs accepts, would stop the client
            // for ever: RST_STREAM(NO_ERROR) after the answer tells it to stop sending.
            answer(
                streamID, reply: Reply(reason: .payloadTooLarge), faults: core.faults,
                notes: ["answered before the end of the body; RST_STREAM(NO_ERROR) after"], context: context)
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

    /// Takes a new stream, or refuses it with RST_STREAM(REFUSED_STREAM) when it is over the limit
    /// the client has acknowledged (or when the limit is 0), as APNs refuses excess streams.
    private func admit(_ streamID: HTTP2StreamID, exchange: Exchange, context: ChannelHandlerContext) -> Bool {
        let limit = streamLimitAcknowledged ?? (streamLimitsUnacknowledged.first == 0 ? 0 : Int.max)
        if goAwaySent || openStreams >= limit {
            // Refused streams are never taken as the valid token that would raise the limit.
            let why = goAwaySent ? "after GOAWAY" : "SETTINGS allow \(limit) stream\(limit == 1 ? "" : "s")"
            reset(streamID, exchange: exchange, code: .refusedStream, fault: "REFUSED_STREAM (\(why))", context: context)
            return false
        }
        exchange.counted = true
        openStreams += 1
        policy.streamOpened()
        return true
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
                if exchange.counted { openStreams -= 1 }
                if !exchange.answered { closedUnanswered = (closed.streamID, exchange) }
            }
        case is TLSUserEvent:
            // A slow TLS handshake is not idleness: the idle clock starts when TLS is done.
            policy.lastFrame = .now()
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
        if goAwaySent { return }
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
            exchange = Exchange()
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
            scheduleIdleCheck(in: next - .now(), context: context)
        }
    }

    /// Answers 400 IdleTimeout to requests whose body stalled, and ends a connection with nothing to
    /// do. When to look again: when the oldest activity left would be too old.
    private func enforceIdleTimeout(milliseconds: Int, context: ChannelHandlerContext) -> NIODeadline {
        let timeout = TimeAmount.milliseconds(Int64(milliseconds))
        let cutoff = NIODeadline.now() - timeout
        let stalled = exchanges.filter { !$0.value.answered && $0.value.lastActivity < cutoff }.map(\.key)
        for streamID in stalled {
            answer(
                streamID, reply: Reply(reason: .idleTimeout), faults: core.faults, notes: ["no frame for \(milliseconds) ms; RST_STREAM(NO_ERROR) after"],
                context: context)
            resetAfterAnswer(streamID, context: context)
        }
        if exchanges.isEmpty, policy.lastFrame < cutoff {
            sendGoAway(reason: .idleTimeout, code: 0, context: context)
        }
        if !stalled.isEmpty { context.flush() }
        if exchanges.isEmpty { return policy.lastFrame + timeout }
        // Answered requests waiting for their stream to close (a delayed or a silent answer) are no
        // idleness of the client's; they are looked at again after a timeout.
        return exchanges.values.lazy.filter { !$0.answered }.map(\.lastActivity).min().map { $0 + timeout } ?? .now() + timeout
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

    // MARK: - Answering

    private func requestComplete(_ streamID: HTTP2StreamID, exchange: Exchange, context: ChannelHandlerContext) {
        // After the mock's GOAWAY nothing more is processed: the connection closes once the GOAWAY
        // is out, and an answer written after it would be lost (the client would send the request
        // again, and it would have been handled twice).
        guard !goAwaySent else {
            exchange.answered = true
            return
        }
        if exchange.head.authorization == nil, let certificate = clientCertificate(context), certificate.isPushCertificate,
            !certificate.serves(core.check.environment)
        {
            // As APNs: a certificate for the other environment gets no answer, only a GOAWAY
            // whose debug data says why (no stream processed).
            exchange.answered = true
            record(exchange, streamID: streamID, status: 0, fault: "GOAWAY BadCertificateEnvironment (the mock plays \(core.check.environment.rawValue))")
            sendGoAway(lastStreamID: .rootStream, reason: .badCertificateEnvironment, code: 0, context: context)
            return
        }
        switch core.gate(requestsOnConnection: requests) {
        case .dropConnection:
            exchange.answered = true
            record(exchange, streamID: streamID, status: 0, fault: "connection closed")
            context.close(promise: nil)

        case .refuse:
            reset(streamID, exchange: exchange, code: .refusedStream, fault: "REFUSED_STREAM", context: context)

        case .reset:
            reset(streamID, exchange: exchange, code: .internalError, fault: "RST_STREAM(INTERNAL_ERROR)", context: context)

        case .answer(let faults):
            answerPush(streamID, exchange: exchange, faults: faults, context: context)
        }
    }

    /// A request the faults let through: checked in the order APNs checks one, answered (after
    /// the configured delay), and followed by a GOAWAY when a fault or the BadDeviceToken limit
    /// calls for one.
    private func answerPush(_ streamID: HTTP2StreamID, exchange: Exchange, faults: MockFaults, context: ChannelHandlerContext) {
        if let reason = faults.goAwayInstead {
            exchange.answered = true
            record(exchange, streamID: streamID, status: 0, fault: "GOAWAY \(reason.apnsName) instead of an answer")
            sendGoAway(lastStreamID: .rootStream, reason: reason, code: 0, context: context)
            return
        }
        requests += 1
        let now = Int64(core.clock())
        if let path = exchange.head.path, MockBroadcasts.handles(path) {
            answerBroadcastAPI(streamID, exchange: exchange, faults: faults, now: now, context: context)
            return
        }
        let result = core.check.evaluate(
            exchange.head, bodyByteCount: exchange.bodyByteCount, now: now,
            certificate: clientCertificate(context))
        var (reply, detail, tokenTaken) = tokenUpdateVerdict(exchange, result: result)
        if tokenTaken { raiseStreamLimit(context: context) }
        exchange.answered = true
        if faults.silent {
            // Read, never answered: the stream stays open until the client resets it.
            record(exchange, streamID: streamID, status: 0, fault: "silent: never answered", loggable: result.loggableAuthorization)
            return
        }
        if reply.reason == nil {
            switch result.outcome {
            case .rejected(let why):
                reply.reason = why
                if [.missingProviderToken, .invalidProviderToken, .expiredProviderToken].contains(why) {
                    detail = core.check.verifier.refusal(authorization: exchange.head.authorization, now: now).detail
                }
                // Renewing a token APNs called expired is not rotating it.
                if why == .expiredProviderToken { policy.renewalInvited = true }
            case .accepted(let hex):
                reply.replacement = core.replacementAnswer(faults)
                if reply.replacement.map({ $0.status < 200 }) ?? true {
                    reply.reason = core.simulatedFailure(forDeviceHex: hex, faults: faults)
                }
                if exchange.head.pushType == PushType.liveactivity.rawValue, reply.reason == nil {
                    detail = liveActivityProblem(exchange, streamID: streamID, now: now) ?? detail
                }
            }
        }
        let goAway = goAwayAfter(reply, faults: faults)
        let respond = { [self] in
            var notes: [String] = []
            if let goAway {
                let code = goAway.code == 0 ? "" : " (\(MockFaults.describeHTTP2ErrorCode(goAway.code)))"
                let why = goAway.reason == .badDeviceToken ? " (\(policy.badDeviceTokens) BadDeviceToken answers)" : ""
                notes.append("GOAWAY\(code) after this answer\(why)")
            }
            answer(streamID, reply: reply, faults: faults, loggable: result.loggableAuthorization, notes: notes, detail: detail, context: context)
            if let goAway {
                sendGoAway(lastStreamID: streamID, reason: goAway.reason, code: goAway.code, context: context)
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

    /// A token the checks accepted may still be refused as TooManyProviderTokenUpdates: this
    /// connection's token changed too soon after the last.
    private func tokenUpdateVerdict(_ exchange: Exchange, result: RequestCheck.Result) -> (reply: Reply, detail: String?, tokenTaken: Bool) {
        var reply = Reply()
        guard result.tokenAccepted, let authorization = exchange.head.authorization,
            let issuedAt = result.issuedAt,
            policy.isTooSoonAnUpdate(authorization: authorization, issuedAt: issuedAt)
        else { return (reply, nil, result.tokenAccepted) }
        reply.reason = .tooManyProviderTokenUpdates
        let current = policy.token?.issuedAt ?? 0
        let detail =
            "this connection's token changed to one issued \(issuedAt - current) s after the one it used; APNs wants at least \(core.limits.tokenUpdateIntervalSeconds ?? 0) s"
        return (reply, detail, false)
    }

    /// The GOAWAY to send after this answer, if any: a fault's after N requests, or APNs' own
    /// after too many BadDeviceToken answers on one connection.
    private func goAwayAfter(_ reply: Reply, faults: MockFaults) -> (reason: RejectionReason, code: UInt32)? {
        var goAway = faults.goAwayAfterRequests.map { requests >= $0 } ?? false
        var reason = faults.goAwayReason
        var code = faults.goAwayErrorCode
        if reply.reason == .badDeviceToken, reply.replacement == nil, let limit = core.limits.badDeviceTokenLimit {
            policy.badDeviceTokens += 1
            if policy.badDeviceTokens >= limit, !goAway {
                goAway = true
                reason = .badDeviceToken
                code = 0
            }
        }
        return goAway ? (reason, code) : nil
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

    /// Channel management and broadcasts: authenticated as any request, answered by
    /// ``MockBroadcasts``.
    private func answerBroadcastAPI(_ streamID: HTTP2StreamID, exchange: Exchange, faults: MockFaults, now: Int64, context: ChannelHandlerContext) {
        let auth = core.check.authenticate(exchange.head, now: now, certificate: clientCertificate(context))
        var reply = Reply()
        var detail: String?
        if let failure = auth.failure {
            reply.reason = failure
        } else {
            raiseStreamLimit(context: context)
            let body = exchange.body.map { Array($0.readableBytesView) } ?? []
            let made = core.broadcasts.answer(exchange.head, body: body, bodyByteCount: exchange.bodyByteCount, now: now)
            reply.reason = made.reason
            reply.custom = made
            detail = made.detail
            if made.reason == nil, let problem = made.detail {
                core.onLiveActivityProblem?("broadcast on connection \(id), stream \(Int(streamID)): \(problem)")
            }
        }
        answer(streamID, reply: reply, faults: faults, loggable: auth.loggable, detail: detail, context: context)
    }

    /// What a device would drop in this accepted Live Activity push (APNs answers 200 all the same).
    private func liveActivityProblem(_ exchange: Exchange, streamID: HTTP2StreamID, now: Int64) -> String? {
        let body = exchange.body.map { Array($0.readableBytesView) } ?? []
        let priority = exchange.head.priority.flatMap(Int.init).flatMap(Priority.init(rawValue:)) ?? .immediate
        let problems: [Words]
        if let json = try? JSONValue.parse(body) {
            problems = LiveActivityLint.findings(json, priority: priority, now: now).filter(\.isError).map(\.message)
        } else {
            problems = [Words("the payload is not JSON", es: "la carga útil no es JSON")]
        }
        guard !problems.isEmpty else { return nil }
        let text = LiveActivityLint.dropped(problems).text(core.language)
        core.onLiveActivityProblem?("\(exchange.head.path ?? "") on connection \(id), stream \(Int(streamID)): \(text)")
        return text
    }

    /// What a request is answered with.
    private struct Reply {
        /// Channel management and broadcasts: status, headers and body (when `reason` is nil).
        var custom: MockBroadcasts.Answer?
        /// The APNs reason, or nil for 200.
        var reason: RejectionReason?
        /// A fault's status and body in place of the above (a 1xx goes before it instead).
        var replacement: MockFaults.Answer?
    }

    private func answer(
        _ streamID: HTTP2StreamID, reply: Reply, faults: MockFaults, loggable: String? = nil, notes: [String] = [],
        detail: String? = nil, context: ChannelHandlerContext
    ) {
        // The stream may be gone: reset by the client while a delayed answer waited.
        guard let exchange = exchanges[streamID], !goAwaySent else { return }
        exchange.answered = true
        wire.lastAnsweredStreamID = max(wire.lastAnsweredStreamID, Int32(streamID))
        var notes = notes

        let clientID = exchange.head.apnsID.flatMap { RequestCheck.isCanonicalUUID($0) ? $0 : nil }
        let apnsID = clientID ?? identifiers.next()
        if let replacement = reply.replacement, replacement.status < 200 {
            // Informational: no body, not the end of the stream; the normal answer follows.
            let informational = HPACKHeaders([(":status", String(replacement.status))])
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: informational)))), promise: nil)
            notes.append("\(replacement.status) sent first")
        }
        var (status, response, body, loggedReason, loggedID) = responseHead(reply, apnsID: apnsID, notes: &notes, context: context)
        // APNs dates its answers (pushctl doctor compares the clocks with it); a replaced answer stays bare.
        if reply.replacement.map({ $0.status < 200 }) ?? true { response.add(name: "date", value: dateHeader()) }
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
            fault: notes.isEmpty ? nil : notes.joined(separator: "; "), loggable: loggable, detail: detail)
    }

    /// The answer's status, headers and body (before the date, retry-after and padding faults):
    /// a broadcast API answer, a fault's replacement, APNs' reason, or 200 with the ids.
    private func responseHead(_ reply: Reply, apnsID: String, notes: inout [String], context: ChannelHandlerContext)
        -> (status: Int, headers: HPACKHeaders, body: ByteBuffer?, loggedReason: String?, loggedID: String?)
    {
        var response = HPACKHeaders()
        var body: ByteBuffer?
        let status: Int
        var loggedReason: String?
        var loggedID: String? = apnsID
        if let custom = reply.custom, reply.reason == nil {
            status = custom.status
            response.add(name: ":status", value: String(status))
            for (name, value) in custom.headers { response.add(name: name, value: value, indexing: .nonIndexable) }
            if !custom.body.isEmpty { body = context.channel.allocator.buffer(bytes: custom.body) }
            loggedID = nil
            if let requestID = custom.headers.first(where: { $0.0 == "apns-request-id" })?.1 { notes.append("apns-request-id \(requestID)") }
            if let channel = custom.headers.first(where: { $0.0 == "apns-channel-id" })?.1 { notes.append("apns-channel-id \(channel)") }
        } else if let replacement = reply.replacement, replacement.status >= 200 {
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
            if reason.status == 410 { json += #","timestamp":\#(Int64(core.clock() * 1000))"# }
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
        return (status, response, body, loggedReason, loggedID)
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
        streamLimitsUnacknowledged.append(core.maxConcurrentStreams)
        // NIOHTTP2 is told its ceiling again; the client gets the real limit (see ConnectionWire).
        wire.advertisedStreamLimit = UInt32(core.maxConcurrentStreams)
        let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: ConnectionWire.streamCeiling)]
        context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
        flushPending = true
    }

    /// GOAWAY with an error code (NO_ERROR unless a fault says otherwise) and `{"reason":…}` as
    /// debug data, then the end of the connection once it is written (``finish(_:)``). It names the
    /// last stream answered (by default): the streams after it were not processed, and a client
    /// retries them on a new connection.
    private func sendGoAway(lastStreamID: HTTP2StreamID? = nil, reason: RejectionReason, code: UInt32, context: ChannelHandlerContext) {
        guard !goAwaySent else { return }
        goAwaySent = true
        let last = lastStreamID ?? HTTP2StreamID(Int(wire.lastAnsweredStreamID))
        let data = context.channel.allocator.buffer(string: #"{"reason":"\#(reason.apnsName)"}"#)
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: last, errorCode: HTTP2ErrorCode(networkCode: Int(code)), opaqueData: data))
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
