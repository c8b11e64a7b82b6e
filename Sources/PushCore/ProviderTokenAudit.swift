/// APNs' rules for a provider token, applied to a decoded JWT: the checks `jwt verify`
/// reports and `jwt decode` summarises.
public struct ProviderTokenCheck: Equatable, Sendable {
    public enum Outcome: String, Sendable { case pass, warning, failure }
    public let outcome: Outcome
    public let message: String
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

    public static func audit(_ jwt: DecodedJWT, now: Int64) -> [ProviderTokenCheck] {
        var checks: [ProviderTokenCheck] = []
        func pass(_ m: String) { checks.append(.init(outcome: .pass, message: m)) }
        func warn(_ m: String) { checks.append(.init(outcome: .warning, message: m)) }
        func fail(_ m: String) { checks.append(.init(outcome: .failure, message: m)) }

        switch jwt.header["alg"] {
        case .string("ES256")?: pass("alg is ES256")
        case let .string(other)?: fail("alg is \(OutsideText.display(other)); APNs accepts only ES256")
        case nil: fail("the header has no alg; APNs needs \"alg\":\"ES256\"")
        case let value?: fail("alg is \(value.typeName), not the string \"ES256\"")
        }
        if let typ = jwt.header["typ"], typ != .string("JWT") {
            warn("typ is \(OutsideText.display(typ.compact)); it is optional, and \"JWT\" when present")
        }
        identifier(jwt.header["kid"], field: "kid", kind: .keyID, pass: pass, fail: fail)
        identifier(jwt.claims["iss"], field: "iss", kind: .teamID, pass: pass, fail: fail)

        switch jwt.claims["iat"] {
        case nil:
            fail("the claims have no iat; APNs needs the issue time in UNIX seconds")
        case let .integer(iat)?:
            let age = OutsideNumber.difference(now, iat)
            let text = TokenAge.describe(issuedAt: iat, now: now)
            if age > lifetimeSeconds {
                fail("iat: \(text) — APNs answers 403 ExpiredProviderToken")
            } else if age < -60 {
                warn("iat: \(text) — APNs may refuse a token from the future; check the clock of the machine that signed it")
            } else if age > reuseSeconds {
                warn("iat: \(text) — sign a new token soon")
            } else {
                pass("iat: \(text)")
            }
        case let value?:
            fail("iat is \(value.typeName) (\(OutsideText.display(value.compact))); APNs needs an integer number of UNIX seconds")
        }
        return checks
    }

    private static func identifier(
        _ value: JSONValue?, field: String, kind: AppleIdentifier.Kind,
        pass: (String) -> Void, fail: (String) -> Void
    ) {
        let place = field == "kid" ? "the header has" : "the claims have"
        switch value {
        case nil: fail("\(place) no \(field); APNs needs your 10-character \(kind.rawValue)")
        case let .string(s)? where AppleIdentifier.isWellFormed(s): pass("\(field) \(s) has the shape of a \(kind.rawValue)")
        case let .string(s)?: fail("\(field) '\(OutsideText.display(s))' is not a 10-character \(kind.rawValue) (A–Z, 0–9, like \(kind.example))")
        case let v?: fail("\(field) is \(v.typeName); APNs needs a 10-character \(kind.rawValue) string")
        }
    }
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
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60)) UTC"
    }
}
