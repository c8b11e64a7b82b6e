import Foundation
import NIOCore
import NIOSSL
import PushCore
import PushWords
import X509

/// What the mock reads from a verified TLS client certificate: the same facts the sender reads
/// through libcrypto (UID, Apple's topics and environment extensions), here through
/// swift-certificates.
enum ClientCertificates {
    static let userID = "0.9.2342.19200300.100.1.1"
    static let commonName = "2.5.4.3"

    static func facts(_ peer: NIOSSLCertificate) -> ProviderCertificate? {
        guard let der = try? peer.toDERBytes(), let certificate = try? Certificate(derEncoded: der) else { return nil }
        // OIDs compared in their dotted form (SwiftASN1 is not a direct dependency).
        func attribute(_ dotted: String) -> String? {
            for rdn in certificate.subject {
                for item in rdn where item.type.description == dotted { return item.value.description }
            }
            return nil
        }
        func extensionValue(_ dotted: String) -> [UInt8]? {
            certificate.extensions.first { $0.oid.description == dotted }.map { Array($0.value) }
        }
        return ProviderCertificate(
            subject: certificate.subject.description,
            issuer: certificate.issuer.description,
            uid: attribute(userID),
            commonName: attribute(commonName),
            serialHex: certificate.serialNumber.bytes.hexString(uppercase: true),
            notBefore: Int64(certificate.notValidBefore.timeIntervalSince1970),
            notAfter: Int64(certificate.notValidAfter.timeIntervalSince1970),
            topics: extensionValue(AppleTopicsExtension.oid).flatMap(AppleTopicsExtension.parse) ?? [],
            development: extensionValue(AppleTopicsExtension.developmentOID) != nil,
            production: extensionValue(AppleTopicsExtension.productionOID) != nil,
            fingerprint: "")
    }

    /// The verified client certificate of the connection whose pipeline this is, if any.
    static func peer(of pipeline: ChannelPipeline) -> ProviderCertificate? {
        let peer = (try? pipeline.syncOperations.handler(type: NIOSSLServerHandler.self))?.peerCertificate
        return peer.flatMap(facts)
    }

    /// How the log names a certificate: its subject and serial number.
    static func summary(_ facts: ProviderCertificate) -> String {
        "subject=\(facts.subject) serial=\(facts.serialHex)"
    }
}
