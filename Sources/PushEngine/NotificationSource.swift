public import PushCore

/// The notifications of one run: one template to tokens from the flags or a file, or a
/// requests file whose every line is its own notification.
public enum NotificationSource: Sequence {
    case list(PushTemplate, [DeviceToken], duplicates: Int)
    case file(PushTemplate, DeviceTokenFile)
    case requests(RequestsFile)

    /// What will be sent: distinct tokens, or lines.
    public var count: Int {
        switch self {
        case let .list(_, tokens, _): return tokens.count
        case let .file(_, file): return file.count
        case let .requests(file): return file.count
        }
    }

    /// Repeated tokens skipped (each token is sent once; a requests file's lines are all sent).
    public var duplicates: Int {
        switch self {
        case let .list(_, _, duplicates): return duplicates
        case let .file(_, file): return file.duplicates
        case .requests: return 0
        }
    }

    /// Every checked notification got a result, or the source changed under the run (a file
    /// rewritten while it was sent): a clear error, never a quiet exit 0.
    public func verifyAllSent(_ results: Int) throws(InputError) {
        guard results != count else { return }
        let name: String
        switch self {
        case .list: name = "the device tokens"
        case let .file(_, file): name = file.displayName
        case let .requests(file): name = file.displayName
        }
        throw InputError("\(name) had \(count) notifications when checked, but \(results) were sent: it changed during the run",
                         hint: "do not rewrite the file while pushctl reads it; send the rest again", kind: .temporaryFailure)
    }

    public struct Iterator: IteratorProtocol {
        fileprivate var base: AnyIterator<DeviceNotification>
        public mutating func next() -> DeviceNotification? { base.next() }
    }

    /// Every notification, each carrying its place in the list (what a journal keys results by).
    public func makeIterator() -> Iterator {
        var position = -1
        func placed(_ notification: DeviceNotification) -> DeviceNotification {
            var notification = notification
            position += 1
            notification.position = position
            return notification
        }
        switch self {
        case let .list(template, tokens, _): return Iterator(base: AnyIterator(tokens.lazy.map { placed(template.notification(to: $0)) }.makeIterator()))
        case let .file(template, file): return Iterator(base: AnyIterator(file.lazy.map { placed(template.notification(to: $0)) }.makeIterator()))
        case let .requests(file): return Iterator(base: AnyIterator(file.lazy.map(placed).makeIterator()))
        }
    }
}
