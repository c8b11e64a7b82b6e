/// APNs' rules for a provider token, applied to a decoded JWT: the checks `jwt verify`
/// reports and `jwt decode` summarises.
public struct ProviderTokenCheck: Equatable, Sendable {
    public enum Outcome: String, Sendable { case pass, warning, failure }
    public let outcome: Outcome
    public let message: Words
}

public enum ProviderTokenRules {
    /// APNs rejects a token whose `iat` is older than this (ExpiredProviderToken).
    public static let lifetimeSeconds: Int64 = 60 * 60
    /// pushctl re-signs after this; mature providers refresh at 50–55 minutes.
    public static let reuseSeconds: Int64 = 50 * 60

    /// Whether a token issued at `issuedAt` may still be sent at `now`: younger than the
    /// reuse limit, and not from the future (a clock that went back).
    public static func isReusable(issuedAt: Int64, now: Int64) -> Bool {
        issuedAt <= now + 60 && OutsideNumber.difference(now, issuedAt) < reuseSeconds
    }

    /// The issue time in an `iat` claim, in whole UNIX seconds: an integer, or a JSON number with a
    /// fraction (a NumericDate, RFC 7519 §2, may have one; clients that send `time.time()` do), cut to
    /// the second below. nil for anything else. A string is not a NumericDate, even one of digits: APNs'
    /// answer to it is not documented, so the mock refuses it and `jwt verify` fails it, alike.
    public static func issuedAt(_ value: JSONValue?) -> Int64? {
        switch value {
        case let .integer(seconds)?:
            return seconds
        case let .number(seconds)? where seconds.isFinite && seconds >= -9.2e18 && seconds < 9.2e18:
            return Int64(seconds.rounded(.down))
        default:
            return nil
        }
    }

    /// What APNs refuses in a token's header and claims (signature and age aside): the one decision
    /// the mock answers InvalidProviderToken by and `jwt verify` reports, so that both agree.
    public static func defects(_ jwt: DecodedJWT) -> [ProviderTokenDefect] {
        var found: [ProviderTokenDefect] = []
        if jwt.header["alg"] != .string("ES256") { found.append(.algorithm(jwt.header["alg"])) }
        if !isIdentifier(jwt.header["kid"]) { found.append(.keyID(jwt.header["kid"])) }
        if !isIdentifier(jwt.claims["iss"]) { found.append(.issuer(jwt.claims["iss"])) }
        if issuedAt(jwt.claims["iat"]) == nil { found.append(.issuedAt(jwt.claims["iat"])) }
        return found
    }

    private static func isIdentifier(_ value: JSONValue?) -> Bool {
        value?.stringValue.map(AppleIdentifier.isWellFormed) ?? false
    }

    public static func audit(_ jwt: DecodedJWT, now: Int64) -> [ProviderTokenCheck] {
        var checks: [ProviderTokenCheck] = []
        func pass(_ m: Words) { checks.append(.init(outcome: .pass, message: m)) }
        func warn(_ m: Words) { checks.append(.init(outcome: .warning, message: m)) }
        func fail(_ m: Words) { checks.append(.init(outcome: .failure, message: m)) }
        let defects = defects(jwt)
        func defect(_ matching: (ProviderTokenDefect) -> Bool) -> ProviderTokenDefect? { defects.first(where: matching) }

        if let problem = defect({ if case .algorithm = $0 { true } else { false } }) {
            fail(problem.words)
        } else {
            pass(Words("alg is ES256", es: "alg es ES256"))
        }
        if let typ = jwt.header["typ"].map({ OutsideText.display($0.compact) }), typ != "\"JWT\"" {
            warn(Words("typ is \(typ); it is optional, and \"JWT\" when present", es: "typ es \(typ); es opcional, y \"JWT\" cuando está"))
        }
        if let problem = defect({ if case .keyID = $0 { true } else { false } }) {
            fail(problem.words)
        } else if let kid = jwt.header["kid"]?.stringValue {
            pass(Words("kid \(kid) has the shape of a key id", es: "kid \(kid) tiene la forma de un key id"))
        }
        if let problem = defect({ if case .issuer = $0 { true } else { false } }) {
            fail(problem.words)
        } else if let iss = jwt.claims["iss"]?.stringValue {
            pass(Words("iss \(iss) has the shape of a team id", es: "iss \(iss) tiene la forma de un team id"))
        }

        if let problem = defect({ if case .issuedAt = $0 { true } else { false } }) {
            fail(problem.words)
        } else if let iat = issuedAt(jwt.claims["iat"]) {
            let age = OutsideNumber.difference(now, iat)
            var text = TokenAge.describeWords(issuedAt: iat, now: now)
            if case .number? = jwt.claims["iat"] {
                text = text + Words(" (a number with a fraction, read as whole seconds)", es: " (un número con decimales, leído en segundos enteros)")
            }
            let iatText = Words(verbatim: "iat: ") + text
            if age > lifetimeSeconds {
                fail(iatText + Words(" — APNs answers 403 ExpiredProviderToken", es: " — APNs responde 403 ExpiredProviderToken"))
            } else if age < -60 {
                warn(iatText + Words(" — APNs may refuse a token from the future; check the clock of the machine that signed it",
                                     es: " — APNs puede rechazar un token del futuro; comprueba el reloj de la máquina que lo firmó"))
            } else if age > reuseSeconds {
                warn(iatText + Words(" — sign a new token soon", es: " — firma un token nuevo pronto"))
            } else {
                pass(iatText)
            }
        }
        return checks
    }
}

