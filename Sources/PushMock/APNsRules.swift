import NIOCore
import NIOHPACK
import NIOHTTP2
import PushCore
import PushWords

/// A request whose body is in, as APNs looks at it.
struct CompletedRequest {
    var streamID: Int32
    var head: RequestHead
    /// The body as kept (up to ``MockRequestRecord/bodyKeptLimit`` bytes).
    var body: ByteBuffer?
    var bodyByteCount: Int
    /// The connection's verified TLS client certificate, if it sent one.
    var certificate: ProviderCertificate?
}

/// What the faults count across every connection of a server (``MockServerCore`` keeps the
/// counts under a lock). Each call counts one more and returns the new count.
protocol FaultCounters: AnyObject {
    /// Streams seen, for ``MockFaults/refuseFirstStreams`` and ``MockFaults/refuseEveryNthStream``.
    func countStream() -> Int
    /// Answers replaced by ``MockFaults/answer``.
    func countReplacedAnswer() -> Int
    /// Valid requests to this device token, for ``MockFaults/failFirstAttempts``.
    func countAttempt(to token: DeviceToken) -> Int
}

/// What the mock's APNs does with a request: everything it decides (faults, checks, the provider
/// token's update policy, the stream limit, GOAWAY, broadcasts, the Live Activity lint), from the
/// request, the connection's state and the time, as a plain ``Decision``. The connection's handler
/// carries it out; this type writes nothing.
struct APNsRules {
    let check: RequestCheck
    /// The stream limit after a valid token.
    let maxConcurrentStreams: Int
    let broadcasts: MockBroadcasts
    let counters: any FaultCounters
    /// The language of what the mock says about a request (a Live Activity a device would drop).
    var language: Language = .en

    /// A GOAWAY: the stream it names (nil: the last one answered), its reason as debug data, its code.
    struct GoAway: Equatable {
        var lastStreamID: Int32? = nil
        var reason: RejectionReason
        var code: UInt32
    }

    /// How a request is answered.
    struct Reply {
        /// Channel management and broadcasts: status, headers and body (when `reason` is nil).
        var custom: MockBroadcasts.Answer?
        /// The APNs reason, or nil for 200.
        var reason: RejectionReason?
        /// A fault's status and body in place of the above (a 1xx goes before it instead).
        var replacement: MockFaults.Answer?
        /// For the log: the authorization reduced to header and claims.
        var loggable: String?
        /// For the log: why a token was refused, what a device would drop.
        var detail: String?
        /// For the log: what the faults did.
        var notes: [String] = []

        init(reason: RejectionReason? = nil, notes: [String] = []) {
            self.reason = reason
            self.notes = notes
        }
    }

    enum Action {
        /// Nothing more is processed after the mock's GOAWAY: no answer, no log line.
        case ignore
        /// An answer, after `delayMilliseconds`, then the GOAWAY if there is one.
        case answer(Reply, delayMilliseconds: Int, then: GoAway?)
        /// No answer: RST_STREAM with this code.
        case reset(HTTP2ErrorCode)
        /// No answer: GOAWAY (naming stream 0 unless it says otherwise), then the end of the connection.
        case goAway(GoAway)
        /// No answer, the connection dropped (no GOAWAY).
        case close
        /// Read, never answered: the stream stays open until the client resets it.
        case silence
    }

    struct Decision {
        var action: Action
        /// A SETTINGS frame with this stream limit goes first (a valid token raised it).
        var raiseStreamLimit: Int?
        /// For the log of a request that gets no answer.
        var fault: String?
        var loggable: String?
        /// What a device would drop from an accepted Live Activity push, for the console: what was
        /// sent (the path or "broadcast") and the problem.
        var liveActivityProblem: (subject: String, text: String)?

        init(_ action: Action, fault: String? = nil) {
            self.action = action
            self.fault = fault
        }
    }

    /// A body that fills its stream's window without ending cannot end: it is answered 413 at
    /// once, then reset with NO_ERROR, as nginx does, so that the client stops uploading.
    static let bodyOverflowReply = Reply(reason: .payloadTooLarge, notes: ["answered before the end of the body; RST_STREAM(NO_ERROR) after"])

    /// A request whose frames stopped for the idle timeout: 400 IdleTimeout, then RST_STREAM(NO_ERROR).
    static func idleReply(milliseconds: Int) -> Reply {
        Reply(reason: .idleTimeout, notes: ["no frame for \(milliseconds) ms; RST_STREAM(NO_ERROR) after"])
    }

