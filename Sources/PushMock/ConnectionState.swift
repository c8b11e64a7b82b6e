import NIOCore
import NIOHTTP2

/// One connection's state as the mock's APNs keeps it: one value, owned by the connection's
/// handler. Each change is a method that is given the time, so a test can stand at any moment
/// (``APNsAnswer`` reads and changes it; the handler only moves frames).
struct ConnectionState {
    let limits: MockProtocolLimits

    /// Requests taken for an answer (not refused).
    var requests = 0
    /// Streams taken and not yet closed.
    private(set) var openStreams = 0
    /// A GOAWAY of the mock's is on its way: nothing more is processed.
    var goAwaySent = false
    /// The highest stream answered: what a GOAWAY names (the connection closes at once after it,
    /// so no later stream was processed).
    private(set) var lastAnsweredStreamID: Int32 = 0

    /// SETTINGS_MAX_CONCURRENT_STREAMS values sent and not yet acknowledged, oldest first.
    private var streamLimitsUnacknowledged: [Int]
    /// The limit the client has acknowledged; nil before its first SETTINGS ACK (RFC 9113 §6.5.3: a
    /// setting binds once acknowledged, so a client may open streams in the first round trip).
    private var streamLimitAcknowledged: Int?
    private var streamLimitRaised = false

    private var allowance: Int
    private var refilled: NIODeadline
    private var resetWindowStart: NIODeadline
    private var resetsInWindow = 0
    /// When the connection last received a frame (or finished its TLS handshake).
    var lastFrame: NIODeadline
    /// BadDeviceToken answers so far.
    var badDeviceTokens = 0
    /// The provider token the connection uses (the last one accepted) and its `iat`.
    private(set) var token: (authorization: String, issuedAt: Int64)?
    /// The mock answered ExpiredProviderToken: the next token is a renewal, not a rotation.
    var renewalInvited = false
    /// apns-id and apns-unique-id values; Foundation's UUID reads /dev/urandom each time.
    var identifiers = UUIDGenerator()

    init(limits: MockProtocolLimits, initialStreamLimit: Int, now: NIODeadline) {
        self.limits = limits
        streamLimitsUnacknowledged = [initialStreamLimit]
        allowance = limits.controlFrameAllowance
        refilled = now
        resetWindowStart = now
        lastFrame = now
    }

    // MARK: - Streams

    /// Whether a new stream is taken. APNs refuses a stream over the limit the client has
    /// acknowledged (or any stream when the limit is 0) with RST_STREAM(REFUSED_STREAM), and every
    /// stream after its GOAWAY.
    enum Admission: Equatable {
        case take
        /// Refused; the words say why, for the log.
        case refuse(String)
    }

    mutating func admitStream() -> Admission {
        let limit = streamLimitAcknowledged ?? (streamLimitsUnacknowledged.first == 0 ? 0 : Int.max)
        if goAwaySent { return .refuse("after GOAWAY") }
        if openStreams >= limit { return .refuse("SETTINGS allow \(limit) stream\(limit == 1 ? "" : "s")") }
        openStreams += 1
        allowance = min(limits.controlFrameAllowance, allowance + MockProtocolLimits.controlFramesPerStream)
        return .take
    }

    /// A stream taken by ``admitStream()`` has closed.
    mutating func streamClosed() { openStreams -= 1 }

    /// The client acknowledged the oldest SETTINGS not yet acknowledged.
    mutating func settingsAcknowledged() {
        if !streamLimitsUnacknowledged.isEmpty { streamLimitAcknowledged = streamLimitsUnacknowledged.removeFirst() }
    }

    /// APNs starts a connection at one stream and raises the limit after a request with a valid
    /// token, once: the limit to send in a new SETTINGS frame, or nil when it was raised already.
    mutating func raiseStreamLimit(to limit: Int) -> Int? {
        guard !streamLimitRaised else { return nil }
        streamLimitRaised = true
        streamLimitsUnacknowledged.append(limit)
        return limit
    }

    mutating func answered(stream: Int32) { lastAnsweredStreamID = max(lastAnsweredStreamID, stream) }

    // MARK: - Floods

