/// What people give where a device token or a key belongs, recognised so the error names it.
public enum PastedForm {
    /// A certificate where a .p8 key belongs: Apple's aps.cer (DER), a .p12, or a PEM certificate.
    public enum Certificate: Sendable, Equatable {
        case pkcs12, der, pem

        public var name: Words {
            switch self {
            case .pkcs12: Words("a PKCS#12 file (.p12: a certificate with its key)", es: "un archivo PKCS#12 (.p12: un certificado con su clave)")
            case .der: Words("a certificate in DER form (like Apple's aps.cer)", es: "un certificado en formato DER (como el aps.cer de Apple)")
            case .pem: Words("a PEM certificate", es: "un certificado PEM")
            }
        }
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

    /// What a text that is not a device token looks like, if it is something people paste.
    public static func notADeviceToken(_ text: String) -> Words? {
        let trimmed = String(Substring(text).trimmingWhitespace())
        if trimmed.hasPrefix("{length = "), trimmed.contains("bytes = 0x") {
            return Words("this is how iOS 13 and later print a Data value ({length = 32, bytes = 0x… }), shortened with '...': it is not the token",
                         es: "así imprime iOS 13 o posterior un valor Data ({length = 32, bytes = 0x… }), abreviado con '...': no es el token")
        }
        let scalars = Array(trimmed.unicodeScalars)
        func isHex(_ s: Unicode.Scalar) -> Bool { s.isASCII && UInt8(s.value).isASCIIHexDigit }
        if scalars.count == 36, [8, 13, 18, 23].allSatisfy({ scalars[$0] == "-" }),
           scalars.enumerated().allSatisfy({ [8, 13, 18, 23].contains($0.offset) || isHex($0.element) }) {
            return Words("this is a UUID (an identifierForVendor, a Simulator's UDID or an apns-id), not a device token",
                         es: "esto es un UUID (un identifierForVendor, el UDID de un simulador o un apns-id), no un token del dispositivo")
        }
        if scalars.count > 100, let colon = scalars.firstIndex(of: ":"), colon > 8,
           scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_:".unicodeScalars.contains($0)) }) {
            return Words("this is a Firebase Cloud Messaging (FCM) registration token, not an APNs device token: send it through FCM, or print the APNs token your app gets from iOS",
                         es: "esto es un token de registro de Firebase Cloud Messaging (FCM), no un token del dispositivo de APNs: envíalo por FCM, o imprime el token de APNs que tu app recibe de iOS")
        }
        // Standard base64 as base64url, without its padding.
        let unpadded = String(trimmed.prefix { $0 != "=" }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        if trimmed.count % 4 == 0, let bytes = Base64URL.decode(unpadded), bytes.count >= 16, bytes.count <= 256,
           trimmed.unicodeScalars.contains(where: { !isHex($0) }) {
            let hex = bytes.hexString
            return Words("this is base64 (\(bytes.count) bytes), not hex; the same bytes in hex are \(hex)",
                         es: "esto es base64 (\(bytes.count) bytes), no hexadecimal; los mismos bytes en hexadecimal son \(hex)")
        }
        return nil
    }

    /// What a file that starts with a byte order mark is told (Windows editors and spreadsheets'
    /// "UTF-8" exports write one).
    public static let byteOrderMark = Words("a byte order mark (BOM) at the start: save the file as UTF-8 without BOM",
                                            es: "una marca de orden de bytes (BOM) al principio: guarda el archivo como UTF-8 sin BOM")

    /// What a UTF-16 file is told (Windows' "Unicode", PowerShell 5's default for `>`).
    public static let utf16 = Words("the file is UTF-16 (what Windows calls \"Unicode\"): save it as UTF-8",
                                    es: "el archivo está en UTF-16 (lo que Windows llama \"Unicode\"): guárdalo como UTF-8")

    /// What a file's first bytes say when they are not plain UTF-8 text: a byte order mark, or
    /// UTF-16's; nil for anything else.
    public static func encodingMark(_ start: some Collection<UInt8>) -> Words? {
        let first = Array(start.prefix(3))
        if first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF]) { return utf16 }
        return first == [0xEF, 0xBB, 0xBF] ? byteOrderMark : nil
    }

    /// How to print the token in the app.
    public static let printTheToken = Words("in the app, print the hex: deviceToken.map { String(format: \"%02x\", $0) }.joined()",
                                            es: "en la app, imprime el hexadecimal: deviceToken.map { String(format: \"%02x\", $0) }.joined()")
}
