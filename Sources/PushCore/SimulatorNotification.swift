/// A notification for the iOS Simulator: the payload as an `.apns` file, with the app it is for
/// under "Simulator Target Bundle" — what `xcrun simctl push` reads and what a file dragged onto a
/// Simulator window carries. No device token, no provider token: the Simulator delivers it locally.
public struct SimulatorNotification: Sendable {
    /// The app's bundle id (the topic without a push type's suffix).
    public let bundleID: String
    public let payload: Payload

    /// The checked template's payload, for the app its topic names.
    public init(_ template: PushTemplate) {
        bundleID = template.pushType.bundleID(fromTopic: template.topic)
        payload = template.payload
    }

    /// The `.apns` file: "Simulator Target Bundle" first, then the payload's own keys.
    public var fileContents: String {
        var members: [(String, JSONValue)] = [("Simulator Target Bundle", .string(bundleID))]
        if case .object(let fields) = payload.json { members += fields.filter { $0.0 != "Simulator Target Bundle" } }
        return JSONValue.object(members).pretty + "\n"
    }

    /// The arguments of `xcrun simctl push DEVICE BUNDLE FILE` (DEVICE: a UDID or `booted`).
    public func simctlArguments(device: String, file: String) -> [String] {
        ["simctl", "push", device, bundleID, file]
    }
}

extension PushType {
    /// The app's bundle id in a topic that may carry this push type's suffix (`.voip`, `.push-type.liveactivity`…).
    public func bundleID(fromTopic topic: String) -> String {
        guard let suffix = topicSuffix, topic.hasSuffix(suffix) else { return topic }
        return String(topic.dropLast(suffix.count))
    }
}
