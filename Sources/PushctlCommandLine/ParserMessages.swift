import PushCore
import PushWords

/// The argument parser's own error messages (swift-argument-parser writes them in English) in this
/// language the user chose: its sentence, and the labels of its `Help:`, `Usage:` and `See …` lines. What
/// they quote (an option's synopsis, a value, the option's help) stays as it is: help is English.
/// A sentence it does not know is left as the parser wrote it.
enum ParserMessages {
    static func localized(_ message: String, _ language: Language = LanguageSetting.language) -> String {
        guard language == .es else { return message }
        var inUsage = false
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let line = String(line)
            if line.hasPrefix("Usage: ") {
                inUsage = true
                return "Uso: " + line.dropFirst("Usage: ".count)
            }
            if inUsage, line.hasPrefix("  "), !line.hasPrefix("  See '") {
                // The usage's continuation lines hang under its first word: "Uso: " is 2 shorter.
                return String(line.dropFirst(2))
            }
            inUsage = false
            return spanish(line)
        }.joined(separator: "\n")
    }

    /// Each sentence the parser may say, as the parts around what it quotes, and the same in Spanish.
    private static let sentences: [(english: [String], spanish: [String])] = [
        (["Missing value for '", "'"], ["falta el valor de '", "'"]),
        (["Missing expected argument '", "'"], ["falta el argumento '", "'"]),
        (["Missing one of: '", "'"], ["falta uno de estos: '", "'"]),
        (["Unexpected argument '", "'"], ["argumento inesperado '", "'"]),
        (["", " unexpected arguments: '", "'"], ["", " argumentos inesperados: '", "'"]),
        (["The option '", "' does not take any value, but '", "' was specified."], ["la opción '", "' no admite ningún valor, y se le dio '", "'."]),
        (["The value '", "' is invalid for '", "'"], ["el valor '", "' no vale para '", "'"]),
        (["The value '", "' is invalid."], ["el valor '", "' no es válido."]),
        (["Invalid option: ", ""], ["opción no válida: ", ""]),
        (["Missing required subcommand."], ["falta el subcomando."]),
        (["Help:  ", ""], ["Ayuda:  ", ""]),
        (["  See '", "' for more information."], ["  Consulta '", "' para más información."]),
    ]

    private static func spanish(_ line: String) -> String {
        for (english, spanish) in sentences {
            guard let (quoted, rest) = quotes(in: line, around: english) else { continue }
            var text = spanish[0]
            for (index, value) in quoted.enumerated() { text += value + spanish[index + 1] }
            // What follows (a value's own error) is left as it is.
            return text + rest
        }
        return line
    }

    /// What `line` quotes between the parts of `english`, the first part at its start, and what
    /// follows the last part; nil when it does not read that way.
    private static func quotes(in line: String, around english: [String]) -> ([String], Substring)? {
        guard line.hasPrefix(english[0]) else { return nil }
        var rest = line.dropFirst(english[0].count)
        var quoted: [String] = []
        for part in english.dropFirst() {
            if part.isEmpty {
                quoted.append(String(rest))
                rest = rest.dropFirst(rest.count)
                continue
            }
            guard let range = rest.firstRange(of: part) else { return nil }
            quoted.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return (quoted, rest)
    }
}
