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
/// given, naming the settings as it was told (`text(_:naming:)`). A setting interpolated into
/// words (`Words("add \(Setting.topic)", es: …)`) stays a setting until then: a library caller
/// reads "apns-topic", pushctl's console "--topic", from the same value. No process-wide state
/// decides for a library; the executables' console holds the language and the naming.
public struct Words: Sendable, Hashable {
    /// One language's side: text, and the settings it names, kept apart until said. Adjacent text
    /// is merged and empty text dropped, so equal words have equal pieces however they were built.
    enum Piece: Sendable, Hashable {
        case text(String)
        case setting(Setting)
        /// A setting that a variable may give too: "--key-file (or PUSHCTL_KEY_FILE)", or the
        /// name alone where the program names the setting by that variable.
        case either(Setting, or: String, variable: String)
    }

    private let english: [Piece]
    private let spanish: [Piece]

    private init(english: [Piece], spanish: [Piece]) {
        self.english = Self.merged(english)
        self.spanish = Self.merged(spanish)
    }

    public init(_ en: Template, es: Template) {
        self.init(english: en.pieces(.en), spanish: es.pieces(.es))
    }

    /// Text that reads the same in every language: a name, a number, a JWT, a command line.
    public init(verbatim text: String) {
        self.init(english: [.text(text)], spanish: [.text(text)])
    }

    /// The text in `language`, each setting named by `naming` (by default its plain name, as a
    /// library caller reads it).
    public func text(_ language: Language, naming: SettingNaming = .plain) -> String {
        var text = ""
        for piece in pieces(language) {
            switch piece {
            case .text(let part): text.append(part)
            case .setting(let setting): text.append(naming.name(setting))
            case .either(let setting, let or, let variable):
                let name = naming.name(setting)
                text.append(name == variable ? name : "\(name) (\(or) \(variable))")
            }
        }
        return text
    }

    /// The text as `voice` says it: in its language, naming settings its way.
    public func text(_ voice: Voice) -> String { text(voice.language, naming: voice.naming) }

    /// The English, settings named plainly (what a library caller reads).
    public var en: String { text(.en) }
    /// The Spanish, settings named plainly.
    public var es: String { text(.es) }

    func pieces(_ language: Language) -> [Piece] {
        switch language {
        case .en: return english
        case .es: return spanish
        }
    }

    /// Each language's texts joined by each language's `separator`.
    public static func joined(_ parts: [Words], separator: Words = Words(verbatim: "")) -> Words {
        func join(_ language: Language) -> [Piece] {
            var joined: [Piece] = []
            for (index, part) in parts.enumerated() {
                if index > 0 { joined += separator.pieces(language) }
                joined += part.pieces(language)
            }
            return joined
        }
        return Words(english: join(.en), spanish: join(.es))
    }

    public static func + (lhs: Words, rhs: Words) -> Words {
        Words(english: lhs.english + rhs.english, spanish: lhs.spanish + rhs.spanish)
    }

    /// A setting by its name alone, in every language.
    public static func named(_ setting: Setting) -> Words { Words(english: [.setting(setting)], spanish: [.setting(setting)]) }

    /// "--key-file (or PUSHCTL_KEY_FILE)": a setting a variable may give too, with the language's
    /// word for "or" (the name alone where the program names the setting by the variable).
    public static func either(_ setting: Setting, or: String, variable: String) -> Words {
        let piece = Piece.either(setting, or: or, variable: variable)
        return Words(english: [piece], spanish: [piece])
    }

    /// `count` and the noun in the right number: `Words.count(3, Words("token", es: "token"), Words("tokens", es: "tokens"))`.
    public static func count(_ count: Int, _ one: Words, _ many: Words) -> Words {
        Words(verbatim: String(count) + " ") + (count == 1 ? one : many)
    }

    private static func merged(_ pieces: [Piece]) -> [Piece] {
        var merged: [Piece] = []
        for piece in pieces {
            if case .text(let part) = piece {
                if part.isEmpty { continue }
                if case .text(let before) = merged.last {
                    merged[merged.count - 1] = .text(before + part)
                    continue
                }
            }
            merged.append(piece)
        }
        return merged
    }
}

extension Words {
    /// One language's side of words as written: a string literal whose interpolated settings (and
    /// words) stay symbolic; anything else interpolated reads as it would in a `String`.
    public struct Template: ExpressibleByStringInterpolation, Sendable {
        enum Part: Sendable {
            case text(String)
            case setting(Setting)
            case words(Words)
        }

        let parts: [Part]

        public init(stringLiteral value: String) { parts = [.text(value)] }

        public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

        /// The pieces in `language` (interpolated words give their side in it).
        func pieces(_ language: Language) -> [Piece] {
            parts.flatMap { part -> [Piece] in
                switch part {
                case .text(let text): return [.text(text)]
                case .setting(let setting): return [.setting(setting)]
                case .words(let words): return words.pieces(language)
                }
            }
        }

        public struct StringInterpolation: StringInterpolationProtocol, Sendable {
            var parts: [Part] = []

            public init(literalCapacity: Int, interpolationCount: Int) { parts.reserveCapacity(2 * interpolationCount + 1) }

            public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

            /// A setting, named when the words are said.
            public mutating func appendInterpolation(_ setting: Setting) { parts.append(.setting(setting)) }

            /// Words within words: their side in the language said.
            public mutating func appendInterpolation(_ words: Words) { parts.append(.words(words)) }

            /// An error in words is said in a language: `error.words`.
            @available(*, deprecated, message: "interpolate the error's words: error.words")
            public mutating func appendInterpolation(_ error: InputError) { parts.append(.text(error.text(.en))) }

            /// Anything else that has a text of its own, as a `String` interpolation shows it. (Not any
            /// value: a tuple or an optional would print its structure, and does not compile here.)
            public mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
                parts.append(.text(value.description))
            }
        }
    }
}

/// Who says words: in which language, naming the settings how.
public struct Voice: Sendable, Hashable {
    public let language: Language
    public let naming: SettingNaming

    public init(_ language: Language, naming: SettingNaming = .plain) {
        self.language = language
        self.naming = naming
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

extension Setting {
    /// "--key-file (or PUSHCTL_KEY_FILE)": how a message names a setting a user can give either
    /// way, with the language's word for "or" ("o" in Spanish); said with the naming it is shown with.
    public func either(_ or: String) -> Words {
        variable.map { Words.either(self, or: or, variable: $0) } ?? Words.named(self)
    }
}
