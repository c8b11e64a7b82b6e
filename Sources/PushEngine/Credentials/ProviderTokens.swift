public import PushCore
public import PushCrypto
public import PushFiles
import PushSystem
public import PushWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `.p8` file's bytes, read once; parsed (through OpenSSL, which costs a few milliseconds)
/// only when a token has to be signed.
public final class KeyFile {
    public let path: String
    public let bytes: [UInt8]
    private var parsed: ES256PrivateKey?

    public init(path: String) throws(InputError) {
        self.path = path
        bytes = try InputFiles.read(path, what: .keyFile)
    }

    /// A key already in memory (a test, the demo).
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Parses the key (once); errors name the file.
    public func privateKey() throws(InputError) -> ES256PrivateKey {
        if let parsed { return parsed }
        let key: ES256PrivateKey
        do { key = try ES256PrivateKey(pem: bytes) } catch {
            throw error.at(path)
        }
        parsed = key
        return key
    }

    /// Names this key in the token cache: the first 16 hex digits of a SHA-256 of the file with
    /// its whitespace removed, so the same key saved with CRLF or without a final newline (a CI
    /// secret written out per job) keeps its cached token.
    public lazy var fingerprint: String = String(SHA256.hash(normalizedContent).hexString.prefix(16))

    /// The file without its whitespace: what the fingerprint and the cache's sealing key read.
    var normalizedContent: [UInt8] { bytes.filter { !$0.isASCIIWhitespace } }

    /// Its cache entry, sealed under the key itself.
    public var seal: ProviderTokenCache.Seal {
        ProviderTokenCache.Seal(fingerprint: fingerprint, secret: normalizedContent, salt: ProviderTokenCache.Seal.keySalt)
    }

    /// Signs with this key, parsed when first needed.
    public var tokenSigner: TokenSigner { TokenSigner(seal: seal) { try self.privateKey() } }
}

/// Where a provider token's signature comes from (a key file, `PUSHCTL_KEY`, a PKCS#11 token, an
/// external signer), and how its cache entry is named and sealed.
public struct TokenSigner {
    /// Names and seals the cache entry; nil: tokens are not cached (no secret to seal them with).
    public let seal: ProviderTokenCache.Seal?
    /// Makes the signer when a token must be signed: a cached token costs no key work at all.
    let make: () throws -> any ES256Signing

    public init(seal: ProviderTokenCache.Seal?, make: @escaping () throws -> any ES256Signing) {
        self.seal = seal
        self.make = make
    }
}

/// Signs the provider token once and reuses it — across runs through `ProviderTokenCache` —
/// for up to 50 minutes; re-signs after that (a long batch refreshes in flight) and once when
/// APNs says the token expired. Never faster than Apple allows: a new token is made only when
/// the old one is 50 minutes old, APNs refused it, or there is none for this key (team, key id
/// and key file content) in the cache.
public final class SigningAuthorization: AuthorizationSource {
    private let source: TokenSigner
    private var signer: (any ES256Signing)?
    private let keyID: AppleIdentifier
    private let teamID: AppleIdentifier
    private let cache: ProviderTokenCache?
    private var header: String?
    private var issuedAt: Int64 = 0
    private var cacheChecked = false
    /// UNIX seconds now; injected so a test can stand at minute 49 and 51.
    private let clock: () -> Int64

    public init(
        signer source: TokenSigner, keyID: AppleIdentifier, teamID: AppleIdentifier, cache: ProviderTokenCache?,
        clock: @escaping () -> Int64 = WallClock.now
    ) {
        self.source = source
        self.keyID = keyID
        self.teamID = teamID
        // Without a seal there is no entry to read or write.
        self.cache = source.seal == nil ? nil : cache
        self.clock = clock
    }

    public convenience init(
        keyFile: KeyFile, keyID: AppleIdentifier, teamID: AppleIdentifier, cache: ProviderTokenCache?,
        clock: @escaping () -> Int64 = WallClock.now
    ) {
        self.init(signer: keyFile.tokenSigner, keyID: keyID, teamID: teamID, cache: cache, clock: clock)
    }

    private var now: Int64 { clock() }

