public import PushCore

/// What the live view knows of the app a notification is for (`pushctl mock --app`): its name, its
/// words for a loc-key, and what the phone will do with a payload. Without one, the page lays the
/// banner out from the payload's own text and the topic's last part.
public struct PhoneLens: Sendable {
    /// The name the phone shows for the app (its display name), when the app says it.
    public var appName: String?
    /// The app's words for a loc-key with its loc-args; nil when the app lacks the key.
    public var localized: @Sendable (_ key: String, _ arguments: [String]) -> String?
    /// What the phone will do with `payload` sent as the push type: findings, worst first.
    public var findings: @Sendable (_ payload: JSONValue, _ pushType: PushType?) -> [AppFinding]

    public init(
        appName: String?, localized: @escaping @Sendable (String, [String]) -> String?,
        findings: @escaping @Sendable (JSONValue, PushType?) -> [AppFinding]
    ) {
        self.appName = appName
        self.localized = localized
        self.findings = findings
    }
}
