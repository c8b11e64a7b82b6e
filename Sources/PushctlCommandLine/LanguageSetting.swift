public import ArgumentParser
public import PushCore
import PushSystem
public import PushWords

/// `--lang en|es`, on every command that talks to people (help, the man page and completions
/// stay English).
public struct LanguageOption: ParsableArguments, Sendable {
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp("Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).", valueName: "en|es"),
        completion: .list(Language.allCases.map(\.rawValue)))
    public var lang: String?

    public init() {}
}

/// The language of this program's words, chosen from its own arguments and environment the first
/// time it is asked (`main` asks before anything is printed, so that even an error in the
/// arguments reads in it). A constant of the executables, never set: the libraries are handed it.
public enum LanguageSetting {
    /// `--lang X` (or `--lang=X`) anywhere before `--`, else `PUSHCTL_LANG`, else the locale, and
    /// whether the user named it. An unknown language ends the process with 64, listing the languages.
    public static let chosen: (language: Language, explicit: Bool) = {
        do throws(InputError) {
            return try resolve(arguments: Array(CommandLine.arguments.dropFirst()), environment: Console.environment)
        } catch {
            Console.error(error.words, in: .en)
            CurrentProcess.exit(ExitStatus.usage.rawValue)
        }
    }()

    /// The language words are said in.
    public static var language: Language { chosen.language }

    /// How this program says words: in the chosen language, naming settings by its flags.
    public static var voice: Voice { Voice(language, naming: FlagNames.naming) }

    /// How json's explanations are said: in `jsonLanguage`, naming settings by the flags.
    public static var jsonVoice: Voice { Voice(jsonLanguage, naming: FlagNames.naming) }

    /// The language of json's explanations: the chosen one when the user named it, else English
    /// (machine output does not follow the locale).
    public static var jsonLanguage: Language { chosen.explicit ? chosen.language : .en }

    /// Chooses the language now, before anything is printed.
    public static func apply() { _ = chosen }

    public static func resolve(arguments: [String], environment: EnvironmentVariables) throws(InputError) -> (Language, explicit: Bool) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if let option = option(at: arguments[index...]) {
                guard let value = option.value else {
                    throw InputError(LanguageProblem.settingWithoutValue, kind: .usage)
                }
                guard let language = Language(naming: value) else {
                    throw InputError(LanguageProblem.settingUnknown(given: value), kind: .usage)
                }
                return (language, true)
            }
            index += 1
        }
        if let value = environment["PUSHCTL_LANG"] {
            guard !value.isEmpty else {
                // Set but empty: said, not silently ignored (the locale decides).
                let language = Language.fromLocale(environment)
                Console.warn(
                    Words(
                        "PUSHCTL_LANG is set but empty; the locale decides the language",
                        es: "PUSHCTL_LANG está definida pero vacía; el idioma lo decide la configuración regional"), in: .en)
                return (language, false)
            }
            guard let language = Language(naming: value) else {
                throw InputError(LanguageProblem.variableUnknown(given: value), kind: .usage)
            }
            return (language, true)
        }
        return (Language.fromLocale(environment), false)
    }

    /// The `--lang` option `arguments` start with, if they do: its value (nil when `--lang` ends
    /// the line) and how many arguments it spans (`--lang X` two, `--lang=X` one).
    public static func option(at arguments: ArraySlice<String>) -> (value: String?, width: Int)? {
        guard let first = arguments.first else { return nil }
        if first == "--lang" { return (arguments.dropFirst().first, 2) }
        if first.hasPrefix("--lang=") { return (String(first.dropFirst("--lang=".count)), 1) }
        return nil
    }
}

extension ValidationError {
    /// A usage error in this program's language (chosen before argument-parser validates).
    public init(_ words: Words) { self.init(words.text(LanguageSetting.voice)) }
}

extension Words: CustomStringConvertible {
    /// The executables' words in the language their user chose: what a command prints says
    /// itself (`Console.out(words.description)`). The libraries never see this conformance.
    public var description: String { text(LanguageSetting.voice) }
}

extension InputError: CustomStringConvertible {
    /// The error's one line (message; hint) in the language the user chose.
    public var description: String { text(LanguageSetting.voice) }
    /// What was wrong, in the language the user chose.
    public var message: String { message(LanguageSetting.voice) }
}