    /// Takes the token an earlier run cached for this key, if it may still be used.
    public func adoptCachedToken() -> Bool {
        cacheChecked = true
        guard let seal = source.seal, let cached = cache?.load(seal: seal, keyID: keyID, teamID: teamID, now: now) else { return false }
        adopt(cached, fromCache: true)
        return true
    }

    public func authorization() throws -> String? {
        // The clock is read for every push (time(2) costs tens of nanoseconds against tens of
        // microseconds a push), so the token is never a push too old.
        if let header, ProviderTokenRules.isReusable(issuedAt: issuedAt, now: now) { return header }
        if header == nil, !cacheChecked, adoptCachedToken() { return header }
        try sign()
        return header
    }

    public func renew() throws { try sign() }

    /// A token read from the cache that APNs has not yet seen replaced: if it is refused as
    /// invalid (a cache entry from a key since revoked, say), one fresh signature is tried.
    public private(set) var usesCachedToken = false

    /// Signs a token now (and caches it): a signer that fails says so before anything is sent.
    public func signNow() throws(InputError) {
        do { try sign() } catch let error as InputError { throw error } catch {
            throw InputError(CredentialProblem.providerTokenNotSigned(detail: "\(error)"))
        }
    }

    /// Provider tokens signed by this source (a cached one taken is not counted).
    public private(set) var signatures = 0

    private func sign() throws {
        let signer = try self.signer ?? source.make()
        self.signer = signer
        let token = try UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: now).signed(by: signer)
        signatures += 1
        if let seal = source.seal { cache?.store(token, seal: seal) }
        adopt(token)
        usesCachedToken = false
    }

    private func adopt(_ token: ProviderToken, fromCache: Bool = false) {
        header = "bearer " + token.compact
        issuedAt = token.unsigned.issuedAt
        usesCachedToken = fromCache
    }
}

/// A token minted elsewhere (`--jwt`, `PUSHCTL_JWT`): used as given, never renewed.
public final class FixedAuthorization: AuthorizationSource {
    private let header: String

    public init(token: String) { header = "bearer " + token }

    public func authorization() throws -> String? { header }

    public func renew() throws {
        throw InputError(CredentialProblem.providerTokenCannotBeRenewed)
    }
}

/// Certificate-based authentication: the TLS client certificate authenticates every request,
/// so no `authorization` header is sent and there is nothing to renew.
public final class CertificateAuthorization: AuthorizationSource {
    public init() {}

    public func authorization() throws -> String? { nil }

    public func renew() throws {
        throw InputError(CredentialProblem.certificateSendsNoProviderToken)
    }
}

/// Signed provider tokens kept on disk between runs, so a CI job that runs every few minutes
/// sends the same JWT instead of a new one each time (APNs answers 429
/// TooManyProviderTokenUpdates to tokens changed faster than every 20 minutes).
///
/// One file per team, key id and key file (by `KeyFile.fingerprint`), mode 0600 in a 0700
/// directory: `$PUSHCTL_CACHE_DIR`, else `$XDG_CACHE_HOME/pushctl`, else `~/.cache/pushctl`.
/// The file holds the JWT sealed (AES-256-GCM) under a key derived with HKDF-SHA256 from the .p8
/// file's key material and bound to the team id, key id and key: a cache restored by anyone
/// without the .p8 (a fork's pull request restoring `actions/cache`, another user) holds nothing
/// usable, and no file in the directory holds a readable JWT. An entry that does not open (tampered
/// with, or sealed with another key) is ignored with one warning and replaced; an old plaintext
/// entry is ignored and replaced. Reading a cached token costs no key parsing and no signature
/// check, which is most of what a single push spends on its token.
///
/// A JWT is a credential for an hour, so the cache trusts only what no one else can touch: the
/// directory must be a real directory (not a symlink) owned by this user and writable by no one
/// else, or the run goes on without a cache after one warning. Entries are opened without
/// following symlinks, and written to a fresh mkstemp file renamed into place.
public struct ProviderTokenCache: Sendable {
    public let directory: String
    /// Hears that an entry did not open (once per load).
    private let warn: @Sendable (Words) -> Void

    /// A cache in `directory`, which must already be usable (see `usable(_:)`).
    public init(directory: String, warn: @escaping @Sendable (Words) -> Void = { _ in }) {
        self.directory = directory
        self.warn = warn
    }

