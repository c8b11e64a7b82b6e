public import PushCore

// Key ids and team ids (AppleIdentifier), and the key file named for another key.

extension AppleIdentifier.Kind {
    var whereToFind: Words {
        self == .keyID
            ? Words(
                "the Key ID shown next to the key in your Apple Developer account (also in the file name AuthKey_<KEYID>.p8)",
                es: "el Key ID que aparece junto a la clave en tu cuenta de Apple Developer (también en el nombre del archivo AuthKey_<KEYID>.p8)")
            : Words(
                "the Team ID shown under Membership in your Apple Developer account",
                es: "el Team ID que aparece en Membership de tu cuenta de Apple Developer")
    }

    var spanishName: String { self == .keyID ? "el id de clave (key id)" : "el id de equipo (team id)" }
}

extension AppleIdentifierProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .malformed(let kind, let shown, _):
            let given = shown.map { "'\($0)'" } ?? "an empty value"
            let dado = shown.map { "'\($0)'" } ?? "un valor vacío"
            return Words(
                "\(kind.rawValue) must be 10 characters, A–Z and 0–9 (for example \(kind.example)); got \(given)",
                es: "\(kind.spanishName) tiene 10 caracteres, A–Z y 0–9 (por ejemplo \(kind.example)); se recibió \(dado)")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .malformed(_, _, let nearMiss?): return nearMiss.words
        case .malformed(let kind, _, nil): return Words("use ", es: "usa ") + kind.whereToFind
        }
    }
}

extension AppleIdentifierProblem.NearMiss {
    public var words: Words {
        switch self {
        case .blanksAround(let id): return Words("leave out the blanks around it: \(id)", es: "quita los espacios de alrededor: \(id)")
        case .lowerCase(let id): return Words("Apple's ids are in capitals: \(id)", es: "los ids de Apple van en mayúsculas: \(id)")
        }
    }
}

extension AppleIdentifier.KeyFileNameMismatch {
    /// What to say before sending.
    public var warning: Words {
        Words(
            "the key id \(used) (from \(source)) is not the \(named) in the key file's name \(fileName); if that is Apple's name for the file, its key id is \(named) and APNs will answer InvalidProviderToken",
            es:
                "el id de clave \(used) (de \(source)) no es el \(named) del nombre del archivo \(fileName); si es el nombre que Apple le dio, su id de clave es \(named) y APNs responderá InvalidProviderToken"
        )
    }

    /// The likely cause to give if APNs answers InvalidProviderToken.
    public var likelyCause: Words {
        Words(
            "likely cause: the key id \(used) is not \(named), the id in the key file's name (\(fileName))",
            es: "causa probable: el id de clave \(used) no es \(named), el del nombre del archivo de la clave (\(fileName))")
    }
}