    /// A connection with no stream and no frame for the idle timeout: APNs closes idle connections.
    static let idleGoAway = GoAway(reason: .idleTimeout, code: 0)

    /// Decides on a request whose body is in, given the faults in force and the time in seconds.
    func decide(_ request: CompletedRequest, faults: MockFaults, state: inout ConnectionState, now: Double) -> Decision {
        // After the mock's GOAWAY nothing more is processed: the connection closes once the GOAWAY
        // is out, and an answer written after it would be lost (the client would send the request
        // again, and it would have been handled twice).
        if state.goAwaySent { return Decision(.ignore) }
        let head = request.head
        if head.authorization == nil, let certificate = request.certificate, certificate.isPushCertificate, !certificate.serves(check.environment) {
            // As APNs: a certificate for the other environment gets no answer, only a GOAWAY
            // whose debug data says why (no stream processed).
            return Decision(
                .goAway(GoAway(lastStreamID: 0, reason: .badCertificateEnvironment, code: 0)),
                fault: "GOAWAY BadCertificateEnvironment (the mock plays \(check.environment.rawValue))")
        }
        if let limit = faults.closeAfterRequests, state.requests >= limit { return Decision(.close, fault: "connection closed") }
        if faults.resetStreams { return Decision(.reset(.internalError), fault: "RST_STREAM(INTERNAL_ERROR)") }
        if faults.refuseFirstStreams > 0 || faults.refuseEveryNthStream != nil {
            let seen = counters.countStream()
            let everyNth = faults.refuseEveryNthStream.map { $0 > 0 && seen % $0 == 0 } ?? false
            if seen <= faults.refuseFirstStreams || everyNth { return Decision(.reset(.refusedStream), fault: "REFUSED_STREAM") }
        }
        if let reason = faults.goAwayInstead {
            return Decision(.goAway(GoAway(lastStreamID: 0, reason: reason, code: 0)), fault: "GOAWAY \(reason.apnsName) instead of an answer")
        }
        state.requests += 1
        let seconds = Int64(now)
        if let path = head.path, MockBroadcasts.handles(path) {
            return broadcastAPI(request, state: &state, now: seconds)
        }
        return push(request, faults: faults, state: &state, now: now)
    }

    /// A push the faults let through: checked in the order APNs checks one, answered (after the
    /// configured delay), and followed by a GOAWAY when a fault or the BadDeviceToken limit calls for one.
    private func push(_ request: CompletedRequest, faults: MockFaults, state: inout ConnectionState, now: Double) -> Decision {
        let head = request.head
        let seconds = Int64(now)
        let result = check.evaluate(head, bodyByteCount: request.bodyByteCount, now: seconds, certificate: request.certificate)
        var reply = Reply()
        reply.loggable = result.loggableAuthorization
        var raise: Int?
        if result.tokenAccepted, let authorization = head.authorization, let issuedAt = result.issuedAt,
            state.isTooSoonAnUpdate(authorization: authorization, issuedAt: issuedAt)
        {
            // A token the checks accepted may still be refused: this connection's token changed
            // too soon after the last.
            reply.reason = .tooManyProviderTokenUpdates
            let current = state.token?.issuedAt ?? 0
            reply.detail =
                "this connection's token changed to one issued \(issuedAt - current) s after the one it used; APNs wants at least \(state.limits.tokenUpdateIntervalSeconds ?? 0) s"
        } else if result.tokenAccepted {
            raise = state.raiseStreamLimit(to: maxConcurrentStreams)
        }
        if faults.silent {
            var decision = Decision(.silence, fault: "silent: never answered")
            decision.raiseStreamLimit = raise
            decision.loggable = result.loggableAuthorization
            return decision
        }
        var lint: (subject: String, text: String)?
        if reply.reason == nil {
            switch result.outcome {
            case .rejected(let why):
                reply.reason = why
                if [.missingProviderToken, .invalidProviderToken, .expiredProviderToken].contains(why) {
                    reply.detail = check.verifier.refusal(authorization: head.authorization, now: seconds).detail
                }
                // Renewing a token APNs called expired is not rotating it.
                if why == .expiredProviderToken { state.renewalInvited = true }
            case .accepted(let hex):
                reply.replacement = replacementAnswer(faults)
                if reply.replacement.map({ $0.status < 200 }) ?? true {
                    reply.reason = simulatedFailure(forDeviceHex: hex, faults: faults)
                }
                if head.pushType == PushType.liveactivity.rawValue, reply.reason == nil,
                    let problem = Self.liveActivityProblem(request, now: seconds, language: language)
                {
                    reply.detail = problem
                    lint = (head.path ?? "", problem)
                }
            }
        }
        var goAway = goAwayAfter(reply, faults: faults, state: &state)
        goAway?.lastStreamID = request.streamID
        if let goAway {
            let code = goAway.code == 0 ? "" : " (\(MockFaults.describeHTTP2ErrorCode(goAway.code)))"
            let why = goAway.reason == .badDeviceToken ? " (\(state.badDeviceTokens) BadDeviceToken answers)" : ""
            reply.notes.append("GOAWAY\(code) after this answer\(why)")
        }
        let delay = min(faults.responseDelayMilliseconds, MockFaults.delayLimitMilliseconds)
        var decision = Decision(.answer(reply, delayMilliseconds: delay, then: goAway))
        decision.raiseStreamLimit = raise
        decision.liveActivityProblem = lint
        return decision
    }