    /// The first line of a sealed entry; the second is base64url(nonce ‖ sealed JWT ‖ tag).
    static let sealedMagic = "pushctl-jwt-cache sealed v1"

    /// What names a cache entry and what seals it. With the key on disk (a `.p8`, `PUSHCTL_KEY`)
    /// the key file's content seals it; with no private key here (a PKCS#11 token, an external
    /// signer) a secret only the real job has: `PUSHCTL_CACHE_KEY`. Either way a cache restored
    /// without that secret (a fork's pull request) holds nothing usable.
    public struct Seal: Sendable {
        /// Names the entry: 16 hex digits of a SHA-256 (of the key file, or of the signer's name).
        public let fingerprint: String
        let secret: [UInt8]
        let salt: String

        static let keySalt = "pushctl provider token cache"
        static let cacheKeySalt = "pushctl provider token cache, sealed with PUSHCTL_CACHE_KEY"

        init(fingerprint: String, secret: [UInt8], salt: String) {
            self.fingerprint = fingerprint
            self.secret = secret
            self.salt = salt
        }

        /// An entry for `signerName` (an external signer's command, a token's URI without its PIN),
        /// sealed with the cache key.
        public init(signerName: String, cacheKey: [UInt8]) {
            self.init(fingerprint: String(SHA256.hash(Array(signerName.utf8)).hexString.prefix(16)), secret: cacheKey, salt: Seal.cacheKeySalt)
        }
    }

    /// The sealing key: HKDF-SHA256 over the seal's secret (the key file's content, whitespace
    /// aside, as the fingerprint reads it; or the cache key), bound to the team and key ids.
    static func sealingKey(_ seal: Seal, keyID: AppleIdentifier, teamID: AppleIdentifier) -> [UInt8]? {
        SealedBox.deriveKey(from: seal.secret, salt: Array(seal.salt.utf8), info: Array("team \(teamID) key \(keyID)".utf8))
    }

    static func associatedData(_ seal: Seal, keyID: AppleIdentifier, teamID: AppleIdentifier) -> [UInt8] {
        Array("\(sealedMagic)|\(teamID)|\(keyID)|\(seal.fingerprint)".utf8)
    }

    /// The cache the environment names, if its directory is usable; `warn` hears why not.
    public static func standard(environment env: EnvironmentVariables, warn: @escaping @Sendable (Words) -> Void) -> ProviderTokenCache? {
        let directory: String
        if let dir = env["PUSHCTL_CACHE_DIR"].nonEmpty {
            directory = dir
        } else if let xdg = env["XDG_CACHE_HOME"].nonEmpty {
            directory = xdg + "/pushctl"
        } else if let home = env["HOME"].nonEmpty {
            directory = home + "/.cache/pushctl"
        } else {
            return nil
        }
        if let problem = usable(directory) {
            warn(
                Words(
                    "not using the JWT cache: \(problem); each run signs a new token (APNs allows a new one every 20 minutes), so set PUSHCTL_CACHE_DIR to a private directory",
                    es:
                        "no se usa la caché del JWT: \(problem); cada ejecución firma un token nuevo (APNs admite uno nuevo cada 20 minutos), así que indica en PUSHCTL_CACHE_DIR una carpeta privada"
                ))
            return nil
        }
        return ProviderTokenCache(directory: directory, warn: warn)
    }

