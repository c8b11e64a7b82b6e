public import PushCore
import PushCrypto

/// A journaled run's own ids for each notification, so that a copy sent again (after a stop, a
/// kill, a lost answer, `--resume`) is the same notification to APNs and to the device:
/// - `apns-id`: a UUID derived from the run and the notification, on every device notification
///   (APNs answers with it, so each result names the same id in every try);
/// - `apns-collapse-id`: derived the same way, on each notification a device displays (push type
///   `alert`), so that a second copy replaces the first on the screen instead of showing twice.
///   Other push types are not displayed (a background push wakes the app), so they get none.
/// An id the user gave (the header flags, a requests-file line's field) is never replaced.
///
/// Both come from SHA-256 over the run's id (kept in the journal's first line, so a resumed run
/// derives the same), the notification's place in the list and its token: distinct for every
/// notification of a run (a requests file may send one token several different notifications),
/// and unrelated between runs (yesterday's "Good morning" does not replace today's).
public struct NotificationIDs: Sendable {
    /// The run's id, as the journal keeps it.
    public let run: String
    /// Whether displayed notifications get a collapse id (`--no-collapse-id` turns it off).
    public let collapse: Bool

    public init(run: String, collapse: Bool) {
        self.run = run
        self.collapse = collapse
    }

    /// What every collapse id pushctl derives starts with (a user's id is told from it at a glance).
    public static let collapsePrefix = "pushctl-"

    /// The collapse id of the notification at `position` to `token`: the prefix and 22 base64url
    /// characters (128 bits), 30 bytes, within APNs' 64.
    public func collapseID(position: Int, token: String) -> String {
        NotificationIDs.collapsePrefix + Base64URL.encode(digest("collapse", position, token).prefix(16))
    }

    /// The apns-id of the notification at `position` to `token`: a canonical lower-case UUID
    /// (RFC 9562 version 8, name-based by our own hash, with the RFC's variant bits).
    public func apnsID(position: Int, token: String) -> String {
        var bytes = Array(digest("apns-id", position, token).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.hexString
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }

    private func digest(_ purpose: String, _ position: Int, _ token: String) -> [UInt8] {
        let stream = SHA256Stream()
        stream.update("pushctl \(purpose)\u{0}\(run)\u{0}\(position)\u{0}\(token)")
        return stream.finish()
    }

    /// `request` with the ids it lacks (device notifications only; broadcasts and channel calls
    /// are left as they are). A new shape sharing the body: the header lines differ per push.
    public func apply(to request: RunRequest) -> RunRequest {
        guard request.subject.kind == .device, let token = request.subject.token else { return request }
        let shape = request.request.shape
        var lines = shape.headerLines
        var added = false
        let displayed = lines.contains(NotificationIDs.alertLine)
        if collapse, displayed, !lines.contains(where: { $0.hasPrefix(NotificationIDs.collapseLinePrefix) }) {
            lines.append(NotificationIDs.collapseLinePrefix + collapseID(position: request.position, token: token.hex))
            added = true
        }
        if !lines.contains(where: { $0.hasPrefix(NotificationIDs.idLinePrefix) }) {
            lines.append(NotificationIDs.idLinePrefix + apnsID(position: request.position, token: token.hex))
            added = true
        }
        guard added else { return request }
        return RunRequest(device: token, shape: RequestShape(method: shape.method, headerLines: lines, body: shape.body), position: request.position)
    }

    private static let alertLine = APNsHeader.pushType + ": " + PushType.alert.rawValue
    private static let collapseLinePrefix = APNsHeader.collapseID + ": "
    private static let idLinePrefix = APNsHeader.id + ": "

    /// A new run's id: 128 random bits, hex.
    public static func newRunID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    }

    /// The id of a run whose journal predates run ids: derived from what the journal says the run
    /// is, so every resume of it derives the same.
    static func legacyRunID(_ identity: RunIdentity) -> String {
        let stream = SHA256Stream()
        stream.update(identity.json.compact)
        return String(stream.finishHex().prefix(32))
    }
}