    /// Channel management and broadcasts: authenticated as any request, answered by ``MockBroadcasts``.
    private func broadcastAPI(_ request: CompletedRequest, state: inout ConnectionState, now: Int64) -> Decision {
        let auth = check.authenticate(request.head, now: now, certificate: request.certificate)
        var reply = Reply()
        reply.loggable = auth.loggable
        var decision = Decision(.ignore)
        if let failure = auth.failure {
            reply.reason = failure
        } else {
            decision.raiseStreamLimit = state.raiseStreamLimit(to: maxConcurrentStreams)
            let body = request.body.map { Array($0.readableBytesView) } ?? []
            let made = broadcasts.answer(request.head, body: body, bodyByteCount: request.bodyByteCount, now: now)
            reply.reason = made.reason
            reply.custom = made
            reply.detail = made.detail
            if made.reason == nil, let problem = made.detail { decision.liveActivityProblem = ("broadcast", problem) }
        }
        decision.action = .answer(reply, delayMilliseconds: 0, then: nil)
        return decision
    }

    /// The GOAWAY to send after this answer, if any: a fault's after N requests, or APNs' own
    /// after too many BadDeviceToken answers on one connection.
    private func goAwayAfter(_ reply: Reply, faults: MockFaults, state: inout ConnectionState) -> GoAway? {
        var goAway = faults.goAwayAfterRequests.map { state.requests >= $0 } ?? false
        var reason = faults.goAwayReason
        var code = faults.goAwayErrorCode
        if reply.reason == .badDeviceToken, reply.replacement == nil, let limit = state.limits.badDeviceTokenLimit {
            state.badDeviceTokens += 1
            if state.badDeviceTokens >= limit, !goAway {
                goAway = true
                reason = .badDeviceToken
                code = 0
            }
        }
        return goAway ? GoAway(lastStreamID: nil, reason: reason, code: code) : nil
    }

    /// The answer that replaces the normal one of a request that passed the checks, while
    /// ``MockFaults/answerCount`` allows.
    private func replacementAnswer(_ faults: MockFaults) -> MockFaults.Answer? {
        guard let answer = faults.answer else { return nil }
        guard let limit = faults.answerCount else { return answer }
        return counters.countReplacedAnswer() <= limit ? answer : nil
    }

    /// The reason a valid request to this token fails with, if the faults say so.
    private func simulatedFailure(forDeviceHex hex: Substring, faults: MockFaults) -> RejectionReason? {
        guard !faults.failTokens.isEmpty || !faults.failFirstAttempts.isEmpty,
            let token = try? DeviceToken(parsing: String(hex))
        else { return nil }
        if let reason = faults.failTokens[token] { return reason }
        guard let rule = faults.failFirstAttempts[token] else { return nil }
        return counters.countAttempt(to: token) <= rule.attempts ? rule.reason : nil
    }

    /// What a device would drop in this accepted Live Activity push (APNs answers 200 all the same).
    static func liveActivityProblem(_ request: CompletedRequest, now: Int64, language: Language) -> String? {
        let body = request.body.map { Array($0.readableBytesView) } ?? []
        let priority = request.head.priority.flatMap(Int.init).flatMap(Priority.init(rawValue:)) ?? .immediate
        let problems: [Words]
        if let json = try? JSONValue.parse(body) {
            problems = LiveActivityLint.findings(json, priority: priority, now: now).filter(\.isError).map(\.message)
        } else {
            problems = [LiveActivityLint.payloadNotJSON]
        }
        guard !problems.isEmpty else { return nil }
        return LiveActivityLint.dropped(problems).text(language)
    }
}
