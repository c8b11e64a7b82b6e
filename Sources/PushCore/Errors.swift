/// A problem with what the user gave: what was wrong, and what to do about it.
///
/// The core says what kind of problem it is; the command line alone turns that into an exit
/// status (sysexits) and into its own words for flags.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The request itself is malformed (missing or conflicting options).
        case usage
        /// Bad data (payload, token, header value, key contents): nothing was sent.
        case badData
        /// An input file is missing or unreadable: nothing was sent.
        case missingInput
        /// An output file could not be created or written.
        case cannotCreateOutput
        /// A service or a companion program could not be reached or started.
        case unavailable
        /// Worth trying again later (the input changed under the run, retries ran out).
        case temporaryFailure
    }

    public let message: String
    public let hint: String?
    public let kind: Kind

    public init(_ message: String, hint: String? = nil, kind: Kind = .badData) {
        self.message = message
        self.hint = hint
        self.kind = kind
    }

    /// The same problem, said with where it was: "AuthKey_X.p8: …", "tokens.txt, line 3: …".
    public func at(_ place: String) -> InputError {
        InputError("\(place): \(message)", hint: hint, kind: kind)
    }

    /// One line: the message, then the hint after a semicolon.
    public var description: String { hint.map { "\(message); \($0)" } ?? message }
}
