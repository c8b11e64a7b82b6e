internal import CLibcrypto

/// SHA-256 over input that comes in pieces (a whole tokens file, line by line), through libcrypto.
public final class SHA256Stream {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            preconditionFailure("EVP_DigestInit_ex(SHA-256) failed")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { raw in _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count) }
    }

    public func update(_ text: String) {
        var text = text
        text.withUTF8 { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// The digest as lower-case hex; the stream is spent after it.
    public func finishHex() -> String { finish().hexString }

    /// The digest's 32 bytes; the stream is spent after it.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { preconditionFailure("EVP_DigestFinal_ex failed") }
        return digest
    }
}

/// Bytes a digest can read in place.
public protocol ContiguousBytes {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}
extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}
