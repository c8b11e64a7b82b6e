internal import CLibcrypto
import PushCore

/// A P-256 key that stays inside a PKCS#11 token (an HSM, a smart card, SoftHSM), named by an
/// RFC 7512 `pkcs11:` URI. OpenSSL signs with it through libp11's `pkcs11` engine (Debian's
/// `libengine-pkcs11-openssl`, Homebrew's `libp11`), or through a provider that opens `pkcs11:`
/// URIs where OpenSSL's configuration loads one. The private scalar never enters this process.
public enum TokenKey {
    public enum Failure: Error, Equatable, Sendable {
        /// OpenSSL has neither the pkcs11 engine nor a provider for `pkcs11:` URIs.
        case noSupport
        /// The PKCS#11 module could not be loaded (OpenSSL's words).
        case module(String)
        /// The module loaded, but no private key answers to the URI, or the token wants a PIN.
        case noKey(String)
        /// The key found is not an EC P-256 key (what it is).
        case notP256(String)
    }

    /// The key `uri` names. `module`: the PKCS#11 library (else the engine's default, p11-kit's
    /// proxy); `pin`: the user PIN, when the URI carries none. The engine asks no one: without
    /// the PIN a token that needs one fails, and the caller may ask and try again.
    public static func load(uri: String, module: String?, pin: String?) -> Result<ES256PrivateKey, Failure> {
        OpenSSLKey.clearErrors()
        var stage: Int32 = 0
        let pointer = pushctl_pkcs11_load(uri, module, pin, &stage)
        guard let pointer else {
            let detail = lastError()
            switch stage {
            case 1: return .failure(.noSupport)
            case 2: return .failure(.module(detail))
            default: return .failure(.noKey(detail))
            }
        }
        let key = OpenSSLKey(taking: pointer)
        guard key.isEC, let group = key.groupName, group == "prime256v1" || group == "P-256" else {
            return .failure(.notP256(key.isEC ? "EC \(key.groupName ?? "?")" : key.typeName))
        }
        return .success(ES256PrivateKey(key: key))
    }

    /// OpenSSL's last error on this thread, as text (bounded), and the queue cleared.
    static func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard pushctl_error_text(&buffer, buffer.count) == 1 else { return "" }
        return OutsideText.display(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), limit: 200)
    }
}

extension ES256PrivateKey {
    /// The public half as a key of its own (a token's key is a handle: verifying goes through
    /// OpenSSL's own code, not the token's).
    public var detachedPublicKey: ES256PublicKey? {
        pushctl_public_copy(key.pointer).map { ES256PublicKey(key: OpenSSLKey(taking: $0)) }
    }
}
