/// The value of `apns-push-type`, with the rules Apple attaches to each.
public enum PushType: String, CaseIterable, Sendable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls

    /// What `apns-topic` must end with for this push type (the bundle id plus this).
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .location: return ".location-query"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// Largest payload APNs accepts, in bytes.
    public var payloadLimit: Int { self == .voip ? 5120 : 4096 }

    /// The topic to send: the bundle id with the push type's suffix added when it is missing.
    public func topic(forBundleID bundleID: String) -> String {
        guard let suffix = topicSuffix, !bundleID.hasSuffix(suffix) else { return bundleID }
        return bundleID + suffix
    }

    /// Whether a topic fits this push type (the mock answers BadTopic otherwise).
    public func accepts(topic: String) -> Bool {
        guard let suffix = topicSuffix else {
            // A plain bundle topic must not carry another type's suffix.
            return self == .mdm || !PushType.allCases.contains { $0.topicSuffix.map(topic.hasSuffix) ?? false }
        }
        return topic.hasSuffix(suffix) && topic.count > suffix.count
    }
}

/// `apns-priority`.
public enum Priority: Int, CaseIterable, Sendable {
    /// Deliver now (the default). Not allowed for background pushes.
    case immediate = 10
    /// Deliver when power considerations allow; required for background pushes.
    case considerate = 5
    /// Never wake the device.
    case low = 1

    /// The priority APNs assumes when none is sent, and pushctl's default for a push type.
    public static func `default`(for type: PushType) -> Priority {
        type == .background ? .considerate : .immediate
    }

    /// Whether Apple allows this priority with this push type.
    public func isAllowed(for type: PushType) -> Bool {
        !(type == .background && self == .immediate)
    }
}

/// Where requests go.
public enum APNsEnvironment: String, CaseIterable, Sendable {
    case sandbox, production

    public var host: String { self == .sandbox ? "api.sandbox.push.apple.com" : "api.push.apple.com" }
}

/// Header names, lower-case as HTTP/2 sends them.
public enum APNsHeader {
    public static let authorization = "authorization"
    public static let pushType = "apns-push-type"
    public static let topic = "apns-topic"
    public static let id = "apns-id"
    public static let uniqueID = "apns-unique-id"
    public static let expiration = "apns-expiration"
    public static let priority = "apns-priority"
    public static let collapseID = "apns-collapse-id"
    /// Apple's limit on `apns-collapse-id`, in UTF-8 bytes.
    public static let collapseIDLimit = 64
}
