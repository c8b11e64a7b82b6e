public import PushCore

// Provider tokens (JWTs): reading one, APNs' rules for it, its age; a signature's form; the
// clock's skew.

extension ProviderTokenProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .empty:
            return Words("the JWT is empty", es: "el JWT está vacío")
        case .parts(let count):
            return Words(
                "a JWT has three parts separated by '.', this one has \(count)",
                es: "un JWT tiene tres partes separadas por '.', y este tiene \(count)")
        case .partEmpty(let part, let name):
            return Words("the \(name) (part \(part)) is empty", es: "la parte \(part) (\(name)) está vacía")
        case .partNotBase64URL(let part, let name):
            return Words("the \(name) (part \(part)) is not valid base64url", es: "la parte \(part) (\(name)) no es base64url válido")
        case .partNotJSON(let part, let name, let error):
            // The parser's complaint as its description says it (English, with the byte offset).
            let why = error.description
            return Words("the \(name) (part \(part)) is not valid JSON: \(why)", es: "la parte \(part) (\(name)) no es JSON válido: \(why)")
        case .partNotObject(let part, let name, let kind):
            return Words(
                "the \(name) (part \(part)) holds \(kind.words), not a JSON object",
                es: "la parte \(part) (\(name)) contiene \(kind.words), no un objeto JSON")
        case .signatureEmpty:
            return Words("the signature (part 3) is empty: this token is unsigned", es: "la firma (parte 3) está vacía: este token no está firmado")
        case .signatureNotBase64URL:
            return Words("the signature (part 3) is not valid base64url", es: "la firma (parte 3) no es base64url válido")
        case .cannotSign(let detail):
            return Words("could not sign the provider token: \(detail)", es: "no se pudo firmar el token del proveedor: \(detail)")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .empty:
            return Words(
                "pass the token as an argument, or '-' to read it from standard input",
                es: "pasa el token como argumento, o '-' para leerlo de la entrada estándar")
        case .parts:
            return Words("copy the whole token: header.claims.signature", es: "copia el token entero: cabecera.claims.firma")
        case .partNotBase64URL, .signatureNotBase64URL:
            return Words("was the token cut or wrapped when copied?", es: "¿se cortó o partió el token al copiarlo?")
        case .partEmpty, .partNotJSON, .partNotObject, .signatureEmpty, .cannotSign:
            return nil
        }
    }
}

extension ProviderTokenCheck {
    /// What the check found, in every language.
    public var message: Words { finding.words }
}

extension ProviderTokenFinding {
    public var words: Words {
        switch self {
        case .algorithm:
            return Words("alg is ES256", es: "alg es ES256")
        case .type(let typ):
            return Words("typ is \(typ); it is optional, and \"JWT\" when present", es: "typ es \(typ); es opcional, y \"JWT\" cuando está")
        case .keyID(let kid):
            return Words("kid \(kid) has the shape of a key id", es: "kid \(kid) tiene la forma de un key id")
        case .issuer(let iss):
            return Words("iss \(iss) has the shape of a team id", es: "iss \(iss) tiene la forma de un team id")
        case .defect(let defect):
            return defect.words
        case .age(let issuedAt, let now, let fraction, let verdict):
            var text = TokenAge.describeWords(issuedAt: issuedAt, now: now)
            if fraction {
                text = text + Words(" (a number with a fraction, read as whole seconds)", es: " (un número con decimales, leído en segundos enteros)")
            }
            let iatText = Words(verbatim: "iat: ") + text
            switch verdict {
            case .expired:
                return iatText + Words(" — APNs answers 403 ExpiredProviderToken", es: " — APNs responde 403 ExpiredProviderToken")
            case .future:
                return iatText
                    + Words(
                        " — APNs may refuse a token from the future; check the clock of the machine that signed it",
                        es: " — APNs puede rechazar un token del futuro; comprueba el reloj de la máquina que lo firmó")
            case .renewSoon:
                return iatText + Words(" — sign a new token soon", es: " — firma un token nuevo pronto")
            case .fresh:
                return iatText
            }
        }
    }
}

extension ProviderTokenDefect {
    public var words: Words {
        switch self {
        case .algorithm(let value):
            switch value {
            case nil: return Words("the header has no alg; APNs needs \"alg\":\"ES256\"", es: "la cabecera no tiene alg; APNs necesita \"alg\":\"ES256\"")
            case .string(let other)?:
                let shown = OutsideText.display(other)
                return Words("alg is \(shown); APNs accepts only ES256", es: "alg es \(shown); APNs solo acepta ES256")
            case let value?: return Words("alg is \(value.typeName), not the string \"ES256\"", es: "alg es \(value.typeWords), no la cadena \"ES256\"")
            }
        case .keyID(let value): return Self.identifier(value, field: "kid", kind: .keyID)
        case .issuer(let value): return Self.identifier(value, field: "iss", kind: .teamID)
        case .issuedAt(let value):
            switch value {
            case nil:
                return Words(
                    "the claims have no iat; APNs needs the issue time in UNIX seconds",
                    es: "los claims no tienen iat; APNs necesita la hora de firma en segundos UNIX")
            case let value?:
                let shown = OutsideText.display(value.compact)
                if case .string = value {
                    return Words(
                        "iat is a string (\(shown)); APNs needs a JSON number of UNIX seconds, not text",
                        es: "iat es una cadena (\(shown)); APNs necesita un número JSON de segundos UNIX, no texto")
                }
                return Words(
                    "iat is \(value.typeName) (\(shown)); APNs needs a number of UNIX seconds",
                    es: "iat es \(value.typeWords) (\(shown)); APNs necesita un número de segundos UNIX")
            }
        }
    }

