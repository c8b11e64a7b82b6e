import PushCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a key file holds, judged from its PEM label before OpenSSL parses it, so
/// each wrong kind of file gets its own message.
enum PEMContents: Equatable {
    case empty
    case notPEM
    /// A BEGIN line that does not end in five dashes: the label cannot be trusted, and whatever
    /// follows it (the key itself) must never be echoed as if it were one.
    case damagedBeginLine
    case label(String)
    /// A traditional (OpenSSL) PEM whose headers say it is encrypted: `Proc-Type: 4,ENCRYPTED`.
    case encrypted(String)

    /// Whether the key's line breaks were lost (a CI secret pasted on one line): the base64 starts
    /// on the BEGIN line, or the file is one line holding both BEGIN and END.
    static func lostLineBreaks(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let begin = text.firstRange(of: "-----BEGIN "), let dashes = text[begin.upperBound...].firstRange(of: "-----") else { return false }
        let after = text[dashes.upperBound...]
        return after.first.map { $0 != "\n" && $0 != "\r" } ?? false
    }

    /// Labels are short ("ENCRYPTED PRIVATE KEY" is the longest usual one).
    static let labelLimit = 40

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.allSatisfy(\.isWhitespace) { self = .empty; return }
        guard let begin = text.firstRange(of: "-----BEGIN ") else { self = .notPEM; return }
        // The label is what stands between "BEGIN " and the next dashes on the same line, nothing more.
        let line = text[begin.upperBound...].prefix { $0 != "\n" && $0 != "\r" }
        guard let end = line.firstRange(of: "-----") else { self = .damagedBeginLine; return }
        let label = line[..<end.lowerBound]
        guard !label.isEmpty, label.count <= PEMContents.labelLimit,
              label.unicodeScalars.allSatisfy({ $0.isASCII && !OutsideText.isControl($0) })
        else { self = .damagedBeginLine; return }
        let body = text[end.upperBound...].prefix(400)
        if body.contains("Proc-Type: 4,ENCRYPTED") { self = .encrypted(String(label)); return }
        self = .label(String(label))
    }
}

enum KeyProblem {
    static let lostLineBreaks = InputError(
        "the key's line breaks were lost (the -----BEGIN …----- line runs into the base64): a secret pasted on one line?",
        hint: "write it with its newlines, e.g. printf '%s\\n' \"$APNS_KEY\" > AuthKey_KEYID.p8 with the secret stored as the whole file")

    static let damagedBeginLine = InputError(
        "the file's -----BEGIN …----- line is damaged (it does not end in five dashes), so it cannot be read as a key",
        hint: "download the .p8 file again, or restore the first line to -----BEGIN PRIVATE KEY-----")

    static func encrypted(_ label: String) -> InputError {
        InputError(
            "this key is encrypted (a traditional '\(OutsideText.display(label, limit: PEMContents.labelLimit))' with a password); Apple's .p8 keys are not",
            hint: "write an unencrypted copy with `openssl pkey -in KEY -out AuthKey_KEYID.p8` and keep it mode 0600")
    }

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
            return InputError("this file holds a '\(OutsideText.display(label, limit: PEMContents.labelLimit))' PEM block, not a key", hint: download)
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
