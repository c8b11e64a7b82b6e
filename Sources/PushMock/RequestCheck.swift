import PushCore

/// The parts of a request APNs looks at, gathered in one pass over its headers.
struct RequestHead {
    var method: String?
    var path: String?
    var authorization: String?
    var topic: String?
    var pushType: String?
    var priority: String?
    var collapseID: String?
    var apnsID: String?
    var expiration: String?
    /// Broadcast push and channel management.
    var channelID: String?
    var requestID: String?
    /// The first APNs header (or `authorization`) that came twice.
    var duplicate: String?

    private var seen: UInt16 = 0

    /// Takes one header as it arrived; pseudo-headers included.
    mutating func add(name: String, value: String) {
        // Every name below starts with ":" or "a": others (content-length, user-agent…) need no
        // string comparisons.
        guard let first = name.utf8.first, first == UInt8(ascii: ":") || first == UInt8(ascii: "a") else { return }
        let bit: UInt16
        switch name {
        case ":method":
            method = value
            return
        case ":path":
            path = value
            return
        case APNsHeader.authorization:
            bit = 1 << 0
            authorization = authorization ?? value
        case APNsHeader.topic:
            bit = 1 << 1
            topic = topic ?? value
        case APNsHeader.pushType:
            bit = 1 << 2
            pushType = pushType ?? value
        case APNsHeader.priority:
            bit = 1 << 3
            priority = priority ?? value
        case APNsHeader.collapseID:
            bit = 1 << 4
            collapseID = collapseID ?? value
        case APNsHeader.id:
            bit = 1 << 5
            apnsID = apnsID ?? value
        case APNsHeader.expiration:
            bit = 1 << 6
            expiration = expiration ?? value
        case "apns-channel-id":
            bit = 1 << 7
            channelID = channelID ?? value
        case "apns-request-id":
            bit = 1 << 8
            requestID = requestID ?? value
        default: return
        }
        if seen & bit != 0, duplicate == nil { duplicate = name }
        seen |= bit
    }
}

/// APNs' checks of one request, in the order the mock applies them.
struct RequestCheck {
    enum Outcome {
        /// The device token as the path holds it: even-length hex.
        case accepted(deviceHex: Substring)
        case rejected(RejectionReason)
    }

    struct Result {
        let outcome: Outcome
        /// The provider token was accepted (APNs then raises the stream limit).
        let tokenAccepted: Bool
        /// The authorization value reduced to header and claims, for the log.
        let loggableAuthorization: String?
        /// The accepted provider token's `iat` (nil when it was not accepted, or there was none).
        var issuedAt: Int64?
    }

    static let devicePathPrefix = "/3/device/"

    let verifier: ProviderTokenVerifier
    /// The environment the mock plays, for certificates that serve only one.
    var environment: APNsEnvironment = .sandbox

    /// Who is asking: a provider token's failure, or a client certificate's (nil: authenticated).
    func authenticate(_ head: RequestHead, now: Int64, certificate: ProviderCertificate?) -> (failure: RejectionReason?, loggable: String?) {
        let auth = verifier.check(authorization: head.authorization, now: now)
        if head.authorization == nil, let certificate {
            if !certificate.isPushCertificate { return (.badCertificate, auth.loggable) }
            if !certificate.serves(environment) { return (.badCertificateEnvironment, auth.loggable) }
            return (nil, auth.loggable)
        }
        return (auth.failure, auth.loggable)
    }

