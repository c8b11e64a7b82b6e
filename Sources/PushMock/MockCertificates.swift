import Crypto
import Foundation
import X509

/// A throwaway CA and a server certificate it signed for `localhost`, 127.0.0.1 and ::1,
/// made fresh at every start: clients trust the CA with `--cacert`, nothing is installed.
struct MockCertificates {
    let caPEM: String
    let serverCertificatePEM: String
    let serverKeyPEM: String

    static func make(now: Date = Date()) throws -> MockCertificates {
        let notBefore = now.addingTimeInterval(-3600)  // tolerate a client clock a little behind
        let notAfter = now.addingTimeInterval(30 * 86400)

        let caKey = P256.Signing.PrivateKey()
        let caPublicKey = Certificate.PublicKey(caKey.publicKey)
        let caName = try DistinguishedName {
            OrganizationName("pushctl")
            CommonName("pushctl mock APNs CA")
        }
        let caKeyID = SubjectKeyIdentifier(hash: caPublicKey)
        let ca = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: caPublicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                caKeyID
            },
            issuerPrivateKey: .init(caKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let serverPublicKey = Certificate.PublicKey(serverKey.publicKey)
        let server = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: serverPublicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: try DistinguishedName {
                OrganizationName("pushctl")
                CommonName("localhost")
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectKeyIdentifier(hash: serverPublicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyID.keyIdentifier)
                SubjectAlternativeNames([
                    .dnsName("localhost"),
                    .ipAddress(.init(contentBytes: ArraySlice<UInt8>([127, 0, 0, 1]))),
                    .ipAddress(.init(contentBytes: ArraySlice<UInt8>(repeating: 0, count: 15) + [1])),
                ])
            },
            issuerPrivateKey: .init(caKey)
        )

        return MockCertificates(
            caPEM: try ca.serializeAsPEM().pemString,
            serverCertificatePEM: try server.serializeAsPEM().pemString,
            serverKeyPEM: serverKey.pemRepresentation
        )
    }
}
