internal import CLibcrypto
import PushCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
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
        if text.allSatisfy(\.isWhitespace) {
            self = .empty
            return
        }
        guard let begin = text.firstRange(of: "-----BEGIN ") else {
            self = .notPEM
            return
        }
        // The label is what stands between "BEGIN " and the next dashes on the same line, nothing more.
        let line = text[begin.upperBound...].prefix { $0 != "\n" && $0 != "\r" }
        guard let end = line.firstRange(of: "-----") else {
            self = .damagedBeginLine
            return
        }
        let label = line[..<end.lowerBound]
        guard !label.isEmpty, label.count <= PEMContents.labelLimit,
            label.unicodeScalars.allSatisfy({ $0.isASCII && !OutsideText.isControl($0) })
        else {
            self = .damagedBeginLine
            return
        }
        let body = text[end.upperBound...].prefix(400)
        if body.contains("Proc-Type: 4,ENCRYPTED") {
            self = .encrypted(String(label))
            return
        }
        self = .label(String(label))
    }
}

/// What a PEM file holds instead of a P-256 key, as the core's `SigningKeyProblem`.
enum KeyProblem {
    static func forLabel(_ label: String, wantPrivate: Bool) -> InputError? {
        switch label {
        case "PRIVATE KEY", "EC PRIVATE KEY": return nil
        case "PUBLIC KEY": return wantPrivate ? InputError(SigningKeyProblem.publicKeyGiven) : nil
        case "ENCRYPTED PRIVATE KEY": return InputError(SigningKeyProblem.encryptedPKCS8)
        case "RSA PRIVATE KEY", "RSA PUBLIC KEY": return InputError(SigningKeyProblem.rsa)
        case "CERTIFICATE": return InputError(SigningKeyProblem.certificateGiven)
        case "EC PARAMETERS": return InputError(SigningKeyProblem.ecParameters)
        default: return InputError(SigningKeyProblem.otherBlock(label: label))
        }
    }

    /// A private key whose parts contradict each other: a .p8 altered on disk (a flipped bit) loads,
    /// signs, and every token it makes is refused (InvalidProviderToken). OpenSSL 3's checks.
    static func consistency(_ key: OpenSSLKey) -> InputError? {
        switch pushctl_key_problem(key.pointer) {
        case 0: return nil
        case 1: return InputError(SigningKeyProblem.damaged(.scalarOutOfRange))
        case 2: return InputError(SigningKeyProblem.damaged(.publicNotOnCurve))
        default: return InputError(SigningKeyProblem.damaged(.halvesDisagree))
        }
    }

    static func forKey(_ key: OpenSSLKey) -> InputError? {
        guard key.isEC else {
            let rsa = key.typeName == "RSA" || key.typeName == "RSA-PSS"
            return InputError(rsa ? SigningKeyProblem.rsa : .otherType(key.typeName))
        }
        guard let group = key.groupName else { return InputError(SigningKeyProblem.unnamedCurve) }
        if group == "prime256v1" || group == "P-256" { return nil }
        return InputError(SigningKeyProblem.otherCurve(group))
    }
}
