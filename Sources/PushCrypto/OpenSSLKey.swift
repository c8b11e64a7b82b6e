internal import CLibcrypto
import PushCore

/// Owns one `EVP_PKEY*`; freed in deinit. Never leaves this module.
final class OpenSSLKey: @unchecked Sendable {
    // An EVP_PKEY is safe to use from several threads for signing and verifying
    // once loaded: each operation makes its own EVP_MD_CTX.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }

    /// "EC", "RSA", "ED25519", … as OpenSSL names the key type.
    var typeName: String {
        guard let name = EVP_PKEY_get0_type_name(pointer) else { return "unknown" }
        return String(cString: name)
    }

    var isEC: Bool { EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC }

    /// The curve's OpenSSL short name ("prime256v1", "secp384r1"), for EC keys.
    var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &buffer, buffer.count, &length) == 1 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `body` with a read-only memory BIO over `bytes`.
    static func withMemoryBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) -> T) -> T? {
        bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// Runs `body` with a writable memory BIO and returns what it wrote.
    static func writeToMemoryBIO(_ body: (OpaquePointer) -> Int32) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = pushctl_bio_mem_data(bio, &data)
        guard length > 0, let data else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// Forgets errors OpenSSL queued for this thread, so a later failure reports its own.
    static func clearErrors() { ERR_clear_error() }
}

/// SHA-256 through libcrypto (used by `jwt --explain` and to name entries of the JWT cache).
public enum SHA256 {
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return digest
    }
}
