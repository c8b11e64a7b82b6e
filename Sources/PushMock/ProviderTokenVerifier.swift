import Crypto
import NIOConcurrencyHelpers
import PushCore
import PushWords

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
        /// Which check failed, in words (nil when none did): what the log and the console show.
        let detail: String?
        let issuedAt: Int64
        /// `bearer <header JSON> <claims JSON>`: what the log shows instead of the token.
        let loggable: String
        /// The key folder's key this verdict was reached with (nil: the kid had none there): when
        /// the folder's key for that kid changes, is removed or arrives, the token is judged again.
        var folderKey: (kid: String, key: [UInt8]?)?
    }

    private let keys: [String: [UInt8]]
    private let directory: MockKeyDirectory?
    private let teamID: String?
    private let cache = NIOLockedValueBox([String: Verdict]())
    /// Told once per token refused (and once more if it later expires), with the reason and its detail.
    private let onRefusal: (@Sendable (RejectionReason, String) -> Void)?
    /// The language of a refusal's detail.
    private let language: Language
    private let reportedExpired = NIOLockedValueBox(Set<String>())
    private static let cacheLimit = 4096
    /// How far in the future an `iat` may be, for clock differences between machines.
    static let clockSkewSeconds: Int64 = 60

    init(
        keys: [MockProviderKey], directory: String? = nil, teamID: String?, onRefusal: (@Sendable (RejectionReason, String) -> Void)? = nil,
        onKeyFolderProblem: @escaping @Sendable (MockWarning) -> Void = { _ in }, language: Language = .en
    ) {
        self.language = language
        var table: [String: [UInt8]] = [:]
        for key in keys { table[key.keyID] = key.publicKeyX963 }
        self.keys = table
        self.directory = directory.map { MockKeyDirectory(path: $0, warn: onKeyFolderProblem) }
        self.teamID = teamID
        self.onRefusal = onRefusal
    }

    var checksSignatures: Bool { !keys.isEmpty || directory != nil }

    /// The reason to refuse the request, or nil when the token is accepted (then its `iat` too).
    func check(authorization: String?, now: Int64) -> (failure: RejectionReason?, loggable: String?, issuedAt: Int64?) {
        let refusal = refusal(authorization: authorization, now: now)
        return (refusal.reason, refusal.loggable, refusal.reason == nil ? refusal.issuedAt : nil)
    }

    /// The reason to refuse the request and which check failed, or nil reason and detail when the token is accepted.
    func refusal(authorization: String?, now: Int64) -> (reason: RejectionReason?, detail: String?, loggable: String?, issuedAt: Int64?) {
        guard let authorization else { return (.missingProviderToken, "no authorization header", nil, nil) }
        let verdict = self.verdict(for: authorization)
        if let failure = verdict.failure { return (failure, verdict.detail, verdict.loggable, nil) }
        // `iat` is the client's number: any Int64, so the difference may not fit (that token is
        // as expired as they come).
        let (age, overflow) = now.subtractingReportingOverflow(verdict.issuedAt)
        if overflow || age > ProviderTokenRules.lifetimeSeconds || age < -Self.clockSkewSeconds {
            let detail =
                "iat: " + TokenAge.describe(issuedAt: verdict.issuedAt, now: now)
                + (age < 0 && !overflow ? " (more than \(Self.clockSkewSeconds) s ahead of this machine's clock)" : "")
            if let onRefusal {
                let first = reportedExpired.withLockedValue { reported in
                    if reported.count >= Self.cacheLimit { reported.removeAll(keepingCapacity: true) }
                    return reported.insert(authorization).inserted
                }
                if first { onRefusal(.expiredProviderToken, detail) }
            }
            return (.expiredProviderToken, detail, verdict.loggable, verdict.issuedAt)
        }
        return (nil, nil, verdict.loggable, verdict.issuedAt)
    }

    /// The log's form of an authorization value, without its signature.
    func loggable(authorization: String) -> String { verdict(for: authorization).loggable }

    private func verdict(for authorization: String) -> Verdict {
        let known = cache.withLockedValue { $0[authorization] }
        // A verdict reached with the key folder stands while the folder's key for its kid is the
        // same (looked at again at most once a second): a key added makes a refused token pass,
        // a key changed or removed makes an accepted one be judged again.
        if let known, !(known.folderKey.map { directory?.key(for: $0.kid) != $0.key } ?? false) { return known }
        let fresh = evaluate(authorization)
        if known == nil, let failure = fresh.failure, let detail = fresh.detail { onRefusal?(failure, detail) }
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
                failure: .invalidProviderToken, detail: "the authorization header is not 'bearer <JWT>'", issuedAt: 0,
                loggable: "<not a bearer token: \(authorization.utf8.count) bytes>")
        }
        if authorization.dropFirst(7).allSatisfy(\.isWhitespace) {
            return Verdict(failure: .missingProviderToken, detail: "'bearer' with no token after it", issuedAt: 0, loggable: "bearer")
        }
        let jwt: DecodedJWT
        do { jwt = try DecodedJWT(parsing: authorization) } catch {
            return Verdict(
                failure: .invalidProviderToken, detail: "not a JWT: \(error.message(language))", issuedAt: 0,
                loggable: "bearer <not a JWT: \(error.message(language))>")
        }
        let loggable = "bearer \(jwt.header.compact) \(jwt.claims.compact)"
        func fail(_ detail: String) -> Verdict {
            Verdict(failure: .invalidProviderToken, detail: detail, issuedAt: 0, loggable: loggable)
        }

        // The same rules `pushctl jwt verify` applies.
        let defects = ProviderTokenRules.defects(jwt)
        guard defects.isEmpty, let kid = jwt.header["kid"]?.stringValue, let iss = jwt.claims["iss"]?.stringValue,
            let iat = jwt.issuedAt
        else { return fail(defects.map { $0.words.text(language) }.joined(separator: "; ")) }
        if let teamID, iss != teamID { return fail("iss \(iss) is not the team this mock serves (\(teamID))") }

        let form = jwt.signatureForm
        let formText = form.words(byteCount: jwt.signature.count).text(language)
        if keys.isEmpty && directory == nil {
            // Shape only: without a key the mock cannot tell a good signature from a bad one.
            return form == .unrecognized
                ? fail("the signature is \(formText)") : Verdict(failure: nil, detail: nil, issuedAt: iat, loggable: loggable)
        }
        let folderKey = keys[kid] == nil ? directory?.key(for: kid) : nil
        func refuse(_ detail: String) -> Verdict {
            var verdict = Verdict(failure: .invalidProviderToken, detail: detail, issuedAt: 0, loggable: loggable)
            if directory != nil && keys[kid] == nil { verdict.folderKey = (kid, folderKey) }
            return verdict
        }
        guard let keyBytes = keys[kid] ?? folderKey, let key = try? P256.Signing.PublicKey(x963Representation: keyBytes) else {
            let known = (Array(keys.keys) + (directory?.keyIDs ?? [])).sorted()
            let refused = refuse(
                "kid \(kid) is not a key this mock knows (\(known.prefix(20).joined(separator: ", "))\(known.count > 20 ? ", …" : ""))"
                    + (directory.map { "; put \(kid).pem, the key's public half, in \($0.path)" } ?? ""))
            return refused
        }
        let signature: P256.Signing.ECDSASignature
        do {
            switch form {
            case .raw: signature = try P256.Signing.ECDSASignature(rawRepresentation: jwt.signature)
            case .der: signature = try P256.Signing.ECDSASignature(derRepresentation: jwt.signature)
            case .unrecognized: return refuse("the signature is \(formText)")
            }
        } catch {
            return refuse("the signature is \(formText)")
        }
        guard key.isValidSignature(signature, for: Array(jwt.signingInput.utf8)) else {
            return refuse("the signature was not made by key \(kid), or the token was changed after signing")
        }
        var accepted = Verdict(failure: nil, detail: nil, issuedAt: iat, loggable: loggable)
        if folderKey != nil { accepted.folderKey = (kid, folderKey) }
        return accepted
    }
}
