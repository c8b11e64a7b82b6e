import Foundation
import PushCore
import PushCrypto

/// A `.p8` file's bytes, read once; parsed (through OpenSSL, which costs a few milliseconds)
/// only when a token has to be signed.
final class KeyFile {
    let path: String
    let bytes: [UInt8]
    private var parsed: ES256PrivateKey?

    init(path: String) throws(InputError) {
        self.path = path
        bytes = try InputFiles.read(path, what: "key file")
    }

    func privateKey() throws(InputError) -> ES256PrivateKey {
        if let parsed { return parsed }
        let key = try KeyLoading.privateKey(pem: bytes, from: path)
        parsed = key
        return key
    }

    /// Names this key in the token cache: the first 16 hex digits of a SHA-256 of the file with
    /// its whitespace removed, so the same key saved with CRLF or without a final newline (a CI
    /// secret written out per job) keeps its cached token.
    lazy var fingerprint: String = {
        let content = bytes.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }
        return String(SHA256.hash(content).hexString.prefix(16))
    }()
}

/// Signs the provider token once and reuses it — across runs through `ProviderTokenCache` —
/// for up to 50 minutes; re-signs after that (a long batch refreshes in flight) and once when
/// APNs says the token expired. Never faster than Apple allows: a new token is made only when
/// the old one is 50 minutes old, APNs refused it, or there is none for this key (team, key id
/// and key file content) in the cache.
final class SigningAuthorization: AuthorizationSource {
    private let keyFile: KeyFile
    private let keyID: AppleIdentifier
    private let teamID: AppleIdentifier
    private let cache: ProviderTokenCache?
    private var header: String?
    private var issuedAt: Int64 = 0
    private var checks = 0
    private var cacheChecked = false

    init(keyFile: KeyFile, keyID: AppleIdentifier, teamID: AppleIdentifier, cache: ProviderTokenCache?) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.cache = cache
    }

    static var now: Int64 { Int64(time(nil)) }

    /// Takes the token an earlier run cached for this key file, if it may still be used.
    func adoptCachedToken() -> Bool {
        cacheChecked = true
        guard let cached = cache?.load(keyFingerprint: keyFile.fingerprint, keyID: keyID, teamID: teamID, now: Self.now) else { return false }
        adopt(cached)
        return true
    }

    func authorization() throws -> String? {
        // Checking the clock once every 256 pushes is plenty for a 50-minute limit.
        checks &+= 1
        if let header, checks & 255 != 0 || ProviderTokenRules.isReusable(issuedAt: issuedAt, now: Self.now) { return header }
        if header == nil, !cacheChecked, adoptCachedToken() { return header }
        try sign()
        return header
    }

    func renew() throws { try sign() }

    private func sign() throws {
        let token = try UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: Self.now).signed(by: try keyFile.privateKey())
        cache?.store(token, keyFingerprint: keyFile.fingerprint)
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
/// One file per team, key id and key file (by `KeyFile.fingerprint`), mode 0600 in a 0700
/// directory: `$PUSHCTL_CACHE_DIR`, else `$XDG_CACHE_HOME/pushctl`, else `~/.cache/pushctl`.
/// The file holds the JWT and, on a second line, the SHA-256 of the JWT: a file that does not
/// parse, fails that check, or names another key or team is ignored and replaced. Reading a
/// cached token costs no key parsing and no signature check, which is most of what a single
/// push spends on its token.
struct ProviderTokenCache {
    let directory: String

    static func standard(environment env: [String: String]) -> ProviderTokenCache? {
        if let dir = env["PUSHCTL_CACHE_DIR"].nonEmpty { return ProviderTokenCache(directory: dir) }
        if let xdg = env["XDG_CACHE_HOME"].nonEmpty { return ProviderTokenCache(directory: xdg + "/pushctl") }
        if let home = env["HOME"].nonEmpty { return ProviderTokenCache(directory: home + "/.cache/pushctl") }
        return nil
    }

    func path(keyFingerprint: String, keyID: AppleIdentifier, teamID: AppleIdentifier) -> String {
        "\(directory)/jwt-\(teamID)-\(keyID)-\(keyFingerprint).jwt"
    }

    func load(keyFingerprint: String, keyID: AppleIdentifier, teamID: AppleIdentifier, now: Int64) -> ProviderToken? {
        guard let bytes = try? InputFiles.read(path(keyFingerprint: keyFingerprint, keyID: keyID, teamID: teamID), what: "cache"),
              bytes.count < 4096 else { return nil }
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        guard lines.count == 2, SHA256.hash(Array(lines[0])).hexString == String(decoding: lines[1], as: UTF8.self) else { return nil }
        let compact = String(decoding: lines[0], as: UTF8.self)
        guard let jwt = try? DecodedJWT(parsing: compact),
              jwt.header["kid"]?.stringValue == keyID.value, jwt.claims["iss"]?.stringValue == teamID.value,
              let iat = jwt.claims["iat"]?.integerValue, ProviderTokenRules.isReusable(issuedAt: iat, now: now),
              jwt.signatureForm == .raw
        else { return nil }
        let token = ProviderToken(unsigned: UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: iat), signature: jwt.signature)
        // Only a token that re-encodes to the same bytes is reused (no foreign header fields).
        return token.compact == compact ? token : nil
    }

    /// Best effort: a cache that cannot be written only costs a signature next run.
    func store(_ token: ProviderToken, keyFingerprint: String) {
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { return }
        let target = path(keyFingerprint: keyFingerprint, keyID: token.unsigned.keyID, teamID: token.unsigned.teamID)
        let temporary = target + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        let jwt = Array(token.compact.utf8)
        let bytes = jwt + [UInt8(ascii: "\n")] + Array(SHA256.hash(jwt).hexString.utf8) + [UInt8(ascii: "\n")]
        let written = write(fd, bytes, bytes.count)
        close(fd)
        if written == bytes.count { rename(temporary, target) } else { unlink(temporary) }
    }
}
