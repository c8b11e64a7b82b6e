import Crypto
import Foundation
import PushCore
import PushCrypto
import PushWords
import Testing

@Suite struct ES256SigningTests {
    @Test("2,000 signatures over varied inputs: each 64 bytes, each valid for swift-crypto's P256")
    func independentVerification() throws {
        var generator = SystemRandomNumberGenerator()
        var leadingZeroHalves = 0
        for _ in 0..<20 {
            let ours = ES256PrivateKey.generate()
            let theirs = try P256.Signing.PrivateKey(pemRepresentation: ours.pkcs8PEM).publicKey
            for i in 0..<100 {
                let length = [0, 1, 31, 32, 33, 64, 100, 255, 1000, 4096][i % 10]
                let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let signature = try ours.sign(message)
                #expect(signature.count == 64)
                if signature[0] == 0 || signature[32] == 0 { leadingZeroHalves += 1 }
                let jose = try P256.Signing.ECDSASignature(rawRepresentation: signature)
                #expect(theirs.isValidSignature(jose, for: Data(message)), "message of \(length) bytes")
            }
        }
        // r or s starts with a zero byte in about 1 signature in 128: the padding must keep them 64 bytes.
        #expect(leadingZeroHalves > 0)
    }

    @Test("a key made by swift-crypto signs here, and its signatures verify here in raw and DER form")
    func crossImplementation() throws {
        let theirs = P256.Signing.PrivateKey()
        let ours = try ES256PrivateKey(pem: Array(theirs.pemRepresentation.utf8))
        let message = Array("eyJhbGciOiJFUzI1NiJ9.e30".utf8)
        let signature = try ours.sign(message)
        #expect(theirs.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data(message)))

        let theirPublic = try ES256PublicKey(pem: Array(theirs.publicKey.pemRepresentation.utf8))
        let theirSignature = try theirs.signature(for: Data(message))
        #expect(theirPublic.isValidSignature(Array(theirSignature.rawRepresentation), for: message))
        #expect(theirPublic.isValidSignature(Array(theirSignature.derRepresentation), for: message))
        #expect(!theirPublic.isValidSignature(Array(theirSignature.rawRepresentation), for: message + [0]))
        #expect(theirPublic.pem == ours.publicKey.pem)
    }

    @Test("RFC 7515 Appendix A.3: the ES256 example verifies with the appendix's JWK")
    func rfc7515() throws {
        let x = Base64URL.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")!
        let y = Base64URL.decode("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")!
        let key = try ES256PublicKey(x: x, y: y)
        let token = try DecodedJWT(parsing: Self.rfc7515Token)
        #expect(key.isValidSignature(token.signature, for: Array(token.signingInput.utf8)))
        var tampered = token.signature
        tampered[10] ^= 1
        #expect(!key.isValidSignature(tampered, for: Array(token.signingInput.utf8)))
    }

    static let rfc7515Token =
        "eyJhbGciOiJFUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    @Test("a generated key is Apple's .p8 form and reloads")
    func generated() throws {
        let key = ES256PrivateKey.generate()
        #expect(key.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try ES256PrivateKey(pem: Array(key.pkcs8PEM.utf8))
        #expect(reloaded.publicKey.pem == key.publicKey.pem)
        #expect(ES256PrivateKey.generate().publicKey.pem != key.publicKey.pem)
    }

    @Test("SHA-256 matches FIPS 180-2's 'abc' vector")
    func sha256() {
        #expect(SHA256.hash(Array("abc".utf8)).hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

@Suite struct KeyFileTests {
    func problem(_ pem: String) -> InputError? {
        do {
            _ = try ES256PrivateKey(pem: Array(pem.utf8))
            return nil
        } catch { return error }
    }

    @Test("each wrong kind of file gets its own message")
    func messages() throws {
        #expect(problem("")?.message(.en) == "the key file is empty")
        #expect(problem("\n  \n")?.message(.en) == "the key file is empty")
        #expect(problem("MIGHAgEAMBMGByqGSM49")?.message(.en).contains("not a PEM key") == true)
        #expect(problem("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n")?.message(.en).contains("encrypted") == true)
        #expect(
            problem("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n")?.message(.en)
                == "APNs keys are P-256 (prime256v1) EC keys; this file holds an RSA key")
        #expect(problem(P256.Signing.PrivateKey().publicKey.pemRepresentation)?.message(.en).contains("public key") == true)
        #expect(
            problem(P384.Signing.PrivateKey().pemRepresentation)?.message(.en)
                == "APNs keys are P-256 (prime256v1) EC keys; this file holds an EC key on P-384 (secp384r1)")
        #expect(problem("-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n")?.message(.en).contains("could not be read") == true)
        #expect(problem(P256.Signing.PrivateKey().pemRepresentation) == nil)
        // Every refusal is bad input data (65).
        #expect(problem("")?.kind == .badData)
    }

    @Test("a public key PEM is accepted for verifying, but a P-384 one is not")
    func verificationKeys() throws {
        _ = try ES256PublicKey(pem: Array(P256.Signing.PrivateKey().publicKey.pemRepresentation.utf8))
        #expect(throws: InputError.self) { try ES256PublicKey(pem: Array(P384.Signing.PrivateKey().publicKey.pemRepresentation.utf8)) }
    }
}
