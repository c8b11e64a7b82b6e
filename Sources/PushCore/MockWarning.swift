/// What goes wrong while the mock APNs server runs without stopping it: a file of the class's key
/// folder it skips, a log it can no longer write. Said once each, as a warning; the catalog says
/// each.
public enum MockWarning: Sendable, Equatable {
    /// A file of the key folder larger than any key (`limitKiB`): skipped.
    case keyFileTooLarge(name: String, limitKiB: Int)
    /// A file of the key folder that is not a P-256 key: skipped, so tokens with its key id are refused.
    case keyFileNotAKey(name: String, keyID: String)
    /// The full log could not be renamed to `PATH.1`: the mock logs no more.
    case logNotRotated(path: String, SystemReason)
    /// The log was rotated, and the new one could not be opened: the mock logs no more.
    case logNotReopened(InputError)
}
