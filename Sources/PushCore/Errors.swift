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

    /// What was wrong, and what to do about it, in every language pushctl speaks.
    public let words: Words
    public let hintWords: Words?
    public let kind: Kind

    /// What was wrong, in this process's language.
    public var message: String { words.description }
    /// What to do about it, in this process's language.
    public var hint: String? { hintWords?.description }

    public init(_ message: Words, hint: Words? = nil, kind: Kind = .badData) {
        words = message
        hintWords = hint
        self.kind = kind
    }

    /// A message not yet said in Spanish: it reads the same in both languages until it is.
    public init(_ message: String, hint: String? = nil, kind: Kind = .badData) {
        self.init(Words(verbatim: message), hint: hint.map(Words.init(verbatim:)), kind: kind)
    }

    /// The same problem, said with where it was: "AuthKey_X.p8: …", "tokens.txt, line 3: …".
    public func at(_ place: String) -> InputError {
        InputError(Words(verbatim: place + ": ") + words, hint: hintWords, kind: kind)
    }

    /// The same, with a place that reads differently in each language ("tokens.txt, line 3" /
    /// "tokens.txt, línea 3").
    public func at(_ place: Words) -> InputError {
        InputError(place + Words(verbatim: ": ") + words, hint: hintWords, kind: kind)
    }

    /// One line: the message, then the hint after a semicolon (before an excerpt the message
    /// shows under its first line, as a JSON error's caret does).
    public var description: String {
        guard let hint else { return message }
        guard let newline = message.firstIndex(of: "\n") else { return "\(message); \(hint)" }
        return "\(message[..<newline]); \(hint)\(message[newline...])"
    }
}
