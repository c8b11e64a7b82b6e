public import PushCore

// A line of a requests file (JSON Lines).

extension RequestLineProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .notObject(let kind):
            return Words("the line is \(kind.words), not a JSON object", es: "la línea es \(kind.words), no un objeto JSON")
        case .unknownField(let shown, let meant):
            return Words("unknown field \"\(shown)\"", es: "campo desconocido \"\(shown)\"")
                + (meant.map { Words("; did you mean \"\($0)\"?", es: "; ¿querías decir \"\($0)\"?") } ?? Words(verbatim: ""))
        case .repeatedField(let key):
            return Words("the field \"\(key)\" appears twice", es: "el campo \"\(key)\" aparece dos veces")
        case .noToken:
            return Words("no \"token\" field", es: "no hay campo \"token\"")
        case .tokenNotString:
            return Words("\"token\" must be a string of hex digits", es: "\"token\" debe ser una cadena de dígitos hexadecimales")
        case .noPayload:
            return Words("no \"payload\" field", es: "no hay campo \"payload\"")
        case .payloadNotObject(let kind):
            return Words("\"payload\" is \(kind.words), not a JSON object", es: "\"payload\" es \(kind.words), no un objeto JSON")
        case .fieldNotString(let field, let kind):
            return Words("\"\(field.rawValue)\" is \(kind.words), not a string", es: "\"\(field.rawValue)\" es \(kind.words), no una cadena")
        case .fieldNotInteger(let field, let kind):
            return Words("\"\(field.rawValue)\" is \(kind.words), not an integer", es: "\"\(field.rawValue)\" es \(kind.words), no un entero")
        case .noTopic:
            return Words("no \"topic\" field, and no default topic", es: "no hay campo \"topic\" ni topic predeterminado")
        case .spansLines:
            return Words(
                "the JSON that starts on this line goes on past it: a requests file is JSON Lines, one whole object on each line",
                es: "el JSON que empieza en esta línea sigue más allá de ella: un archivo de peticiones es JSON Lines, un objeto entero en cada línea")
        case .notJSON(let diagnosis):
            return Words("not valid JSON: ", es: "no es JSON válido: ") + diagnosis.wordsWithinLine
        }
    }

    public var hintWords: Words? {
        let oneObject = Words(
            "each line is one JSON object: {\"token\":\"…\",\"payload\":{…}}", es: "cada línea es un objeto JSON: {\"token\":\"…\",\"payload\":{…}}")
        switch self {
        case .notObject(let kind):
            return kind == .array ? Self.jsonLinesFromArray : oneObject
        case .unknownField:
            let known = RequestLine.fields.joined(separator: ", ")
            return Words("the fields are \(known)", es: "los campos son \(known)")
        case .noPayload:
            return Words("give the notification as \"payload\":{\"aps\":{…}}", es: "da la notificación como \"payload\":{\"aps\":{…}}")
        case .noTopic:
            return Words("give \(Setting.topic), or \"topic\" on every line", es: "da \(Setting.topic), o \"topic\" en cada línea")
        case .spansLines:
            return Self.jsonLinesFromArray
        case .notJSON(let diagnosis):
            return diagnosis.named ? nil : oneObject
        case .repeatedField, .noToken, .tokenNotString, .payloadNotObject, .fieldNotString, .fieldNotInteger:
            return nil
        }
    }

    /// How to make JSON Lines from an array of requests.
    static let jsonLinesFromArray = Words(
        "jq turns a JSON array of requests into JSON Lines: jq -c '.[]' requests.json > requests.jsonl",
        es: "jq convierte un array JSON de peticiones en JSON Lines: jq -c '.[]' requests.json > requests.jsonl")
}