    /// Counts a PING, PRIORITY, SETTINGS or WINDOW_UPDATE frame: true when the allowance is spent.
    /// Each stream taken earns ``MockProtocolLimits/controlFramesPerStream``; the allowance refills at
    /// ``MockProtocolLimits/controlFramesPerSecond``, up to ``MockProtocolLimits/controlFrameAllowance``.
    mutating func spendControlFrame(now: NIODeadline) -> Bool {
        let seconds = (now - refilled).nanoseconds / 1_000_000_000
        if seconds > 0 {
            allowance = min(limits.controlFrameAllowance, allowance + Int(min(seconds, 1_000_000)) * MockProtocolLimits.controlFramesPerSecond)
            refilled = now
        }
        allowance -= 1
        return allowance < 0
    }

    /// Counts a reset of a stream not yet answered: true when there were too many in the window.
    mutating func countReset(now: NIODeadline) -> Bool {
        guard limits.streamResetLimit > 0 else { return false }
        if now - resetWindowStart > .seconds(MockProtocolLimits.resetWindowSeconds) {
            resetWindowStart = now
            resetsInWindow = 0
        }
        resetsInWindow += 1
        return resetsInWindow > limits.streamResetLimit
    }

    /// A frame that the flood guards count.
    enum Spending {
        /// RST_STREAM for a stream not yet answered (curl resets every stream after its answer:
        /// those never count).
        case resetOfAWaitingStream
        /// PING (not an ACK), PRIORITY, SETTINGS (not an ACK) or WINDOW_UPDATE.
        case controlFrame
    }

    /// Counts a frame against the flood guards: the GOAWAY ENHANCE_YOUR_CALM that ends the
    /// connection once there are too many, or nil.
    mutating func spend(_ frame: Spending, now: NIODeadline) -> APNsRules.GoAway? {
        let calm = UInt32(HTTP2ErrorCode.enhanceYourCalm.networkCode)
        switch frame {
        case .resetOfAWaitingStream:
            return countReset(now: now) ? APNsRules.GoAway(reason: .unknown("TooManyStreamResets"), code: calm) : nil
        case .controlFrame:
            return spendControlFrame(now: now) ? APNsRules.GoAway(reason: .unknown("TooManyControlFrames"), code: calm) : nil
        }
    }

    // MARK: - Idleness

    /// What the idle timeout calls for at one moment (``MockProtocolLimits/idleTimeoutMilliseconds``).
    struct IdleCheck: Equatable {
        /// Requests whose frames stopped for the timeout: answered 400 IdleTimeout, then reset.
        var stalled: [Int32]
        /// The connection, left with no stream, has had no frame for the timeout: GOAWAY IdleTimeout.
        var goAway: Bool
        /// When to look again: when the oldest activity left would be too old.
        var next: NIODeadline
    }

    /// A stream as the idle timeout sees it.
    struct StreamActivity {
        var streamID: Int32
        var answered: Bool
        var lastActivity: NIODeadline
    }

    func idleCheck(_ streams: [StreamActivity], now: NIODeadline, timeout: TimeAmount) -> IdleCheck {
        let cutoff = now - timeout
        let stalled = streams.filter { !$0.answered && $0.lastActivity < cutoff }
        // The stalled streams close once answered and reset.
        let left = streams.filter { $0.answered || $0.lastActivity >= cutoff }
        if left.isEmpty { return IdleCheck(stalled: stalled.map(\.streamID), goAway: lastFrame < cutoff, next: lastFrame + timeout) }
        // Answered requests waiting for their stream to close (a delayed or a silent answer) are no
        // idleness of the client's; they are looked at again after a timeout.
        let oldest = left.lazy.filter { !$0.answered }.map(\.lastActivity).min()
        return IdleCheck(stalled: stalled.map(\.streamID), goAway: false, next: (oldest ?? now) + timeout)
    }

    // MARK: - Provider tokens

    /// Whether taking this accepted token would change the connection's token too soon (Apple:
    /// refresh no more often than every 20 minutes); otherwise it becomes the connection's token.
    mutating func isTooSoonAnUpdate(authorization: String, issuedAt: Int64) -> Bool {
        guard let current = token, current.authorization != authorization else {
            if token == nil { token = (authorization, issuedAt) }
            return false
        }
        let (gap, overflow) = issuedAt.subtractingReportingOverflow(current.issuedAt)
        if let interval = limits.tokenUpdateIntervalSeconds, interval > 0, !renewalInvited, !overflow, gap < interval {
            return true
        }
        token = (authorization, issuedAt)
        renewalInvited = false
        return false
    }
}
