/// A 10-character identifier Apple issues (A–Z, 0–9): the Key ID of a `.p8` key, or a Team ID.
public struct AppleIdentifier: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case keyID = "key id"
        case teamID = "team id"

        var example: String { self == .keyID ? "ABC123DEFG" : "DEF123GHIJ" }
        var whereToFind: Words {
            self == .keyID
                ? Words("the Key ID shown next to the key in your Apple Developer account (also in the file name AuthKey_<KEYID>.p8)",
                        es: "el Key ID que aparece junto a la clave en tu cuenta de Apple Developer (también en el nombre del archivo AuthKey_<KEYID>.p8)")
                : Words("the Team ID shown under Membership in your Apple Developer account",
                        es: "el Team ID que aparece en Membership de tu cuenta de Apple Developer")
        }
        var spanishName: String { self == .keyID ? "el id de clave (key id)" : "el id de equipo (team id)" }
    }

    public let kind: Kind
    public let value: String

    public init(_ kind: Kind, _ text: String) throws(InputError) {
        guard AppleIdentifier.isWellFormed(text) else {
            let shown = text.isEmpty ? "an empty value" : "'\(OutsideText.display(text))'"
            let mostrado = text.isEmpty ? "un valor vacío" : "'\(OutsideText.display(text))'"
            throw InputError(
                Words("\(kind.rawValue) must be 10 characters, A–Z and 0–9 (for example \(kind.example)); got \(shown)",
                      es: "\(kind.spanishName) tiene 10 caracteres, A–Z y 0–9 (por ejemplo \(kind.example)); se recibió \(mostrado)"),
                hint: AppleIdentifier.nearMiss(text) ?? Words("use ", es: "usa ") + kind.whereToFind
            )
        }
        self.kind = kind
        self.value = text
    }

    /// An id that is right but for its case or the blanks pasted around it: the id it is.
    static func nearMiss(_ text: String) -> Words? {
        let trimmed = String(text[...].trimmingWhitespace())
        if trimmed != text, isWellFormed(trimmed.uppercased()) {
            return Words("leave out the blanks around it: \(trimmed.uppercased())", es: "quita los espacios de alrededor: \(trimmed.uppercased())")
        }
        if isWellFormed(text.uppercased()) {
            return Words("Apple's ids are in capitals: \(text.uppercased())", es: "los ids de Apple van en mayúsculas: \(text.uppercased())")
        }
        return nil
    }

    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The `<ID>` in a file named `AuthKey_<ID>.p8`, if the name has that shape. A copy keeps its
    /// id: a browser's second download (`AuthKey_ABC123DEFG (1).p8`), the Finder's
    /// (`… copy.p8`, `… copy 2.p8`) or a `-2` suffix.
    public static func keyID(fromKeyFileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
        if !isWellFormed(id), isWellFormed(String(id.prefix(10))), isCopySuffix(id.dropFirst(10)) { return String(id.prefix(10)) }
        return id.isEmpty ? nil : id
    }

    private static func isCopySuffix(_ tail: Substring) -> Bool {
        func number(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        let spaced = tail.drop { $0 == " " }
        if spaced.hasPrefix("("), spaced.hasSuffix(")"), spaced.count > 2 { return number(spaced.dropFirst().dropLast()) }
        if tail.first == " ", spaced == "copy" || (spaced.hasPrefix("copy ") && number(spaced.dropFirst("copy ".count))) { return true }
        return tail.first == "-" && number(tail.dropFirst())
    }

    /// When the key id in use contradicts the `<ID>` of an `AuthKey_<ID>.p8` file: what to say
    /// before sending, and the likely cause to give if APNs answers InvalidProviderToken.
    public struct KeyFileNameMismatch: Sendable {
        public let named: String
        public let used: String
        /// Where the key id in use came from ("--key-id", "PUSHCTL_KEY_ID").
        public let source: String
        public let fileName: String

        public init?(keyFile path: String, keyID used: String, source: String) {
            guard let named = AppleIdentifier.keyID(fromKeyFileName: path), named != used else { return nil }
            self.named = OutsideText.display(named, limit: 20)
            self.used = OutsideText.display(used, limit: 20)
            self.source = source
            fileName = OutsideText.display(String(path.split(separator: "/").last ?? Substring(path)), limit: 60)
        }

        public var warning: Words {
            Words("the key id \(used) (from \(source)) is not the \(named) in the key file's name \(fileName); if that is Apple's name for the file, its key id is \(named) and APNs will answer InvalidProviderToken",
                  es: "el id de clave \(used) (de \(source)) no es el \(named) del nombre del archivo \(fileName); si es el nombre que Apple le dio, su id de clave es \(named) y APNs responderá InvalidProviderToken")
        }

        public var likelyCause: Words {
            Words("likely cause: the key id \(used) is not \(named), the id in the key file's name (\(fileName))",
                  es: "causa probable: el id de clave \(used) no es \(named), el del nombre del archivo de la clave (\(fileName))")
        }
    }

    /// A random well-formed identifier, for test keys.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<10).map { _ in alphabet.randomElement(using: &generator)! })
    }

    public var description: String { value }
}
