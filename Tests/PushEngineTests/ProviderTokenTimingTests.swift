import Foundation
import PushCore
import PushCrypto
import PushEngine
import Testing

/// The provider token's life, on an injected clock: reused for 50 minutes (never changed sooner,
/// so APNs' 20-minute rule holds), re-signed past 50, never older than 60; a cached token adopted
/// only while it may still be used.
@Suite struct ProviderTokenTimingTests {
    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_800_000_000
        func advance(minutes: Int64) { now += minutes * 60 }
    }

    let keyID = try! AppleIdentifier(.keyID, "ABC123DEFG")
    let teamID = try! AppleIdentifier(.teamID, "DEF123GHIJ")
    let key = ES256PrivateKey.generate()

    func keyFile() -> KeyFile { KeyFile(path: "AuthKey_ABC123DEFG.p8", bytes: Array(key.pkcs8PEM.utf8)) }

    func cacheDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-engine-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return dir
    }

    /// The token a run would send now.
    func current(_ signer: SigningAuthorization) throws -> String {
        try signer.authorization() ?? ""
    }

    func issuedAt(_ header: String) throws -> Int64 {
        try #require(try DecodedJWT(parsing: header).claims["iat"]?.integerValue)
    }

    @Test("the same token at 0, 20 and 49 minutes; a new one at 50; every token younger than 60 when sent")
    func boundaries() throws {
        let clock = Clock()
        let signer = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: nil, clock: { clock.now })
        let first = try current(signer)
        #expect(try issuedAt(first) == clock.now)
        for minutes in [19, 1, 29] as [Int64] {  // minute 19, 20, 49
            clock.advance(minutes: minutes)
            #expect(try current(signer) == first, "no new token before 50 minutes (APNs: not more often than every 20)")
        }
        clock.advance(minutes: 1)  // minute 50
        let second = try current(signer)
        #expect(second != first)
        #expect(try issuedAt(second) == clock.now)
        clock.advance(minutes: 59)
        #expect(try current(signer) != second, "never sent at 59 minutes old (APNs refuses past 60)")
    }

    @Test(
        "at any minute of the hour, the first call after it: the same token before minute 50, a new one from 50 on",
        arguments: Array(Int64(0)..<60))
    func anyMinute(minute: Int64) throws {
        let clock = Clock()
        let signer = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: nil, clock: { clock.now })
        let first = try current(signer)
        clock.advance(minutes: minute)
        let sent = try current(signer)
        #expect((sent == first) == (minute < 50), "minute \(minute)")
        #expect(try issuedAt(sent) == (minute < 50 ? clock.now - minute * 60 : clock.now))
    }

    @Test("a cached token is adopted with no key work while it may be reused; not at 50 minutes, not from the future")
    func adoptingCached() throws {
        let clock = Clock()
        let cache = ProviderTokenCache(directory: try cacheDirectory())
        let writer = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { clock.now })
        let cached = try current(writer)

        // Another run, 30 minutes later: the cache entry (named by the key file's fingerprint) is reused.
        clock.advance(minutes: 30)
        let reader = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { clock.now })
        #expect(reader.adoptCachedToken())
        #expect(reader.usesCachedToken)
        #expect(try reader.authorization() == cached)

        clock.advance(minutes: 20)  // 50 minutes old
        let late = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { clock.now })
        #expect(!late.adoptCachedToken())

        // A clock that went back: a token issued more than the minute's skew allowance ahead.
        let skewed = Clock()
        skewed.now = clock.now - 50 * 60 - 61
        let future = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { skewed.now })
        #expect(!future.adoptCachedToken(), "a token from more than 60 s in the future is not reused")
        skewed.now = clock.now - 50 * 60 - 59
        let withinSkew = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { skewed.now })
        #expect(withinSkew.adoptCachedToken(), "within the skew allowance it is")
    }

    @Test("renewing replaces the cached token, and a renewed token is no longer the cached one")
    func renewReplacesCache() throws {
        let clock = Clock()
        let cache = ProviderTokenCache(directory: try cacheDirectory())
        let first = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { clock.now })
        let old = try current(first)
        clock.advance(minutes: 1)
        let second = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { clock.now })
        #expect(second.adoptCachedToken())
        try second.renew()
        #expect(!second.usesCachedToken)
        let renewed = try current(second)
        #expect(renewed != old)
        let third = SigningAuthorization(keyFile: keyFile(), keyID: keyID, teamID: teamID, cache: cache, clock: { clock.now })
        #expect(third.adoptCachedToken())
        #expect(try third.authorization() == renewed)
    }
}
