/// Every `reason` APNs documents, its HTTP status, what it means and what to do.
public enum RejectionReason: Hashable, Sendable, CustomStringConvertible {
    case badCollapseId, badDeviceToken, badExpirationDate, badMessageId, badPriority, badTopic
    case deviceTokenNotForTopic, duplicateHeaders, idleTimeout, invalidPushType, missingDeviceToken
    case missingTopic, payloadEmpty, topicDisallowed
    case badCertificate, badCertificateEnvironment, expiredProviderToken, forbidden, invalidProviderToken
    case missingProviderToken, unrelatedKeyIdInToken, badEnvironmentKeyIdInToken
    case badPath, methodNotAllowed
    case unregistered, expiredToken
    case payloadTooLarge
    case tooManyProviderTokenUpdates, tooManyRequests
    case internalServerError
    case serviceUnavailable, shutdown
    // Broadcast push and channel management (iOS 18).
    case featureNotEnabled, missingChannelId, badChannelId, channelNotRegistered, cannotCreateChannelConfig
    case badRequestParams, badRequestPayload, missingPushType, topicMismatch
    /// An answer with no APNs reason at all (its body is not APNs' JSON): APNs always gives one,
    /// so a proxy or load balancer answered. Spelled "HTTP 503 with no reason".
    case noReason(status: Int)
    /// A reason this version of pushctl does not know.
    case unknown(String)

    public static let allKnown: [RejectionReason] = [
        .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed,
        .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
        .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken,
        .badPath, .methodNotAllowed, .unregistered, .expiredToken, .payloadTooLarge,
        .tooManyProviderTokenUpdates, .tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown,
        .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .cannotCreateChannelConfig,
        .badRequestParams, .badRequestPayload, .missingPushType, .topicMismatch,
    ]

    /// The reason as APNs spells it. Apple's docs say BadEnvironmentKeyIdInToken;
    /// the servers have been seen sending BadEnvironmentKeyInToken — both parse.
    public init(apnsName: String) {
        if apnsName == "BadEnvironmentKeyInToken" {
            self = .badEnvironmentKeyIdInToken
            return
        }
        // An unknown reason is the server's own text: echoed bounded and without control characters.
        self = RejectionReason.allKnown.first { $0.apnsName == apnsName } ?? .unknown(OutsideText.display(apnsName, limit: 64))
    }

    public var apnsName: String {
        switch self {
        case .badCollapseId: return "BadCollapseId"
        case .badDeviceToken: return "BadDeviceToken"
        case .badExpirationDate: return "BadExpirationDate"
        case .badMessageId: return "BadMessageId"
        case .badPriority: return "BadPriority"
        case .badTopic: return "BadTopic"
        case .deviceTokenNotForTopic: return "DeviceTokenNotForTopic"
        case .duplicateHeaders: return "DuplicateHeaders"
        case .idleTimeout: return "IdleTimeout"
        case .invalidPushType: return "InvalidPushType"
        case .missingDeviceToken: return "MissingDeviceToken"
        case .missingTopic: return "MissingTopic"
        case .payloadEmpty: return "PayloadEmpty"
        case .topicDisallowed: return "TopicDisallowed"
        case .badCertificate: return "BadCertificate"
        case .badCertificateEnvironment: return "BadCertificateEnvironment"
        case .expiredProviderToken: return "ExpiredProviderToken"
        case .forbidden: return "Forbidden"
        case .invalidProviderToken: return "InvalidProviderToken"
        case .missingProviderToken: return "MissingProviderToken"
        case .unrelatedKeyIdInToken: return "UnrelatedKeyIdInToken"
        case .badEnvironmentKeyIdInToken: return "BadEnvironmentKeyIdInToken"
        case .badPath: return "BadPath"
        case .methodNotAllowed: return "MethodNotAllowed"
        case .unregistered: return "Unregistered"
        case .expiredToken: return "ExpiredToken"
        case .payloadTooLarge: return "PayloadTooLarge"
        case .tooManyProviderTokenUpdates: return "TooManyProviderTokenUpdates"
        case .tooManyRequests: return "TooManyRequests"
        case .internalServerError: return "InternalServerError"
        case .serviceUnavailable: return "ServiceUnavailable"
        case .shutdown: return "Shutdown"
        case .featureNotEnabled: return "FeatureNotEnabled"
        case .missingChannelId: return "MissingChannelId"
        case .badChannelId: return "BadChannelId"
        case .channelNotRegistered: return "ChannelNotRegistered"
        case .cannotCreateChannelConfig: return "CannotCreateChannelConfig"
        case .badRequestParams: return "BadRequestParams"
        case .badRequestPayload: return "BadRequestPayload"
        case .missingPushType: return "MissingPushType"
        case .topicMismatch: return "TopicMismatch"
        case .noReason(let status): return "HTTP \(status) with no reason"
        case .unknown(let name): return name
        }
    }

