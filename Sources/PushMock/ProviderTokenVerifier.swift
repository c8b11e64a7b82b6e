import Crypto
import NIOConcurrencyHelpers
import PushCore

/// Checks `authorization: bearer <JWT>` as APNs does: ES256, a known key id, a valid signature
/// (raw r‖s or DER), the team, and the token's age.
///
/// Clients reuse one token for many requests, so everything but the age is decided once per
/// token string and cached.
final class ProviderTokenVerifier: Sendable {
    /// What is known about a token independent of the clock.
    struct Verdict: Sendable {
        /// nil: the token is good apart from its age.
        let failure: RejectionReason?
        let issuedAt: Int64
        /// `bearer <header JSON> <claims JSON>`: what the log shows instead of the token.
        let loggable: String
    }

    private let keys: [String: [UInt8]]
    private let teamID: String?
    private let cache = NIOLockedValueBox([String: Verdict]())
    private static let cacheLimit = 4096
    /// How far in the future an `iat` may be, for clock differences between machines.
    static let clockSkewSeconds: Int64 = 60

    init(keys: [MockProviderKey], teamID: String?) {
        var table: [String: [UInt8]] = [:]
        for key in keys { table[key.keyID] = key.publicKeyX963 }
        self.keys = table
        self.teamID = teamID
    }

    var checksSignatures: Bool { !keys.isEmpty }

    /// The reason to refuse the request, or nil when the token is accepted.
    func check(authorization: String?, now: Int64) -> (failure: RejectionReason?, loggable: String?) {
        guard let authorization else { return (.missingProviderToken, nil) }
        let verdict = self.verdict(for: authorization)
        if let failure = verdict.failure { return (failure, verdict.loggable) }
        // `iat` is the client's number: any Int64, so the difference may not fit (that token is
        // as expired as they come).
        let (age, overflow) = now.subtractingReportingOverflow(verdict.issuedAt)
        if overflow || age > ProviderTokenRules.lifetimeSeconds || age < -Self.clockSkewSeconds {
            return (.expiredProviderToken, verdict.loggable)
        }
        return (nil, verdict.loggable)
    }

    /// The log's form of an authorization value, without its signature.
    func loggable(authorization: String) -> String { verdict(for: authorization).loggable }

    private func verdict(for authorization: String) -> Verdict {
        if let known = cache.withLockedValue({ $0[authorization] }) { return known }
        let fresh = evaluate(authorization)
        cache.withLockedValue { table in
            if table.count >= Self.cacheLimit { table.removeAll(keepingCapacity: true) }
            table[authorization] = fresh
        }
        return fresh
    }

    private func evaluate(_ authorization: String) -> Verdict {
        let scheme = authorization.prefix(7).lowercased()
        guard scheme == "bearer " else {
            return Verdict(
                failure: .invalidProviderToken, issuedAt: 0,
                loggable: "<not a bearer token: \(authorization.utf8.count) bytes>")
        }
        if authorization.dropFirst(7).allSatisfy(\.isWhitespace) {
            return Verdict(failure: .missingProviderToken, issuedAt: 0, loggable: "bearer")
        }
        let jwt: DecodedJWT
        do { jwt = try DecodedJWT(parsing: authorization) } catch {
            return Verdict(
                failure: .invalidProviderToken, issuedAt: 0,
                loggable: "bearer <not a JWT: \(error.message)>")
        }
        let loggable = "bearer \(jwt.header.compact) \(jwt.claims.compact)"
        func fail(_ reason: RejectionReason = .invalidProviderToken) -> Verdict {
            Verdict(failure: reason, issuedAt: 0, loggable: loggable)
        }

        guard jwt.header["alg"] == .string("ES256"),
            let kid = jwt.header["kid"]?.stringValue, AppleIdentifier.isWellFormed(kid),
            let iss = jwt.claims["iss"]?.stringValue, AppleIdentifier.isWellFormed(iss),
            let iat = jwt.claims["iat"]?.integerValue
        else { return fail() }
        if let teamID, iss != teamID { return fail() }

        let form = jwt.signatureForm
        if keys.isEmpty {
            // Shape only: without a key the mock cannot tell a good signature from a bad one.
            return form == .unrecognized ? fail() : Verdict(failure: nil, issuedAt: iat, loggable: loggable)
        }
        guard let keyBytes = keys[kid], let key = try? P256.Signing.PublicKey(x963Representation: keyBytes) else { return fail() }
        let signature: P256.Signing.ECDSASignature
        do {
            switch form {
            case .raw: signature = try P256.Signing.ECDSASignature(rawRepresentation: jwt.signature)
            case .der: signature = try P256.Signing.ECDSASignature(derRepresentation: jwt.signature)
            case .unrecognized: return fail()
            }
        } catch {
            return fail()
        }
        guard key.isValidSignature(signature, for: Array(jwt.signingInput.utf8)) else { return fail() }
        return Verdict(failure: nil, issuedAt: iat, loggable: loggable)
    }
}
