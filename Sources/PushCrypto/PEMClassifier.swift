import PushCore
import Foundation

/// What a key file holds, judged from its PEM label before OpenSSL parses it, so
/// each wrong kind of file gets its own message.
enum PEMContents: Equatable {
    case empty
    case notPEM
    case label(String)

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.allSatisfy(\.isWhitespace) { self = .empty; return }
        guard let begin = text.range(of: "-----BEGIN "),
              let end = text[begin.upperBound...].range(of: "-----")
        else { self = .notPEM; return }
        self = .label(String(text[begin.upperBound..<end.lowerBound]))
    }
}

enum KeyProblem {
    static let expected = "APNs keys are P-256 (prime256v1) EC keys"
    static let download = "use the .p8 file from Certificates, Identifiers & Profiles › Keys (or `pushctl key generate` for a test key)"

    static func forLabel(_ label: String, wantPrivate: Bool) -> InputError? {
        switch label {
        case "PRIVATE KEY", "EC PRIVATE KEY":
            return nil
        case "PUBLIC KEY":
            return wantPrivate
                ? InputError("this file holds a public key; signing needs the private key (the .p8 file)", hint: download)
                : nil
        case "ENCRYPTED PRIVATE KEY":
            return InputError(
                "this key is encrypted (PKCS#8 with a password); Apple's .p8 keys are not",
                hint: "write an unencrypted copy with `openssl pkey -in KEY -out AuthKey_KEYID.p8` and keep it mode 0600")
        case "RSA PRIVATE KEY", "RSA PUBLIC KEY":
            return InputError("\(expected); this file holds an RSA key", hint: download)
        case "CERTIFICATE":
            return InputError("this file holds a certificate, not a key; token authentication signs with the .p8 key", hint: download)
        case "EC PARAMETERS":
            return InputError("this file starts with EC parameters, not a key", hint: "remove the EC PARAMETERS block, or use the .p8 file Apple gave you")
        default:
            return InputError("this file holds a '\(label)' PEM block, not a key", hint: download)
        }
    }

    static func forKey(_ key: OpenSSLKey) -> InputError? {
        guard key.isEC else {
            let kind = key.typeName == "RSA" || key.typeName == "RSA-PSS" ? "an RSA key" : "a \(key.typeName) key"
            return InputError("\(expected); this file holds \(kind)", hint: download)
        }
        guard let group = key.groupName else {
            return InputError("\(expected); this file holds an EC key on an unnamed curve", hint: download)
        }
        if group == "prime256v1" || group == "P-256" { return nil }
        let friendly = ["secp384r1": "P-384 (secp384r1)", "secp521r1": "P-521 (secp521r1)", "secp256k1": "secp256k1"][group] ?? group
        return InputError("\(expected); this file holds an EC key on \(friendly)", hint: download)
    }
}
