public import PushCore
import PushCrypto
public import PushWords

/// `pushctl jwt verify`: a token's signature checked with a key (libcrypto), APNs' rules for
/// provider tokens, and its kid against the key's own id.
public struct TokenVerification {
    /// A kid that names another key: what is wrong, and what to do.
    public struct Mismatch {
        public let check: Words
        public let hint: Words
    }

    /// Whether the key made the signature.
    public let valid: Bool
    public let form: SignatureForm
    /// The signature's form in words (raw r‖s, DER, …).
    public let formWords: Words
    public let checks: [ProviderTokenCheck]
    public let mismatch: Mismatch?
    /// Every APNs check passed and the kid is the key's.
    public var checksPass: Bool { !checks.contains { $0.outcome == .failure } && mismatch == nil }

    /// `keyID` is the key's id as given (`--key-id`, or PUSHCTL_KEY_ID when `keyIDFromEnvironment`);
    /// without one, the id in an `AuthKey_<ID>.p8` file name.
    public init(_ jwt: DecodedJWT, keyPath: String, keyID: String?, keyIDFromEnvironment: Bool, now: Int64) throws(InputError) {
        let key = try SigningKey.verificationKey(at: keyPath)
        valid = key.isValidSignature(jwt.signature, for: Array(jwt.signingInput.utf8))
        form = jwt.signatureForm
        formWords = form.words(byteCount: jwt.signature.count)
        checks = ProviderTokenRules.audit(jwt, now: now)
        mismatch = Self.keyMismatch(jwt, keyPath: keyPath, keyID: keyID, fromEnvironment: keyIDFromEnvironment, signatureValid: valid)
    }

    /// The token's kid against the key's own id (from --key-id, PUSHCTL_KEY_ID or the file's
    /// name): APNs looks the key up by kid, so a token whose kid names another key is refused.
    static func keyMismatch(_ jwt: DecodedJWT, keyPath: String, keyID given: String?, fromEnvironment: Bool, signatureValid: Bool) -> Mismatch? {
        let source: Words
        let keyID: String
        if let given {
            (keyID, source) = (given, fromEnvironment ? Words(verbatim: "PUSHCTL_KEY_ID") : Words.named(.keyID))
        } else if let named = AppleIdentifier.keyID(fromKeyFileName: keyPath) {
            let file = OutsideText.display(keyPath.split(separator: "/").last ?? "", limit: 60)
            (keyID, source) = (named, Words("the file name \(file)", es: "el nombre del archivo \(file)"))
        } else {
            return nil
        }
        guard let kid = jwt.header["kid"]?.stringValue, kid != keyID else { return nil }
        let shownKid = OutsideText.display(kid, limit: 40)
        let shownKey = OutsideText.display(keyID, limit: 40)
        let check = Words(
            "kid \(shownKid) is not this key's id \(shownKey) (from \(source)): APNs looks the key up by kid and would refuse the token (InvalidProviderToken)",
            es:
                "kid \(shownKid) no es el id de esta clave, \(shownKey) (según \(source)): APNs busca la clave por el kid y rechazaría el token (InvalidProviderToken)"
        )
        let hint =
            signatureValid
            ? Words(
                "the signature is this key's, so the token was signed with the wrong key id: sign again with \(Setting.keyID) \(shownKey) (or, if the file was renamed, use the Key ID Apple shows for this key)",
                es:
                    "la firma es de esta clave, así que el token se firmó con un key id equivocado: vuelve a firmar con \(Setting.keyID) \(shownKey) (o, si se renombró el archivo, usa el Key ID que Apple muestra para esta clave)"
            )
            : Words(
                "the token was signed by another key: verify it with that key (AuthKey_\(shownKid).p8), or sign a new token with this one",
                es: "el token lo firmó otra clave: verifícalo con esa clave (AuthKey_\(shownKid).p8), o firma un token nuevo con esta")
        return Mismatch(check: check, hint: hint)
    }

    /// The verdict as `pushctl jwt verify` prints it, in `language`: the signature (`paint`
    /// colours it, good or not), each APNs check with its mark from `marks`, the kid, the result,
    /// and what to do.
    public func lines(marks: [ProviderTokenCheck.Outcome: String], language: Language, naming: SettingNaming = .plain, paint: (String, Bool) -> String)
        -> [String]
    {
        let formText = formWords.text(language, naming: naming)
        var out: [String]
        if valid {
            out = [paint(Words("signature: valid", es: "firma: válida").text(language, naming: naming), true) + " — " + formText]
        } else if form == .unrecognized {
            out = [paint(Words("signature: invalid", es: "firma: no válida").text(language, naming: naming), false) + " — " + formText]
        } else {
            out = [
                paint(Words("signature: invalid", es: "firma: no válida").text(language, naming: naming), false)
                    + Words(
                        " — not made by this key, or the token was changed (\(formText))", es: " — no la hizo esta clave, o el token se cambió (\(formText))"
                    ).text(language, naming: naming)
            ]
        }
        out.append(Words("APNs checks:", es: "comprobaciones de APNs:").text(language, naming: naming))
        out += checks.map { "  " + (marks[$0.outcome] ?? "") + " " + $0.message.text(language, naming: naming) }
        if let mismatch { out.append("  " + (marks[.failure] ?? "") + " " + mismatch.check.text(language, naming: naming)) }
        out.append(
            Words(
                "result: signature \(valid ? "valid" : "invalid"), APNs checks \(checksPass ? "passed" : "failed")",
                es: "resultado: firma \(valid ? "válida" : "no válida"), comprobaciones de APNs \(checksPass ? "superadas" : "no superadas")"
            ).text(language, naming: naming))
        if let mismatch { out.append(Words("hint: ", es: "sugerencia: ").text(language, naming: naming) + mismatch.hint.text(language, naming: naming)) }
        return out
    }
}

extension DecodedJWT {
    /// The token as `pushctl jwt decode` shows it: header and claims, when it was signed (and how
    /// long ago), and its signature's form, in `language`.
    public func lines(now: Int64, language: Language, naming: SettingNaming = .plain) -> [String] {
        func indent(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
        var out = [Words("header:", es: "cabecera:").text(language, naming: naming)] + indent(header.pretty) + ["claims:"] + indent(claims.pretty)
        if let iat = issuedAt {
            let when = UTCDate.format(unixSeconds: iat)
            out.append(
                (Words("issued at: \(when) (", es: "firmado el: \(when) (") + TokenAge.describeWords(issuedAt: iat, now: now) + Words(verbatim: ")"))
                    .text(language, naming: naming))
        } else {
            out.append(
                Words(
                    "issued at: no iat claim that is a number of UNIX seconds; APNs needs one",
                    es: "firmado el: no hay claim iat que sea un número de segundos UNIX; APNs lo necesita"
                ).text(language, naming: naming))
        }
        out.append(
            Words("signature: ", es: "firma: ").text(language, naming: naming) + signatureForm.words(byteCount: signature.count).text(language, naming: naming))
        return out
    }
}
