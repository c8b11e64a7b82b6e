import Foundation
import PushCore
import PushCrypto

/// Signs the provider token once and reuses it — across runs through `ProviderTokenCache` —
/// for up to 50 minutes; re-signs after that (a long batch refreshes in flight) and once when
/// APNs says the token expired. Never faster than Apple allows: a new token is made only when
/// the old one is 50 minutes old, or APNs refused it.
final class SigningAuthorization: AuthorizationSource {
    private let key: ES256PrivateKey
    private let keyID: AppleIdentifier
    private let teamID: AppleIdentifier
    private let cache: ProviderTokenCache?
    private var header: String?
    private var issuedAt: Int64 = 0
    private var checks = 0

    init(key: ES256PrivateKey, keyID: AppleIdentifier, teamID: AppleIdentifier, cache: ProviderTokenCache?) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.cache = cache
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    func authorization() throws -> String? {
        // Checking the clock once every 256 pushes is plenty for a 50-minute limit.
        checks &+= 1
        if let header, checks & 255 != 0 || ProviderTokenRules.isReusable(issuedAt: issuedAt, now: Self.now) { return header }
        if header == nil, let cached = cache?.load(key: key, keyID: keyID, teamID: teamID, now: Self.now) {
            adopt(cached)
            return self.header
        }
        try sign()
        return self.header
    }

    func renew() throws { try sign() }

    private func sign() throws {
        let token = try UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: Self.now).signed(by: key)
        cache?.store(token, key: key)
        adopt(token)
    }

    private func adopt(_ token: ProviderToken) {
        header = "bearer " + token.compact
        issuedAt = token.unsigned.issuedAt
    }
}

/// A token minted elsewhere (`--jwt`, `PUSHCTL_JWT`): used as given, never renewed.
final class FixedAuthorization: AuthorizationSource {
    private let header: String

    init(token: String) { header = "bearer " + token }

    func authorization() throws -> String? { header }

    func renew() throws {
        throw InputError("the token given with --jwt has expired; mint a new one (pushctl jwt) or pass --key-file")
    }
}

/// Signed provider tokens kept on disk between runs, so a CI job that runs every few minutes
/// sends the same JWT instead of a new one each time (APNs answers 429
/// TooManyProviderTokenUpdates to tokens changed faster than every 20 minutes).
///
/// One file per team, key id and key (by fingerprint), mode 0600 in a 0700 directory:
/// `$PUSHCTL_CACHE_DIR`, else `$XDG_CACHE_HOME/pushctl`, else `~/.cache/pushctl`. A file that
/// does not parse, names another key, or fails signature verification is ignored and replaced.
struct ProviderTokenCache {
    let directory: String

    static func standard(environment env: [String: String]) -> ProviderTokenCache? {
        if let dir = env["PUSHCTL_CACHE_DIR"].nonEmpty { return ProviderTokenCache(directory: dir) }
        if let xdg = env["XDG_CACHE_HOME"].nonEmpty { return ProviderTokenCache(directory: xdg + "/pushctl") }
        if let home = env["HOME"].nonEmpty { return ProviderTokenCache(directory: home + "/.cache/pushctl") }
        return nil
    }

    func path(keyID: AppleIdentifier, teamID: AppleIdentifier, key: ES256PrivateKey) -> String {
        "\(directory)/jwt-\(teamID)-\(keyID)-\(key.publicKey.fingerprint.prefix(16)).jwt"
    }

    func load(key: ES256PrivateKey, keyID: AppleIdentifier, teamID: AppleIdentifier, now: Int64) -> ProviderToken? {
        guard let data = FileManager.default.contents(atPath: path(keyID: keyID, teamID: teamID, key: key)),
              let jwt = try? DecodedJWT(parsing: String(decoding: data, as: UTF8.self)),
              jwt.header["kid"]?.stringValue == keyID.value, jwt.claims["iss"]?.stringValue == teamID.value,
              let iat = jwt.claims["iat"]?.integerValue, ProviderTokenRules.isReusable(issuedAt: iat, now: now),
              jwt.signatureForm == .raw,
              key.publicKey.isValidSignature(jwt.signature, for: Array(jwt.signingInput.utf8))
        else { return nil }
        let token = ProviderToken(unsigned: UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: iat), signature: jwt.signature)
        // Only a token that re-encodes to the same bytes is reused (no foreign header fields).
        return token.compact == String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) ? token : nil
    }

    /// Best effort: a cache that cannot be written only costs a signature next run.
    func store(_ token: ProviderToken, key: ES256PrivateKey) {
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { return }
        let target = path(keyID: token.unsigned.keyID, teamID: token.unsigned.teamID, key: key)
        let temporary = target + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array((token.compact + "\n").utf8)
        let written = write(fd, bytes, bytes.count)
        close(fd)
        if written == bytes.count { rename(temporary, target) } else { unlink(temporary) }
    }
}
