import NIOCore
import PushCore
import PushWords

/// APNs' own limits, and the mock's guards against floods: each on a connection.
///
/// The defaults never cut off a client that behaves as APNs expects (one token per connection,
/// renewed at 50–60 minutes; curl's RST_STREAM after every answer; a PING or a PRIORITY frame per
/// request), yet stop floods. The APNs behaviours that would surprise a test are off by default.
public struct MockProtocolLimits: Sendable, Equatable {
    /// A connection whose provider token changes to one issued less than this many seconds after the
    /// one it used so far gets 429 TooManyProviderTokenUpdates (Apple: refresh no more often than every
    /// 20 minutes). Renewing after an ExpiredProviderToken answer is always allowed. nil: no limit.
    public var tokenUpdateIntervalSeconds: Int64?
    /// After this many BadDeviceToken answers on a connection, GOAWAY `{"reason":"BadDeviceToken"}`
    /// and close it, as APNs drops connections that send many bad tokens. nil: never.
    public var badDeviceTokenLimit: Int?
    /// A request whose frames stop for this long is answered 400 IdleTimeout (then RST_STREAM
    /// NO_ERROR), and a connection with no stream and no frame for this long gets GOAWAY
    /// `{"reason":"IdleTimeout"}` (APNs closes idle connections too). nil: wait for ever.
    public var idleTimeoutMilliseconds: Int?
    /// A connection must finish its TLS handshake and send HTTP/2's preface within this; otherwise
    /// it is closed (connections that stop half-way cannot hold the places for long).
    public var setupTimeoutMilliseconds: Int
    public static let defaultIdleTimeoutMilliseconds = 300_000
    /// RST_STREAM frames for streams not yet answered, in ``resetWindowSeconds``, that end the
    /// connection (GOAWAY ENHANCE_YOUR_CALM, `{"reason":"TooManyStreamResets"}`): a rapid-reset flood.
    /// Resets of answered streams (curl sends one after every answer) never count. 0: no limit.
    public var streamResetLimit: Int
    public static let resetWindowSeconds: Int64 = 10
    /// PING, PRIORITY, SETTINGS and WINDOW_UPDATE frames a connection may send beyond those its requests pay for:
    /// each stream earns ``controlFramesPerStream``, and the allowance refills at
    /// ``controlFramesPerSecond`` up to this. Spent: GOAWAY ENHANCE_YOUR_CALM, `{"reason":"TooManyControlFrames"}`.
    public var controlFrameAllowance: Int
    public static let controlFramesPerStream = 4
    public static let controlFramesPerSecond = 100

    public init(
        tokenUpdateIntervalSeconds: Int64? = 20 * 60,
        badDeviceTokenLimit: Int? = nil,
        idleTimeoutMilliseconds: Int? = defaultIdleTimeoutMilliseconds,
        setupTimeoutMilliseconds: Int = 10_000,
        streamResetLimit: Int = 1000,
        controlFrameAllowance: Int = 1000
    ) {
        self.tokenUpdateIntervalSeconds = tokenUpdateIntervalSeconds
        self.badDeviceTokenLimit = badDeviceTokenLimit
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
        self.setupTimeoutMilliseconds = setupTimeoutMilliseconds
        self.streamResetLimit = streamResetLimit
        self.controlFrameAllowance = controlFrameAllowance
    }

    func validate() throws(InputError) {
        if let value = tokenUpdateIntervalSeconds, value < 0 {
            throw InputError(MockSettingProblem.tokenUpdateInterval(givenSeconds: value), kind: .usage)
        }
        if let value = badDeviceTokenLimit, value < 1 {
            throw InputError(MockSettingProblem.badDeviceTokenLimit(given: value), kind: .usage)
        }
        if let value = idleTimeoutMilliseconds, !(1...86_400_000).contains(value) {
            throw InputError(MockSettingProblem.idleTimeout(givenMilliseconds: value), kind: .usage)
        }
        guard (1...3_600_000).contains(setupTimeoutMilliseconds) else {
            throw InputError(MockSettingProblem.setupTimeout(givenMilliseconds: setupTimeoutMilliseconds), kind: .usage)
        }
        guard streamResetLimit >= 0, controlFrameAllowance >= 1 else {
            throw InputError(MockSettingProblem.resetLimits, kind: .usage)
        }
    }
}
