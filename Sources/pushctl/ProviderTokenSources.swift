import Foundation
import PushCore
import PushCrypto

/// Signs the provider token once and reuses it; re-signs only when APNs says it expired.
final class SigningAuthorization: AuthorizationSource {
    private let key: ES256PrivateKey
    private let keyID: AppleIdentifier
    private let teamID: AppleIdentifier
    private var header: String?

    init(key: ES256PrivateKey, keyID: AppleIdentifier, teamID: AppleIdentifier) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    func authorization() throws -> String? {
        if let header { return header }
        let token = try UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: Int64(Date().timeIntervalSince1970)).signed(by: key)
        header = "bearer " + token.compact
        return header
    }

    func renew() throws {
        header = nil
        _ = try authorization()
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