    /// Makes the directory (0700) if missing; says what is wrong with it otherwise.
    public static func usable(_ directory: String) -> Words? {
        let shown = OutsideText.display(directory, limit: 200)
        var found = FileSystem.linkStatus(directory)
        if found == nil {
            guard Errno.current == Errno.noSuchFile else {
                let reason = SystemError.reason(Errno.current)
                return Words(verbatim: "'\(shown)': ") + reason
            }
            let parent = directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !parent.isEmpty && parent != directory && FileSystem.linkStatus(parent) == nil {
                // Like mkdir -p for the usual ~/.cache, each new level private.
                try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            guard FileSystem.makeDirectory(directory, mode: 0o700) || Errno.current == Errno.exists else {
                let reason = SystemError.reason(Errno.current)
                return Words("cannot create '\(shown)': \(reason)", es: "no se puede crear '\(shown)': \(reason)")
            }
            found = FileSystem.linkStatus(directory)
        }
        guard let info = found else {
            let reason = SystemError.reason(Errno.current)
            return Words(verbatim: "'\(shown)': ") + reason
        }
        if info.kind == .symbolicLink { return Words("'\(shown)' is a symbolic link", es: "'\(shown)' es un enlace simbólico") }
        guard info.kind == .directory else { return Words("'\(shown)' is not a directory", es: "'\(shown)' no es una carpeta") }
        guard info.owner == CurrentProcess.effectiveUser else {
            return Words("'\(shown)' belongs to another user (uid \(info.owner))", es: "'\(shown)' pertenece a otro usuario (uid \(info.owner))")
        }
        guard info.permissions & 0o022 == 0 else {
            let mode = "0" + String(info.permissions & 0o777, radix: 8)
            return Words("'\(shown)' is writable by group or others (mode \(mode))", es: "'\(shown)' lo pueden escribir el grupo u otros (modo \(mode))")
        }
        return nil
    }

    public func path(keyFingerprint: String, keyID: AppleIdentifier, teamID: AppleIdentifier) -> String {
        "\(directory)/jwt-\(teamID)-\(keyID)-\(keyFingerprint).jwt"
    }

    public func load(keyFile: KeyFile, keyID: AppleIdentifier, teamID: AppleIdentifier, now: Int64) -> ProviderToken? {
        load(seal: keyFile.seal, keyID: keyID, teamID: teamID, now: now)
    }

    public func load(seal: Seal, keyID: AppleIdentifier, teamID: AppleIdentifier, now: Int64) -> ProviderToken? {
        let entry = path(keyFingerprint: seal.fingerprint, keyID: keyID, teamID: teamID)
        let fd = Descriptors.openForReading(entry, noFollow: true, nonBlocking: true)
        guard fd >= 0 else { return nil }
        defer { Descriptors.close(fd) }
        guard let info = FileSystem.status(of: fd), info.kind == .regular, info.owner == CurrentProcess.effectiveUser, info.size < 4096 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBytes { Descriptors.readFully(fd, into: $0.baseAddress!, count: $0.count) }
        guard n > 0 else { return nil }
        bytes.removeLast(bytes.count - n)
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        // An entry of an older pushctl (the JWT in the clear) is not used, and is replaced.
        guard lines.count == 2, String(decoding: lines[0], as: UTF8.self) == Self.sealedMagic else { return nil }
        guard let box = Base64URL.decode(String(decoding: lines[1], as: UTF8.self)),
            let key = Self.sealingKey(seal, keyID: keyID, teamID: teamID),
            let opened = SealedBox.open(box, key: key, associatedData: Self.associatedData(seal, keyID: keyID, teamID: teamID))
        else {
            warn(
                Words(
                    "the cached provider token '\(OutsideText.display(entry, limit: 200))' does not open with this key (changed by someone, or sealed with another key); it is ignored and replaced",
                    es:
                        "el token del proveedor guardado en '\(OutsideText.display(entry, limit: 200))' no se abre con esta clave (alguien lo cambió, o se selló con otra clave); se ignora y se reemplaza"
                ))
            return nil
        }
        let compact = String(decoding: opened, as: UTF8.self)
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
    public func store(_ token: ProviderToken, keyFile: KeyFile) { store(token, seal: keyFile.seal) }

    public func store(_ token: ProviderToken, seal: Seal) {
        let keyID = token.unsigned.keyID
        let teamID = token.unsigned.teamID
        guard let key = Self.sealingKey(seal, keyID: keyID, teamID: teamID),
            let box = SealedBox.seal(Array(token.compact.utf8), key: key, associatedData: Self.associatedData(seal, keyID: keyID, teamID: teamID)),
            let (fd, temporary) = try? TemporaryFile.make(prefix: ".jwt-", in: directory, purpose: .cacheJWT)
        else { return }
        let target = path(keyFingerprint: seal.fingerprint, keyID: keyID, teamID: teamID)
        let bytes = Array((Self.sealedMagic + "\n" + Base64URL.encode(box) + "\n").utf8)
        let written = FileOutput.writeAll(fd, bytes)
        Descriptors.close(fd)
        if written != bytes.count || !FileSystem.rename(temporary, to: target) { FileSystem.remove(temporary) }
    }
}
