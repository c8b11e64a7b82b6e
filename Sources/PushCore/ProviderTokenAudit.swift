/// APNs' rules for a provider token, applied to a decoded JWT: the checks `jwt verify`
/// reports and `jwt decode` summarises.
public struct ProviderTokenCheck: Equatable, Sendable {
    public enum Outcome: String, Sendable { case pass, warning, failure }
    public let outcome: Outcome
    /// What the check found (the catalog's `message` says it).
    public let finding: ProviderTokenFinding
}

/// What one of `audit`'s checks found.
public enum ProviderTokenFinding: Sendable, Equatable {
    /// alg is ES256.
    case algorithm
    /// typ is there and not "JWT" (its JSON, shown).
    case type(String)
    /// kid has the shape of a key id.
    case keyID(String)
    /// iss has the shape of a team id.
    case issuer(String)
    /// What APNs refuses in the header or the claims.
    case defect(ProviderTokenDefect)
    /// The token's age: issued at `issuedAt` (`fraction`: iat was a number with a fraction), seen at `now`.
    case age(issuedAt: Int64, now: Int64, fraction: Bool, IssuedAtVerdict)

    public enum IssuedAtVerdict: Sendable, Equatable, CaseIterable {
        /// Over 60 minutes old: APNs answers ExpiredProviderToken.
        case expired
        /// More than a minute in the future.
        case future
        /// Past the age pushctl re-signs at.
        case renewSoon
        case fresh
    }
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
        case .integer(let seconds)?:
            return seconds
        case .number(let seconds)? where seconds.isFinite && seconds >= -9.2e18 && seconds < 9.2e18:
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
        func pass(_ f: ProviderTokenFinding) { checks.append(.init(outcome: .pass, finding: f)) }
        func warn(_ f: ProviderTokenFinding) { checks.append(.init(outcome: .warning, finding: f)) }
        func fail(_ f: ProviderTokenFinding) { checks.append(.init(outcome: .failure, finding: f)) }
        let defects = defects(jwt)
        func defect(_ matching: (ProviderTokenDefect) -> Bool) -> ProviderTokenDefect? { defects.first(where: matching) }

        if let problem = defect({ if case .algorithm = $0 { true } else { false } }) {
            fail(.defect(problem))
        } else {
            pass(.algorithm)
        }
        if let typ = jwt.header["typ"].map({ OutsideText.display($0.compact) }), typ != "\"JWT\"" {
            warn(.type(typ))
        }
        if let problem = defect({ if case .keyID = $0 { true } else { false } }) {
            fail(.defect(problem))
        } else if let kid = jwt.header["kid"]?.stringValue {
            pass(.keyID(kid))
        }
        if let problem = defect({ if case .issuer = $0 { true } else { false } }) {
            fail(.defect(problem))
        } else if let iss = jwt.claims["iss"]?.stringValue {
            pass(.issuer(iss))
        }

        if let problem = defect({ if case .issuedAt = $0 { true } else { false } }) {
            fail(.defect(problem))
        } else if let iat = issuedAt(jwt.claims["iat"]) {
            let age = OutsideNumber.difference(now, iat)
            var fraction = false
            if case .number? = jwt.claims["iat"] { fraction = true }
            func aged(_ verdict: ProviderTokenFinding.IssuedAtVerdict) -> ProviderTokenFinding {
                .age(issuedAt: iat, now: now, fraction: fraction, verdict)
            }
            if age > lifetimeSeconds {
                fail(aged(.expired))
            } else if age < -60 {
                warn(aged(.future))
            } else if age > reuseSeconds {
                warn(aged(.renewSoon))
            } else {
                pass(aged(.fresh))
            }
        }
        return checks
    }
}

/// One way a provider token's header or claims break APNs' rules, with the value found (nil: absent).
public enum ProviderTokenDefect: Equatable, Sendable {
    case algorithm(JSONValue?)
    case keyID(JSONValue?)
    case issuer(JSONValue?)
    case issuedAt(JSONValue?)

    // In words ("alg is HS256; APNs accepts only ES256"): the catalog's `words`.
}

extension DecodedJWT {
    /// The `iat` claim in whole seconds, when it is a NumericDate (see ``ProviderTokenRules/issuedAt(_:)``).
    public var issuedAt: Int64? { ProviderTokenRules.issuedAt(claims["iat"]) }
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
