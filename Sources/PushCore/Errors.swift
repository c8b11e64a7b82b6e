/// pushctl's exit statuses (sysexits), as PRODUCT.md fixes them.
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    /// APNs rejected at least one notification; also: `jwt verify` found the token unusable.
    case rejected = 1
    case usage = 64
    /// Bad input data (payload, token, header value, key contents): nothing was sent.
    case dataError = 65
    /// An input file is missing or unreadable: nothing was sent.
    case noInput = 66
    /// An output file could not be created (e.g. `key generate` never overwrites a key).
    case cantCreate = 73
    /// Results could not be written (standard output closed, or the disk full); whatever was
    /// to be sent was sent.
    case ioError = 74
    /// Could not reach APNs (DNS, connect, TLS).
    case unavailable = 69
    /// Temporary failure: retries exhausted on 429/5xx/timeouts.
    case tempFailure = 75
}

/// A problem with what the user gave: what was wrong, and what to do about it.
/// Exits 65 unless a more specific status is given.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let hint: String?
    public let status: ExitStatus

    public init(_ message: String, hint: String? = nil, status: ExitStatus = .dataError) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    /// One line: the message, then the hint after a semicolon.
    public var description: String { hint.map { "\(message); \($0)" } ?? message }
}
