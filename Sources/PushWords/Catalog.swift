public import PushCore

// The catalog: where each of PushCore's codes (its problems, warnings, explanations and notes)
// becomes words, in English and Spanish side by side. One place per area of the core
// (`Catalog+Payload.swift`, `Catalog+DeviceToken.swift`…); the core itself says nothing.

/// A core problem said in words: what was wrong, and what to do about it. Every `InputProblem`
/// of PushCore is one (the catalog's test renders a value of each case in both languages).
public protocol WordedProblem: InputProblem {
    /// What was wrong.
    var words: Words { get }
    /// What to do about it.
    var hintWords: Words? { get }
}

extension WordedProblem {
    public var hintWords: Words? { nil }
}

/// Words a module above the engine says for itself (the mock, the command line), carried as an
/// `InputError`'s problem until that module has codes of its own (the engine has: a rule test holds it).
public struct SaidProblem: WordedProblem, Hashable {
    public let words: Words
    public let hintWords: Words?

    public init(_ words: Words, hint: Words? = nil) {
        self.words = words
        hintWords = hint
    }
}

extension InputError {
    /// A problem a module above the core says in its own words.
    public init(_ message: Words, hint: Words? = nil, kind: Kind = .badData) {
        self.init(SaidProblem(message, hint: hint), kind: kind)
    }

    /// A message not yet said in Spanish: it reads the same in both languages until it is.
    public init(_ message: String, hint: String? = nil, kind: Kind = .badData) {
        self.init(Words(verbatim: message), hint: hint.map(Words.init(verbatim:)), kind: kind)
    }

    /// The problem said in words, after where it was: "tokens.txt, line 3: …".
    public var words: Words {
        let said = (problem as? any WordedProblem)?.words ?? Words(verbatim: String(describing: problem))
        return places.reversed().reduce(said) { inner, place in place.words + Words(verbatim: ": ") + inner }
    }

    /// What to do about it, in every language.
    public var hintWords: Words? { (problem as? any WordedProblem)?.hintWords }

    /// What was wrong, in `language`, each setting named by `naming`.
    public func message(_ language: Language, naming: SettingNaming = .plain) -> String { words.text(language, naming: naming) }
    /// What to do about it, in `language`, each setting named by `naming`.
    public func hint(_ language: Language, naming: SettingNaming = .plain) -> String? { hintWords?.text(language, naming: naming) }

    /// One line in `language`: the message, then the hint after a semicolon (before an excerpt
    /// the message shows under its first line, as a JSON error's caret does).
    public func text(_ language: Language, naming: SettingNaming = .plain) -> String {
        let message = message(language, naming: naming)
        guard let hint = hint(language, naming: naming) else { return message }
        guard let newline = message.firstIndex(of: "\n") else { return "\(message); \(hint)" }
        return "\(message[..<newline]); \(hint)\(message[newline...])"
    }

    /// The error as `voice` says it.
    public func message(_ voice: Voice) -> String { message(voice.language, naming: voice.naming) }
    public func hint(_ voice: Voice) -> String? { hint(voice.language, naming: voice.naming) }
    public func text(_ voice: Voice) -> String { text(voice.language, naming: voice.naming) }
}

extension ProblemPlace {
    public var words: Words {
        switch self {
        case .named(let name): return Words.path(name)
        case .line(let file, let line): return Words.path(file) + Words(", line \(line)", es: ", línea \(line)")
        }
    }
}

extension Words {
    /// A file by its path, or standard input for `-` (as the user wrote it).
    public static func path(_ path: String) -> Words {
        path == "-" ? Words("standard input", es: "la entrada estándar") : Words(verbatim: path)
    }
}