    public var description: String { apnsName }

    /// The HTTP status APNs pairs with this reason.
    public var status: Int {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
            .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
            .missingTopic, .payloadEmpty, .topicDisallowed,
            .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .cannotCreateChannelConfig,
            .badRequestParams, .badRequestPayload, .missingPushType:
            return 400
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
            .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken, .topicMismatch:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .unregistered, .expiredToken: return 410
        case .payloadTooLarge: return 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        case .noReason(let status): return status
        case .unknown: return 400
        }
    }

    /// What a client may do about it.
    public enum Retry: Sendable, Equatable {
        /// Fix the request, the credentials or the token: sending again cannot help.
        case never
        /// Sign a new provider token, then send again.
        case withNewProviderToken
        /// Wait (exponential back-off), then send again.
        case afterBackoff
        /// Send again on a new connection, after a back-off.
        case onNewConnection
    }

    /// What to do about an answer with this status, when its reason is not one APNs
    /// documents (a proxy's or load balancer's 503 with an HTML body, say): decided by status.
    public static func retry(forStatus status: Int) -> Retry {
        switch status {
        case 429, 500, 502, 503, 504: return .afterBackoff
        default: return .never
        }
    }

    public var retry: Retry {
        switch self {
        case .expiredProviderToken: return .withNewProviderToken
        case .tooManyRequests, .tooManyProviderTokenUpdates, .internalServerError, .serviceUnavailable: return .afterBackoff
        case .shutdown, .idleTimeout: return .onNewConnection
        default: return .never
        }
    }

    /// The answer means the token, the key or the certificate is for Apple's other environment
    /// (sandbox vs production): the one table `send --detect-environment` and `doctor` go by.
    public var pointsAtOtherEnvironment: Bool {
        switch self {
        case .badDeviceToken, .badEnvironmentKeyIdInToken, .badCertificateEnvironment: return true
        default: return false
        }
    }

    /// The device token is dead: the caller should delete it.
    public var meansTokenIsDead: Bool { self == .unregistered || self == .expiredToken }

    // What it means and what to do, in words (the command line names its own flags): the
    // catalog's `explanation`, shared with the mock.
}

/// Why a run counts a notification as rejected: APNs' reason, or pushctl's own refusal of a line
/// of a followed input before any attempt (a line that is no token or no request).
public enum RejectionCause: Hashable, Sendable, CustomStringConvertible {
    case apns(RejectionReason)
    case invalidLine

    /// A rejection's cause: its reason; with none, a refusal before any attempt is a line pushctl
    /// refused, and one after an attempt is a reason nobody named.
    public init(reason: RejectionReason?, attempts: Int) {
        if let reason {
            self = .apns(reason)
        } else {
            self = attempts == 0 ? .invalidLine : .apns(.unknown("unknown"))
        }
    }

    /// As the summary, the metrics and the step summary name it: APNs' name, or `InvalidLine`.
    public var name: String {
        switch self {
        case .apns(let reason): reason.apnsName
        case .invalidLine: "InvalidLine"
        }
    }

    public var description: String { name }
}
