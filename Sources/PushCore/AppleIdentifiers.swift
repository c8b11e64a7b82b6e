/// A 10-character identifier Apple issues (A–Z, 0–9): the Key ID of a `.p8` key, or a Team ID.
public struct AppleIdentifier: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case keyID = "key id"
        case teamID = "team id"

        public var example: String { self == .keyID ? "ABC123DEFG" : "DEF123GHIJ" }
    }

    public let kind: Kind
    public let value: String

    public init(_ kind: Kind, _ text: String) throws(InputError) {
        guard AppleIdentifier.isWellFormed(text) else {
            throw InputError(
                AppleIdentifierProblem.malformed(
                    kind, shown: text.isEmpty ? nil : OutsideText.display(text),
                    nearMiss: AppleIdentifier.nearMiss(text)))
        }
        self.kind = kind
        self.value = text
    }

    /// An id that is right but for its case or the blanks pasted around it: the id it is.
    static func nearMiss(_ text: String) -> AppleIdentifierProblem.NearMiss? {
        let trimmed = String(text[...].trimmingWhitespace())
        if trimmed != text, isWellFormed(trimmed.uppercased()) { return .blanksAround(trimmed.uppercased()) }
        if isWellFormed(text.uppercased()) { return .lowerCase(text.uppercased()) }
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

        // What to say of it (`warning`, `likelyCause`) is the catalog's (PushWords).
    }

    /// A random well-formed identifier, for test keys.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<10).map { _ in alphabet.randomElement(using: &generator)! })
    }

    public var description: String { value }
}

/// What is wrong with a key id or a team id.
public enum AppleIdentifierProblem: InputProblem {
    /// Not 10 characters of A–Z and 0–9; `shown` is the value as given (nil: empty).
    case malformed(AppleIdentifier.Kind, shown: String?, nearMiss: NearMiss?)

    /// The id it is, when only its case or the blanks around it are wrong.
    public enum NearMiss: Sendable, Equatable {
        case blanksAround(String)
        case lowerCase(String)
    }
}