/// One way a provider token's header or claims break APNs' rules, with the value found (nil: absent).
public enum ProviderTokenDefect: Equatable, Sendable, CustomStringConvertible {
    case algorithm(JSONValue?)
    case keyID(JSONValue?)
    case issuer(JSONValue?)
    case issuedAt(JSONValue?)

    public var description: String { words.description }

    public var words: Words {
        switch self {
        case let .algorithm(value):
            switch value {
            case nil: return Words("the header has no alg; APNs needs \"alg\":\"ES256\"", es: "la cabecera no tiene alg; APNs necesita \"alg\":\"ES256\"")
            case let .string(other)?:
                let shown = OutsideText.display(other)
                return Words("alg is \(shown); APNs accepts only ES256", es: "alg es \(shown); APNs solo acepta ES256")
            case let value?: return Words("alg is \(value.typeName), not the string \"ES256\"", es: "alg es \(value.typeWords.es), no la cadena \"ES256\"")
            }
        case let .keyID(value): return Self.identifier(value, field: "kid", kind: .keyID)
        case let .issuer(value): return Self.identifier(value, field: "iss", kind: .teamID)
        case let .issuedAt(value):
            switch value {
            case nil: return Words("the claims have no iat; APNs needs the issue time in UNIX seconds", es: "los claims no tienen iat; APNs necesita la hora de firma en segundos UNIX")
            case let value?:
                let shown = OutsideText.display(value.compact)
                if case .string = value {
                    return Words("iat is a string (\(shown)); APNs needs a JSON number of UNIX seconds, not text",
                                 es: "iat es una cadena (\(shown)); APNs necesita un número JSON de segundos UNIX, no texto")
                }
                return Words("iat is \(value.typeName) (\(shown)); APNs needs a number of UNIX seconds",
                             es: "iat es \(value.typeWords.es) (\(shown)); APNs necesita un número de segundos UNIX")
            }
        }
    }

    private static func identifier(_ value: JSONValue?, field: String, kind: AppleIdentifier.Kind) -> Words {
        let place = field == "kid" ? Words("the header has", es: "la cabecera no tiene") : Words("the claims have", es: "los claims no tienen")
        switch value {
        case nil:
            return place + Words(" no \(field); APNs needs your 10-character \(kind.rawValue)", es: " \(field); APNs necesita tu \(kind.rawValue) de 10 caracteres")
        case let .string(s)?:
            let shown = OutsideText.display(s)
            return Words("\(field) '\(shown)' is not a 10-character \(kind.rawValue) (A–Z, 0–9, like \(kind.example))",
                         es: "\(field) '\(shown)' no es un \(kind.rawValue) de 10 caracteres (A–Z, 0–9, como \(kind.example))")
        case let v?:
            return Words("\(field) is \(v.typeName); APNs needs a 10-character \(kind.rawValue) string",
                         es: "\(field) es \(v.typeWords.es); APNs necesita un \(kind.rawValue) de 10 caracteres como cadena")
        }
    }
}

extension DecodedJWT {
    /// The `iat` claim in whole seconds, when it is a NumericDate (see ``ProviderTokenRules/issuedAt(_:)``).
    public var issuedAt: Int64? { ProviderTokenRules.issuedAt(claims["iat"]) }
}

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
            return Words(describe(issuedAt: issuedAt, now: now), es: "firmado dentro de \(duration(ahead, spanish: true)), en el futuro")
        }
        let rule = age > ProviderTokenRules.lifetimeSeconds ? "APNs rechaza los tokens de más de \(limit) min" : "APNs lo rechaza pasados \(limit) min"
        return Words(describe(issuedAt: issuedAt, now: now), es: "firmado hace \(duration(age, spanish: true)); \(rule)")
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

/// UTC calendar dates without Foundation's formatters (stable text, any locale).
public enum UTCDate {
    /// "2026-11-21 15:04:05 UTC"
    public static func format(unixSeconds seconds: Int64) -> String {
        // Beyond ±100 million years the arithmetic below could overflow; no real date is there.
        let t = min(max(seconds, -3_000_000_000_000_000), 3_000_000_000_000_000)
        let days = t >= 0 ? t / 86400 : (t - 86399) / 86400
        let secs = t - days * 86400
        let (y, m, d) = HTTPDate.civilFromDays(days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60)) UTC"
    }
}
