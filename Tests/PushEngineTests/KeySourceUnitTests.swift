import ChildProcess
import PushCore
import PushCrypto
import PushEngine
import Testing

/// An external signer's output in every form it may take, and garbage: one signature or a refusal.
@Suite struct SignerOutputTests {
    /// A DER `ECDSA-Sig-Value` for raw r‖s, written here (not by the code under test).
    static func der(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ half: ArraySlice<UInt8>) -> [UInt8] {
            var bytes = Array(half.drop { $0 == 0 })
            if bytes.isEmpty { bytes = [0] }
            if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
            return [0x02, UInt8(bytes.count)] + bytes
        }
        let body = integer(raw[..<32]) + integer(raw[32...])
        return [0x30, UInt8(body.count)] + body
    }

    static func base64(_ bytes: [UInt8]) -> String {
        var text = Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
        while text.count % 4 != 0 { text.append("=") }
        return String(text)
    }

    @Test("DER or raw, as bytes, base64 or base64url, with a newline or Vault's prefix: the same r‖s")
    func everyForm() throws {
        let key = ES256PrivateKey.generate()
        for index in 0..<50 {
            let message = Array("header.claims \(index)".utf8)
            let raw = try key.sign(message)
            let der = Self.der(raw)
            let forms: [[UInt8]] = [
                raw, der, der + [0x0A], Array((Self.base64(der) + "\n").utf8), Array(Base64URL.encode(der).utf8),
                Array((Self.base64(raw) + "\r\n").utf8), Array(("vault:v1:" + Base64URL.encode(raw) + "\n").utf8),
                Array(("vault:v12:" + Self.base64(der)).utf8), Array(("  " + Base64URL.encode(raw) + "  \n").utf8),
            ]
            for (number, form) in forms.enumerated() {
                #expect(try SignerOutput.signature(form).get() == raw, "form \(number) of signature \(index)")
            }
            #expect(key.publicKey.isValidSignature(raw, for: message))
        }
    }

    @Test("a binary signature whose own last byte is a CR, ended with LF or CRLF: the CR is the signature's")
    func carriageReturnInsideTheSignature() throws {
        // r and s of 32 bytes, high bit set (so DER pads each with a zero: 72 bytes), s ending in 0x0D.
        let raw = [UInt8](repeating: 0x9A, count: 31) + [0x11] + [UInt8](repeating: 0x9B, count: 31) + [0x0D]
        let der = Self.der(raw)
        #expect(der.count == 72 && der.last == 0x0D)
        for form in [der + [0x0A], der + [0x0D, 0x0A], raw + [0x0A], raw + [0x0D, 0x0A]] {
            #expect(try SignerOutput.signature(form).get() == raw, "\(form.count) bytes")
        }
    }

    @Test("nothing, garbage, a signature with r or s out of range, BER: each refused by name")
    func refusals() {
        #expect(SignerOutput.signature([]) == .failure(.empty))
        #expect(SignerOutput.signature(Array(" \n".utf8)) == .failure(.empty))
        #expect(SignerOutput.signature(Array("garbage\n".utf8)) == .failure(.unrecognized(byteCount: 8)))
        #expect(SignerOutput.signature(Array("vault:v1:!!!".utf8)) == .failure(.unrecognized(byteCount: 12)))
        #expect(SignerOutput.signature([UInt8](repeating: 0, count: 64)) == .failure(.outOfRange))
        let order: [UInt8] = Array("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551".hexBytes)
        #expect(SignerOutput.signature([UInt8](repeating: 1, count: 32) + order) == .failure(.outOfRange))
        // A DER length in long form (BER) is not the DER a signer prints.
        let der = Self.der([UInt8](repeating: 7, count: 64))
        let ber = [0x30, 0x81, der[1]] + der[2...]
        #expect(SignerOutput.signature(Array(ber)) == .failure(.unrecognized(byteCount: ber.count)))
    }

    @Test("20,000 random and mutated outputs (seed 38): no crash, and every answer 64 bytes in range or a refusal")
    func fuzz() throws {
        var random = SplitMix64(seed: 38)
        let key = ES256PrivateKey.generate()
        let raw = try key.sign(Array("seed".utf8))
        let seeds: [[UInt8]] = [raw, Self.der(raw), Array(Self.base64(Self.der(raw)).utf8), Array(("vault:v1:" + Base64URL.encode(raw)).utf8)]
        for _ in 0..<20_000 {
            var bytes: [UInt8]
            if random.chance(30) {
                bytes = (0..<Int.random(in: 0...120, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = random.pick(seeds)
                for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
                    }
                }
            }
            if case .success(let signature) = SignerOutput.signature(bytes) {
                #expect(signature.count == 64)
                #expect(SignerOutput.signature(signature) == .success(signature), "a signature found reads back as itself")
            }
        }
    }
}

@Suite struct PKCS11URITests {
    @Test("module-path and pin-value are taken out of the URI OpenSSL gets; the PIN is never shown")
    func attributes() throws {
        let uri = try #require(PKCS11URI("pkcs11:token=push%20ctl;object=apns;type=private?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-value=12%334"))
        #expect(uri.forOpenSSL == "pkcs11:token=push%20ctl;object=apns;type=private")
        #expect(uri.modulePath == "/usr/lib/softhsm/libsofthsm2.so")
        #expect(uri.pin == "1234")
        #expect(uri.carriesPIN)
        #expect(!uri.shown.contains("1234") && uri.shown.contains("pin-value=***"))
        let inPath = try #require(PKCS11URI("PKCS11:object=apns;pin-value=9999"))
        #expect(!inPath.shown.contains("9999") && inPath.carriesPIN)
        #expect(PKCS11URI("AuthKey_ABC123DEFG.p8") == nil)
        #expect(PKCS11URI("pkcs11:object=apns")?.carriesPIN == false)
    }
}

extension String {
    fileprivate var hexBytes: [UInt8] {
        var bytes: [UInt8] = []
        var index = startIndex
        while index < endIndex {
            let next = self.index(index, offsetBy: 2)
            bytes.append(UInt8(self[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