    private static func identifier(_ value: JSONValue?, field: String, kind: AppleIdentifier.Kind) -> Words {
        let place = field == "kid" ? Words("the header has", es: "la cabecera no tiene") : Words("the claims have", es: "los claims no tienen")
        switch value {
        case nil:
            return place
                + Words(" no \(field); APNs needs your 10-character \(kind.rawValue)", es: " \(field); APNs necesita tu \(kind.rawValue) de 10 caracteres")
        case .string(let s)?:
            let shown = OutsideText.display(s)
            return Words(
                "\(field) '\(shown)' is not a 10-character \(kind.rawValue) (A–Z, 0–9, like \(kind.example))",
                es: "\(field) '\(shown)' no es un \(kind.rawValue) de 10 caracteres (A–Z, 0–9, como \(kind.example))")
        case let v?:
            return Words(
                "\(field) is \(v.typeName); APNs needs a 10-character \(kind.rawValue) string",
                es: "\(field) es \(v.typeWords); APNs necesita un \(kind.rawValue) de 10 caracteres como cadena")
        }
    }
}

/// A provider token's age, as people read it.
public enum TokenAge {
    /// "issued 12 min ago; APNs rejects it after 60 min"
    public static func describe(issuedAt: Int64, now: Int64) -> String {
        let age = OutsideNumber.difference(now, issuedAt)
        if age < 0 { return "issued \(duration(age == .min ? .max : -age)) in the future" }
        let limit = ProviderTokenRules.lifetimeSeconds / 60
        if age > ProviderTokenRules.lifetimeSeconds {
            return "issued \(duration(age)) ago; APNs rejects tokens older than \(limit) min"
        }
        return "issued \(duration(age)) ago; APNs rejects it after \(limit) min"
    }

    /// `describe` in both languages.
    public static func describeWords(issuedAt: Int64, now: Int64) -> Words {
        let age = OutsideNumber.difference(now, issuedAt)
        let limit = ProviderTokenRules.lifetimeSeconds / 60
        if age < 0 {
            let ahead = age == .min ? Int64.max : -age
            return Words("\(describe(issuedAt: issuedAt, now: now))", es: "firmado dentro de \(duration(ahead, spanish: true)), en el futuro")
        }
        let rule = age > ProviderTokenRules.lifetimeSeconds ? "APNs rechaza los tokens de más de \(limit) min" : "APNs lo rechaza pasados \(limit) min"
        return Words("\(describe(issuedAt: issuedAt, now: now))", es: "firmado hace \(duration(age, spanish: true)); \(rule)")
    }

    static func duration(_ seconds: Int64, spanish: Bool) -> String {
        spanish && seconds >= 2 * 86400 ? "\(seconds / 86400) días" : duration(seconds)
    }

    static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 2 * 3600 { return "\(seconds / 60) min" }
        if seconds < 2 * 86400 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        return "\(seconds / 86400) days"
    }
}

extension SignatureForm {
    public func words(byteCount: Int) -> Words {
        switch self {
        case .raw:
            return Words(
                "raw r‖s, \(byteCount) bytes (standard JOSE ES256, RFC 7518 §3.4)",
                es: "r‖s en bruto, \(byteCount) bytes (ES256 estándar de JOSE, RFC 7518 §3.4)")
        case .der:
            return Words(
                "DER, \(byteCount) bytes (as made by `openssl dgst -sign`; not standard JOSE, but APNs accepts it)",
                es: "DER, \(byteCount) bytes (como la hace `openssl dgst -sign`; no es JOSE estándar, pero APNs la acepta)")
        case .unrecognized:
            return Words(
                "\(byteCount) bytes, neither raw r‖s (64 bytes) nor a DER ECDSA signature",
                es: "\(byteCount) bytes, ni r‖s en bruto (64 bytes) ni una firma ECDSA en DER")
        }
    }
}

extension ClockSkew {
    /// "4 s ahead", "2 min behind", "in step".
    public var description: String { words.en }

    /// "4 s ahead" / "4 s adelantado", in every language.
    public var words: Words {
        if seconds == 0 { return Words("in step", es: "en hora") }
        let magnitude = Int64(clamping: seconds.magnitude)
        let amount = Words("\(TokenAge.duration(magnitude))", es: "\(TokenAge.duration(magnitude, spanish: true))")
        return amount + (seconds > 0 ? Words(" ahead", es: " adelantado") : Words(" behind", es: " atrasado"))
    }
}
