import Crypto
import Foundation
import X509

/// A throwaway CA and a server certificate it signed for `localhost`, 127.0.0.1 and ::1 (and,
/// for a mock other machines reach, more names: ``MockNetwork/certificateNames(listeningOn:extra:addresses:hostName:)``),
/// made fresh at every start: clients trust the CA with `--cacert`, nothing is installed.
struct MockCertificates {
    let caPEM: String
    let serverCertificatePEM: String
    let serverKeyPEM: String

    /// `names` are host names or IP addresses (IPv4 or IPv6 text) the server certificate names
    /// besides the loopback ones.
    static func make(now: Date = Date(), names: [String] = []) throws -> MockCertificates {
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

        var alternativeNames: [GeneralName] = [
            .dnsName("localhost"),
            .ipAddress(.init(contentBytes: ArraySlice<UInt8>([127, 0, 0, 1]))),
            .ipAddress(.init(contentBytes: ArraySlice<UInt8>(repeating: 0, count: 15) + [1])),
        ]
        for name in names {
            if let address = MockNetwork.addressBytes(name) {
                alternativeNames.append(.ipAddress(.init(contentBytes: ArraySlice(address))))
            } else {
                alternativeNames.append(.dnsName(name))
            }
        }

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
                SubjectAlternativeNames(alternativeNames)
            },
            issuerPrivateKey: .init(caKey)
        )

        return MockCertificates(
            caPEM: try ca.serializeAsPEM().pemString + "\n",  // a PEM file ends with a newline: `cat a.pem b.pem` must stay a bundle
            serverCertificatePEM: try server.serializeAsPEM().pemString,
            serverKeyPEM: serverKey.pemRepresentation
        )
    }
}

/// What a class checks before trusting a CA fetched over plain HTTP.
public enum MockCertificateFingerprint {
    /// SHA-256 of the first certificate's DER, as `openssl x509 -noout -fingerprint -sha256`
    /// prints it (`AB:CD:…`, upper-case); nil when `pem` holds no certificate.
    public static func sha256(pem: String) -> String? {
        // The DER is the base64 between the first BEGIN and END CERTIFICATE lines.
        guard let begin = pem.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = pem.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<pem.endIndex),
            let der = Data(base64Encoded: String(pem[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }))
        else { return nil }
        return SHA256.hash(data: der).hexString(uppercase: true, separator: ":")
    }
}