    /// - Parameter certificate: the connection's verified TLS client certificate, if it sent
    ///   one; a request without an `authorization` header is then authenticated by it.
    func evaluate(_ head: RequestHead, bodyByteCount: Int, now: Int64, certificate: ProviderCertificate? = nil) -> Result {
        func reject(_ reason: RejectionReason, tokenAccepted: Bool = false, loggable: String? = nil, issuedAt: Int64? = nil) -> Result {
            Result(outcome: .rejected(reason), tokenAccepted: tokenAccepted, loggableAuthorization: loggable, issuedAt: issuedAt)
        }
        // Decided now (cached per token) so that every answer can log the token's reduced form.
        let auth = verifier.check(authorization: head.authorization, now: now)
        let loggable = auth.loggable

        guard head.method == "POST" else { return reject(.methodNotAllowed, loggable: loggable) }

        let path = head.path ?? ""
        let device: Substring
        if path == "/3/device" || path == Self.devicePathPrefix {
            return reject(.missingDeviceToken, loggable: loggable)
        } else if path.hasPrefix(Self.devicePathPrefix) {
            let text = path.dropFirst(Self.devicePathPrefix.count)
            // Checked here rather than with DeviceToken(parsing:), which forgives what people paste
            // (spaces, <>) and is slow for the hot path; a path must be plain, even-length hex, and
            // no shorter than the 32 bytes APNs issues (longer ones pass: Apple says sizes may grow).
            guard text.utf8.count % 2 == 0, text.utf8.count >= DeviceToken.usualHexLength, text.utf8.allSatisfy(\.isASCIIHexDigit) else {
                return reject(.badDeviceToken, loggable: loggable)
            }
            device = text
        } else {
            return reject(.badPath, loggable: loggable)
        }

        if head.duplicate != nil { return reject(.duplicateHeaders, loggable: loggable) }

        // Certificate-based authentication: no provider token, a verified client certificate.
        let byCertificate = head.authorization == nil ? certificate : nil
        if let byCertificate {
            guard byCertificate.isPushCertificate else { return reject(.badCertificate, loggable: loggable) }
            guard byCertificate.serves(environment) else { return reject(.badCertificateEnvironment, loggable: loggable) }
        } else if let failure = auth.failure {
            return reject(failure, loggable: loggable)
        }
        func refuse(_ reason: RejectionReason) -> Result { reject(reason, tokenAccepted: true, loggable: loggable, issuedAt: auth.issuedAt) }

        var topic = head.topic ?? ""
        if let byCertificate {
            let allowed = byCertificate.allowedTopics
            if topic.isEmpty {
                // APNs takes the certificate's one topic; with several it cannot choose.
                guard allowed.count == 1 else { return refuse(.missingTopic) }
                topic = allowed[0]
            } else if !allowed.contains(topic) {
                return refuse(.topicDisallowed)
            }
        }
        guard !topic.isEmpty else { return refuse(.missingTopic) }
        // Apple infers the type when the header is absent; pushctl always sends it.
        let pushType: PushType
        if let name = head.pushType {
            guard let known = PushType(rawValue: name) else { return refuse(.invalidPushType) }
            pushType = known
        } else {
            pushType = .alert
        }
        guard pushType.accepts(topic: topic) else { return refuse(.badTopic) }
        if let text = head.priority {
            guard let value = Int(text), let priority = Priority(rawValue: value), String(value) == text,
                priority.isAllowed(for: pushType)
            else { return refuse(.badPriority) }
        }
        if let collapseID = head.collapseID, collapseID.utf8.count > APNsHeader.collapseIDLimit {
            return refuse(.badCollapseId)
        }
        if let id = head.apnsID, !Self.isCanonicalUUID(id) { return refuse(.badMessageId) }
        if let expiration = head.expiration {
            guard !expiration.isEmpty, expiration.utf8.count <= 19, expiration.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return refuse(.badExpirationDate) }
        }
        if bodyByteCount == 0 { return refuse(.payloadEmpty) }
        if bodyByteCount > pushType.payloadLimit { return refuse(.payloadTooLarge) }

        return Result(outcome: .accepted(deviceHex: device), tokenAccepted: true, loggableAuthorization: loggable, issuedAt: auth.issuedAt)
    }

    /// 8-4-4-4-12 hex digits, either case: the core's one UUID check.
    static func isCanonicalUUID(_ text: String) -> Bool { PushTemplate.isCanonicalUUID(text) }
}
