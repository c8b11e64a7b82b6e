public import PushCore

// JSON: its types, the parser's refusals, and the diagnosis of a text that is not JSON.

extension JSONKind {
    /// The kind of value, in every language: "an array" / "un array".
    public var words: Words {
        switch self {
        case .null: return Words(verbatim: "null")
        case .boolean: return Words("a boolean", es: "un booleano")
        case .number: return Words("a number", es: "un número")
        case .string: return Words("a string", es: "una cadena")
        case .array: return Words("an array", es: "un array")
        case .object: return Words("an object", es: "un objeto")
        }
    }
}

extension JSONValue {
    /// The kind of value, in every language: "an array" / "un array".
    public var typeWords: Words { kind.words }
    /// The kind of value, in English ("an array").
    public var typeName: String { kind.words.en }
}

extension JSONSyntaxProblem {
    public var words: Words {
        switch self {
        case .textAfterValue: return Words("unexpected text after the JSON value", es: "texto inesperado tras el valor JSON")
        case .invalidLiteral: return Words("invalid literal", es: "literal no válido")
        case .tooDeep(let levels): return Words("nesting deeper than \(levels) levels", es: "anidamiento de más de \(levels) niveles")
        case .unexpectedEnd: return Words("unexpected end of text", es: "fin inesperado del texto")
        case .unexpectedCharacter(let shown): return Words("unexpected character '\(shown)'", es: "carácter inesperado '\(shown)'")
        case .expectedKey: return Words("expected a string key", es: "se esperaba una clave entre comillas dobles")
        case .expectedColon: return Words("expected ':'", es: "se esperaba ':'")
        case .unterminatedObject: return Words("unterminated object", es: "objeto sin cerrar")
        case .expectedCommaOrBrace: return Words("expected ',' or '}'", es: "se esperaba ',' o '}'")
        case .unterminatedArray: return Words("unterminated array", es: "array sin cerrar")
        case .expectedCommaOrBracket: return Words("expected ',' or ']'", es: "se esperaba ',' o ']'")
        case .truncatedUnicodeEscape: return Words("truncated \\u escape", es: "escape \\u incompleto")
        case .invalidUnicodeEscape: return Words("invalid \\u escape", es: "escape \\u no válido")
        case .notUTF8: return Words("string is not valid UTF-8", es: "la cadena no es UTF-8 válido")
        case .unterminatedString: return Words("unterminated string", es: "cadena sin cerrar")
        case .controlCharacter: return Words("control character in string", es: "carácter de control dentro de una cadena")
        case .unterminatedEscape: return Words("unterminated escape", es: "escape sin terminar")
        case .unpairedSurrogate: return Words("unpaired surrogate", es: "sustituto (surrogate) UTF-16 sin pareja")
        case .invalidCodePoint: return Words("invalid code point", es: "punto de código no válido")
        case .invalidEscape: return Words("invalid escape", es: "escape no válido")
        case .invalidNumber: return Words("invalid number", es: "número no válido")
        case .numberOutOfRange: return Words("number out of range (beyond ±1.8e308)", es: "número fuera de rango (más allá de ±1.8e308)")
        }
    }
}

extension JSONParseError: CustomStringConvertible {
    /// What was wrong, in every language pushctl speaks.
    public var words: Words { problem.words }
    /// What was wrong, in English.
    public var message: String { words.en }
    public var description: String { "\(message) at byte \(offset)" }
}

extension JSONMistake {
    public var words: Words {
        switch self {
        case .encodingMark(let mark):
            return mark.words
        case .typographicQuotes:
            return Words(
                "typographic quotes (“ ” or ‘ ’), as a word processor or a chat app writes them: JSON needs straight double quotes (\")",
                es: "comillas tipográficas (“ ” o ‘ ’), como las escribe un procesador de textos o un chat: JSON necesita comillas dobles rectas (\")")
        case .singleQuotes:
            return Words(
                "single quotes: JSON strings and keys take double quotes (\"…\")",
                es: "comillas simples: en JSON las cadenas y las claves van entre comillas dobles (\"…\")")
        case .comment:
            return Words("a comment: JSON has no comments; remove it", es: "un comentario: JSON no admite comentarios; quítalo")
        case .trailingComma:
            return Words(
                "a comma after the last item: JSON allows none before '}' or ']'",
                es: "una coma tras el último elemento: JSON no admite ninguna antes de '}' o ']'")
        case .pythonLiteral:
            return Words(
                "True, False and None are Python's: JSON writes true, false and null",
                es: "True, False y None son de Python: en JSON se escriben true, false y null")
        case .unquotedKey:
            return Words(
                "a key without quotes: JSON keys are strings, e.g. \"aps\"",
                es: "una clave sin comillas: en JSON las claves son cadenas, p. ej. \"aps\"")
        case .unclosedString:
            return Words("the text ends inside a string: a closing \" is missing", es: "el texto termina dentro de una cadena: falta la \" de cierre")
        case .incomplete:
            return Words("the text ends before the JSON value is complete", es: "el texto termina antes de completar el valor JSON")
        case .unclosed(let missing):
            return Words(
                "the text ends before it is closed: '\(missing)' missing at the end",
                es: "el texto termina sin cerrarse: falta '\(missing)' al final")
        case .missingComma:
            return Words("a comma is missing between two items", es: "falta una coma entre dos elementos")
        case .textAfterValue:
            return Words(
                "more text after the JSON value ended (a second object, or a stray character?)",
                es: "hay más texto tras el final del valor JSON (¿un segundo objeto, o un carácter de más?)")
        case .missingColon:
            return Words("a ':' is missing after the key", es: "falta ':' tras la clave")
        case .parser(let problem):
            return problem.words
        }
    }
}

extension JSONDiagnosis {
    /// The mistake named, or the parser's own complaint.
    public var cause: Words { mistake.words }

    /// "line 3, column 5: <cause>" then the excerpt, one line each (inline JSON: the column alone).
    public var words: Words {
        if singleLine { return wordsWithinLine }
        return Words("line \(line), column \(column): ", es: "línea \(line), columna \(column): ") + cause
            + Words(verbatim: excerpt.map { "\n" + $0 }.joined())
    }

    /// "column 5: <cause>" then the excerpt: for one line of a file whose line number is said elsewhere.
    public var wordsWithinLine: Words {
        Words("column \(column): ", es: "columna \(column): ") + cause + Words(verbatim: excerpt.map { "\n" + $0 }.joined())
    }
}
