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
        if apnsName == "BadEnvironmentKeyInToken" { self = .badEnvironmentKeyIdInToken; return }
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
        case let .unknown(name): return name
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

    /// The device token is dead: the caller should delete it.
    public var meansTokenIsDead: Bool { self == .unregistered || self == .expiredToken }

    /// One line: what it means, then what to do.
    public var explanation: String {
        switch self {
        case .badCollapseId: return "apns-collapse-id is longer than 64 bytes; shorten it"
        case .badDeviceToken:
            return "the device token is not valid for this environment; this token may belong to the other environment (sandbox vs production): a build from Xcode uses sandbox, TestFlight and the App Store use production"
        case .badExpirationDate: return "apns-expiration is not a valid UNIX time (send seconds since 1970, or 0), or a broadcast to a channel without storage has one other than 0"
        case .badMessageId: return "apns-id is not a UUID; send a canonical UUID (8-4-4-4-12 hex) or leave it out"
        case .badPriority: return "apns-priority is not 10, 5 or 1, or not allowed for this push type (background pushes must be 5)"
        case .badTopic: return "apns-topic is not valid for this push type; check the bundle id and the suffix the push type needs (e.g. .voip)"
        case .deviceTokenNotForTopic: return "the device token belongs to another app; check --topic is the bundle id of the app that registered it"
        case .duplicateHeaders: return "a header was sent twice; send each apns-* header once"
        case .idleTimeout: return "the connection was idle too long; send again on a new connection"
        case .invalidPushType: return "apns-push-type is not a value Apple knows; use alert, background, voip, …"
        case .missingDeviceToken: return "the request path has no device token; pass --device-token"
        case .missingTopic: return "apns-topic is required with token authentication, and with a certificate that lists several topics; pass --topic with your bundle id"
        case .payloadEmpty: return "the payload is empty; send a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}"
        case .topicDisallowed: return "pushing to this topic is not allowed: a certificate covers only the topics it lists (pushctl cert inspect shows them), a topic-specific key only its topics"
        case .badCertificate: return "the client certificate is not an APNs push certificate, or was revoked; make an \"Apple Push Notification service SSL\" certificate in your Apple Developer account"
        case .badCertificateEnvironment: return "the certificate is for the other environment (pushctl cert inspect shows which); use --sandbox or --production to match it, or a Sandbox & Production certificate"
        case .expiredProviderToken:
            return "the provider token (JWT) is older than 60 minutes, or its iat is in the future; check this machine's clock and sign a new token"
        case .forbidden: return "APNs refused this request; check the key's permissions in your Apple Developer account"
        case .invalidProviderToken:
            return "the provider token (JWT) is not valid: check the key id (--key-id), the team id (--team-id), that the .p8 file matches that key id, and this machine's clock"
        case .missingProviderToken: return "no provider token was sent; pass --key-file, --key-id and --team-id (or --jwt)"
        case .unrelatedKeyIdInToken: return "the key id in the token is not related to this team or topic; check --key-id, --team-id and --topic"
        case .badEnvironmentKeyIdInToken: return "the key is not enabled for this environment; check the key's environment in your Apple Developer account, or use the other one"
        case .badPath: return "the request path is not /3/device/<token>; check --endpoint"
        case .methodNotAllowed: return "only POST is allowed; check --endpoint points at APNs"
        case .unregistered: return "the device token is no longer active for this topic (app uninstalled or notifications turned off); stop sending to it and delete it"
        case .expiredToken: return "the device token has expired; stop sending to it and delete it"
        case .payloadTooLarge: return "the payload is over the limit (4096 bytes; 5120 for voip); shorten it"
        case .tooManyProviderTokenUpdates: return "the provider token was changed too often; reuse one token for 20–60 minutes (pushctl caches it unless --no-jwt-cache)"
        case .tooManyRequests: return "too many notifications to this device in a short time; wait before sending to it again"
        case .internalServerError: return "APNs had an internal error; try again later"
        case .serviceUnavailable: return "APNs is unavailable for now; try again later"
        case .shutdown: return "the APNs server is shutting down; send again on a new connection"
        case .featureNotEnabled: return "broadcast push is not enabled for this app: turn on the Broadcast capability for the bundle id in your Apple Developer account"
        case .missingChannelId: return "the request has no apns-channel-id; pass --channel-id (pushctl channel list shows the ids)"
        case .badChannelId: return "apns-channel-id is not a channel id (base64, as `pushctl channel create` printed it); check for a copy-paste slip"
        case .channelNotRegistered: return "no such channel in this environment (deleted, or made in the other one); pushctl channel list shows the ids"
        case .cannotCreateChannelConfig: return "the app has reached its limit of 10,000 channels in this environment; delete unused ones (pushctl channel delete)"
        case .badRequestParams: return "the request's parameters are not valid (message-storage-policy 0 or 1, push-type LiveActivity)"
        case .badRequestPayload: return "the request's body is not the JSON this call expects"
        case .missingPushType: return "apns-push-type is missing; broadcasts are sent as liveactivity"
        case .topicMismatch: return "the bundle id does not match the key's or certificate's app"
        case let .unknown(name): return "APNs answered '\(name)', a reason pushctl does not know; see Apple's 'Handling notification responses from APNs'"
        }
    }
}
