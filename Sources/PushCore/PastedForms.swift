/// What people give where a device token or a key belongs, recognised so the error names it.
public enum PastedForm {
    /// A certificate where a .p8 key belongs: Apple's aps.cer (DER), a .p12, or a PEM certificate.
    public enum Certificate: Sendable, Equatable {
        case pkcs12, der, pem
    }

    /// Whether `bytes` hold a certificate rather than a signing key.
    public static func certificate(in bytes: [UInt8]) -> Certificate? {
        let head = Array(bytes.prefix(64))
        // DER: SEQUENCE with a long length, then (PKCS#12) INTEGER 3 and the pkcs7-data OID, or
        // (X.509) a SEQUENCE whose first element is the explicit version [0] INTEGER 2.
        if head.count > 24, head[0] == 0x30, head[1] == 0x82 || head[1] == 0x83 {
            let rest = head.dropFirst(2 + Int(head[1] & 0x7F))
            let pkcs7Data: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
            if rest.starts(with: [0x02, 0x01, 0x03]), contains(Array(rest), pkcs7Data) { return .pkcs12 }
            if rest.first == 0x30, contains(Array(rest.prefix(12)), [0xA0, 0x03, 0x02, 0x01, 0x02]) { return .der }
        }
        if contains(Array(bytes.prefix(64 * 1024)), pemCertificateMarker) { return .pem }
        return nil
    }

    /// The line a PEM certificate starts with.
    public static let pemCertificateMarker = Array("-----BEGIN CERTIFICATE-----".utf8)

    /// Whether `probe` occurs in `bytes`. Bytes compared in place: a String's `contains` is a
    /// substring search whose first use costs a single push a scan of the runtime's conformance
    /// records.
    public static func contains(_ bytes: [UInt8], _ probe: [UInt8]) -> Bool {
        var start = 0
        while start + probe.count <= bytes.count {
            if bytes[start..<start + probe.count].elementsEqual(probe) { return true }
            start += 1
        }
        return false
    }

    /// What people paste where a device token belongs.
    public enum NotADeviceToken: Sendable, Equatable {
        /// How iOS 13 and later print a Data value ({length = 32, bytes = 0x… }).
        case dataDescription
        /// An identifierForVendor, a Simulator's UDID or an apns-id.
        case uuid
        /// A Firebase Cloud Messaging registration token.
        case fcmToken
        /// The token's bytes in base64 (`bytes` of them), and the same bytes in hex.
        case base64(bytes: Int, hex: String)
    }

    /// What a text that is not a device token looks like, if it is something people paste.
    public static func notADeviceToken(_ text: String) -> NotADeviceToken? {
        let trimmed = String(Substring(text).trimmingWhitespace())
        if trimmed.hasPrefix("{length = "), trimmed.contains("bytes = 0x") { return .dataDescription }
        let scalars = Array(trimmed.unicodeScalars)
        func isHex(_ s: Unicode.Scalar) -> Bool { s.isASCII && UInt8(s.value).isASCIIHexDigit }
        if scalars.count == 36, [8, 13, 18, 23].allSatisfy({ scalars[$0] == "-" }),
            scalars.enumerated().allSatisfy({ [8, 13, 18, 23].contains($0.offset) || isHex($0.element) })
        {
            return .uuid
        }
        if scalars.count > 100, let colon = scalars.firstIndex(of: ":"), colon > 8,
            scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_:".unicodeScalars.contains($0)) })
        {
            return .fcmToken
        }
        // Standard base64 as base64url, without its padding.
        let unpadded = String(trimmed.prefix { $0 != "=" }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        if trimmed.count % 4 == 0, let bytes = Base64URL.decode(unpadded), bytes.count >= 16, bytes.count <= 256,
            trimmed.unicodeScalars.contains(where: { !isHex($0) })
        {
            return .base64(bytes: bytes.count, hex: bytes.hexString)
        }
        return nil
    }

    /// What a file that is not plain UTF-8 text starts with: a byte order mark (Windows editors and
    /// spreadsheets' "UTF-8" exports write one), or UTF-16 (what Windows calls "Unicode",
    /// PowerShell 5's default for `>`). A problem of its own where a file's first line is read.
    public enum EncodingMark: InputProblem {
        case byteOrderMark
        case utf16
    }

    /// What a file's first bytes say when they are not plain UTF-8 text: a byte order mark, or
    /// UTF-16's; nil for anything else.
    public static func encodingMark(_ start: some Collection<UInt8>) -> EncodingMark? {
        let first = Array(start.prefix(3))
        if first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF]) { return .utf16 }
        return first == [0xEF, 0xBB, 0xBF] ? .byteOrderMark : nil
    }
}
