internal import CLibcrypto

/// Authenticated encryption for small secrets kept on disk (the JWT cache): AES-256-GCM under a
/// key derived with HKDF-SHA256, through libcrypto. A box opens only with the same key and the
/// same associated data; any change to either, or to the box, fails the tag.
public enum SealedBox {
    static let nonceLength = 12
    static let tagLength = 16

    /// A 32-byte key from secret input keying material, a salt and a context (HKDF-SHA256).
    public static func deriveKey(from secret: [UInt8], salt: [UInt8], info: [UInt8]) -> [UInt8]? {
        var key = [UInt8](repeating: 0, count: 32)
        let ok = pushctl_hkdf_sha256(secret, secret.count, salt, salt.count, info, info.count, &key, key.count)
        return ok == 1 ? key : nil
    }

    /// nonce ‖ ciphertext ‖ tag, with a fresh random nonce.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        guard key.count == 32 else { return nil }
        var nonce = [UInt8](repeating: 0, count: nonceLength)
        guard RAND_bytes(&nonce, Int32(nonceLength)) == 1 else { return nil }
        var out = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagLength)
        let ok = pushctl_aes256gcm_seal(key, nonce, associatedData, Int32(associatedData.count), plaintext, Int32(plaintext.count), &out, &tag)
        return ok == 1 ? nonce + out + tag : nil
    }

    /// The plaintext, or nil when the box was not sealed with this key and associated data.
    public static func open(_ box: [UInt8], key: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        guard key.count == 32, box.count >= nonceLength + tagLength else { return nil }
        let nonce = Array(box[..<nonceLength])
        let body = Array(box[nonceLength..<(box.count - tagLength)])
        let tag = Array(box[(box.count - tagLength)...])
        var out = [UInt8](repeating: 0, count: max(body.count, 1))
        let ok = pushctl_aes256gcm_open(key, nonce, associatedData, Int32(associatedData.count), body, Int32(body.count), tag, &out)
        return ok == 1 ? Array(out.prefix(body.count)) : nil
    }
}
