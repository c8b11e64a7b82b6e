internal import CLibcrypto
import PushCore

/// What an external signer (a KMS, Vault, an HSM's tool, `openssl dgst -sign`) printed, read as
/// one ES256 signature in JOSE's raw r‖s: DER `ECDSA-Sig-Value` or raw 64 bytes, each as bytes or
/// as base64/base64url text (padding optional, surrounding whitespace ignored), with Vault's
/// `vault:vN:` prefix allowed. Anything else is refused, never guessed at.
public enum SignerOutput {
    public enum Problem: Error, Equatable, Sendable {
        /// Nothing was printed (or only whitespace).
        case empty
        /// Neither form, as bytes or as text; the byte count printed.
        case unrecognized(byteCount: Int)
        /// The right shape, but r or s is 0 or not below the curve's order: no signature at all.
        case outOfRange
    }

    /// The signature as JOSE's raw r‖s (64 bytes), or why the output is not one.
    public static func signature(_ output: [UInt8]) -> Result<[UInt8], Problem> {
        let trimmed = output.trimmingASCIIWhitespace
        guard !trimmed.isEmpty else { return .failure(.empty) }
        // Bytes first (a raw or DER signature may end in a byte that looks like whitespace), then
        // text, then bytes a tool ended with one line end (only that: the bytes before it are the
        // signature's). LF is tried before CRLF: a signature's own last byte may be a CR.
        let found = binary(output) ?? text(trimmed) ?? withoutLineEnd(output)
        guard let raw = found else { return .failure(.unrecognized(byteCount: output.count)) }
        return inRange(raw) ? .success(raw) : .failure(.outOfRange)
    }

    /// Binary output a tool ended with "\n" or "\r\n".
    static func withoutLineEnd(_ output: [UInt8]) -> [UInt8]? {
        guard output.last == 0x0A else { return nil }
        if let raw = binary(Array(output.dropLast())) { return raw }
        return output.suffix(2).elementsEqual([0x0D, 0x0A]) ? binary(Array(output.dropLast(2))) : nil
    }

    /// Raw 64 bytes, or a strict DER signature converted to raw.
    static func binary(_ bytes: [UInt8]) -> [UInt8]? {
        if bytes.count == 64 { return bytes }
        guard bytes.count >= 8, bytes.count <= 72, bytes.first == 0x30 else { return nil }
        return strictDER(bytes)
    }

    /// base64 or base64url text (after an optional `vault:vN:` prefix) of either binary form.
    static func text(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count <= 200, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("vault:v"), let colon = text.dropFirst(7).firstIndex(of: ":"),
            !text[text.index(text.startIndex, offsetBy: 7)..<colon].isEmpty,
            text[text.index(text.startIndex, offsetBy: 7)..<colon].allSatisfy(\.isASCIIDigit)
        {
            text = String(text[text.index(after: colon)...])
        }
        while text.hasSuffix("=") { text.removeLast() }
        let url = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        guard let decoded = Base64URL.decode(url) else { return nil }
        return binary(decoded)
    }

    /// `d2i_ECDSA_SIG` over all the bytes, re-encoded to the same bytes (no BER leniency, nothing
    /// after it), then r and s with `BN_bn2binpad(…, 32)`.
    static func strictDER(_ der: [UInt8]) -> [UInt8]? {
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            if let cursor, let base = buffer.baseAddress { consumed = cursor - base }
            return signature
        }
        OpenSSLKey.clearErrors()
        guard let parsed else { return nil }
        ECDSA_SIG_free(parsed)
        guard consumed == der.count, let raw = try? ECDSASignatureConversion.raw(fromDER: der),
            (try? ECDSASignatureConversion.der(fromRaw: raw)) == der
        else { return nil }
        return raw
    }

    /// P-256's order n, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// r and s each in [1, n-1].
    static func inRange(_ raw: [UInt8]) -> Bool {
        [raw[..<32], raw[32...]].allSatisfy { half in
            half.contains { $0 != 0 } && half.lexicographicallyPrecedes(order)
        }
    }
}

extension [UInt8] {
    /// Without the ASCII whitespace at either end.
    var trimmingASCIIWhitespace: [UInt8] {
        guard let first = firstIndex(where: { !$0.isASCIIWhitespace }), let last = lastIndex(where: { !$0.isASCIIWhitespace }) else { return [] }
        return Array(self[first...last])
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
