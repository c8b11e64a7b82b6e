public import PushCore
import PushCurl
public import PushWords

/// A send, planned and checked: which notifications (to devices, a broadcast to channels, or one
/// channel call), where, how to connect and authenticate, how hard to retry. What `pushctl send`
/// and `pushctl channel` build from their flags, and a library user from anything.
public struct SendPlan {
    public var notifications: NotificationSource
    public var destination: Destination
    public var connection: ConnectionSettings
    public var authorization: any AuthorizationSource
    public var policy: RetryPolicy
    /// A token answered BadDeviceToken (or every token, on BadEnvironmentKeyIdInToken) is tried once
    /// in Apple's other environment; each result then says which environment took it.
    public var detectEnvironment = false
    /// What the caller knows of why APNs may give a reason (a key id that contradicts the key
    /// file's name, for InvalidProviderToken): added to the explanation of each such result.
    public var likelyCauses: [RejectionReason: Words] = [:]
    /// `--rate`: at most this many requests started a second, across the run's connections (each
    /// shard of a fleet paces itself); nil: as fast as the server takes them.
    public var rate: Double?
    /// `--journal`: the run keeps it (lock, replay, ids, writer: `SendRun` is its one owner). Given
    /// once, here: what the notifications were read for (a requests file's digest) follows from it.
    public var journal: JournalSetting?
    /// What the phone will do with the notification, as `--app` found it (each finding's machine
    /// form): kept in the journal's header and the summary, so a run's record says what was known.
    public var findings: [JSONValue] = []

    public init(
        notifications: NotificationSource, destination: Destination, connection: ConnectionSettings,
        authorization: any AuthorizationSource, policy: RetryPolicy
    ) {
        self.notifications = notifications
        self.destination = destination
        self.connection = connection
        self.authorization = authorization
        self.policy = policy
    }

    /// What identifies this run for a journal: digests of its input and payload, its headers, where it goes.
    /// Throws for a requests file read without its digest (`RequestsFile(digesting: false)`).
    public func identity() throws(InputError) -> RunIdentity {
        let template = notifications.template
        guard let input = notifications.digest() else {
            throw InputError(RunInputProblem.journalNeedsDigest)
        }
        return RunIdentity(
            input: input, payload: template.map { SHA256Hex.of($0.payload.bytes) },
            topic: template?.topic, pushType: template?.pushType.rawValue,
            destination: destination.baseURL, shard: notifications.shard?.description)
    }
}
