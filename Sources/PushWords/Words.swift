public import PushCore

/// The languages pushctl speaks to people in. Machine output (json/jsonl keys, reason codes,
/// statuses, exit codes) never changes with it.
public enum Language: String, CaseIterable, Sendable {
    case en, es

    /// The language a POSIX locale asks for: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that
    /// is set and not empty decides (as setlocale(3) reads them); Spanish when it starts with `es`.
    public static func fromLocale(_ environment: EnvironmentVariables) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("es") ? .es : .en
        }
        return .en
    }

    /// `es`, `ES`, `es_ES.UTF-8`, `spanish`, `español` → Spanish; nil for a language pushctl does not speak.
    public init?(naming text: String) {
        let name = text.lowercased()
        if let exact = Language(rawValue: name) {
            self = exact
            return
        }
        if name.hasPrefix("es_") || name.hasPrefix("es-") || name == "spanish" || name == "español" || name == "espanol" {
            self = .es
            return
        }
        if name.hasPrefix("en_") || name.hasPrefix("en-") || name == "english" || name == "inglés" || name == "ingles" {
            self = .en
            return
        }
        return nil
    }

    /// "en, es", for a message listing the choices.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Words a person reads, in every language pushctl speaks: the English and the Spanish side by
/// side, so one never exists without the other (the compiler refuses a `Words` without its
/// Spanish; `WordsCatalogTests` refuses an empty or untranslated one). PushCore makes none: it
/// returns codes, and this module's catalog (`Catalog+*.swift`) says each in both languages.
///
/// Deliberately not expressible by a string literal: English alone never passes for `Words`; text
/// that reads the same in both languages says so with `Words(verbatim:)`.
///
/// A typed value rather than a lookup key: no resource bundle, no Foundation (the sender stays free
/// of ICU), and the mock and the sender share a message by sharing the code the catalog renders.
///
/// Words have no one text of their own: whoever shows them says them in the language it was
/// given (`text(_:)`). No process-wide language decides for a library; the executables' console
/// holds the one its user chose.
public struct Words: Sendable, Hashable {
    public let en: String
    public let es: String

    public init(_ en: String, es: String) {
        self.en = en
        self.es = es
    }

    /// Text that reads the same in every language: a name, a number, a JWT, a command line.
    public init(verbatim text: String) {
        en = text
        es = text
    }

    /// The text in `language`.
    public func text(_ language: Language) -> String {
        switch language {
        case .en: return en
        case .es: return es
        }
    }

    /// Each language's texts joined by each language's `separator`.
    public static func joined(_ parts: [Words], separator: Words = Words(verbatim: "")) -> Words {
        Words(TextLayout.join(parts.map(\.en), separator.en), es: TextLayout.join(parts.map(\.es), separator.es))
    }

    public static func + (lhs: Words, rhs: Words) -> Words { Words(lhs.en + rhs.en, es: lhs.es + rhs.es) }

    /// `count` and the noun in the right number: `Words.count(3, Words("token", es: "token"), Words("tokens", es: "tokens"))`.
    public static func count(_ count: Int, _ one: Words, _ many: Words) -> Words {
        Words(verbatim: String(count) + " ") + (count == 1 ? one : many)
    }
}

extension DefaultStringInterpolation {
    /// Words in a string are said in a language: `"\(words.text(language))"`. Without this the
    /// interpolation would print the value's fields; with it, a forgotten language is a warning
    /// (and the build allows none), said in English meanwhile.
    @available(*, deprecated, message: "say the words in a language: words.text(language)")
    public mutating func appendInterpolation(_ words: Words) { appendLiteral(words.en) }

    /// An error in a string is said in a language: `"\(error.text(language))"`.
    @available(*, deprecated, message: "say the error in a language: error.text(language)")
    public mutating func appendInterpolation(_ error: InputError) { appendLiteral(error.text(.en)) }
}
