/// What was wrong with the credentials a run was given: the choice of how to authenticate, the key
/// and its sources (a file, a PKCS#11 token, a signer), a provider token given ready-made, a
/// certificate, and the test materials pushctl makes. Paths are as given; a parameter named
/// `shown` is already made safe to show. The catalog says each and what to do.
public enum CredentialProblem: InputProblem {
    // The choice of credentials.
    /// No way to authenticate was given (no key, no provider token, no certificate).
    case missingProviderToken
    /// Several ways to authenticate were given by flags (their names, as a message shows them).
    case severalChoices(settings: [Setting])
    /// Several ways to authenticate were given by variables, and no flag chose.
    case severalVariables(variables: [String], settings: [Setting])

    // The signing key and its identity.
    /// No key file where one is needed.
    case missingKeyFile
    /// No key id given, and the key's file name does not carry one (`fileNamed`: it has a file
    /// name, one not of the form AuthKey_<KEYID>.p8).
    case missingKeyID(fileNamed: Bool)
    /// No team id given.
    case missingTeamID
    /// The key given is a certificate (of this form), not a .p8 key.
    case certificateGivenAsKey(path: String, PastedForm.Certificate)
    /// The key could not be opened (the library's own text).
    case keyNotOpened(detail: String)
    /// A key that is neither a file nor a PKCS#11 URI, where one of those is needed.
    case missingKeyFileOrURI
    /// The key loads but could not sign a test token (the doctor's check; the library's text).
    case keyCannotSign(shown: String, detail: String)
    /// A token signed with the key does not verify with its public half (the doctor's check).
    case keySignatureDoesNotVerify(shown: String)

    // A PKCS#11 token's key.
    /// This OpenSSL has neither libp11's engine nor a provider for pkcs11: URIs.
    case pkcs11NoSupport
    /// The module could not be loaded (its name, and the library's text, both shown).
    case pkcs11Module(module: String, detail: String)
    /// The token refused the PIN given.
    case pkcs11WrongPIN(uri: String)
    /// The token's PIN is locked.
    case pkcs11LockedPIN(uri: String)
    /// No private key for the URI could be opened (the library's text, shown; whether a PIN was given).
    case pkcs11NoKey(uri: String, module: String, detail: String, pinGiven: Bool)
    /// The token's key is not a P-256 EC key (its kind, shown).
    case pkcs11NotP256(uri: String, kind: String)
    /// The token's signature does not verify with the public half named.
    case tokenKeyMismatch
    /// A test signature with a key given does not verify with its own public half.
    case testSignatureDoesNotVerify
    /// A test signature failed (the library's text).
    case testSignatureFailed(detail: String)

    // Provider tokens.
    /// The provider token could not be signed (the library's text).
    case providerTokenNotSigned(detail: String)
    /// A provider token given ready-made has expired, and there is no key to renew it.
    case providerTokenCannotBeRenewed
    /// APNs refused a provider token, but the run authenticates with a certificate.
    case certificateSendsNoProviderToken
    /// The JWT given is older than APNs accepts (UNIX seconds).
    case jwtExpired(issuedAt: Int64, now: Int64)
    /// The JWT given would be refused by APNs, for these findings.
    case jwtRefused([ProviderTokenFinding])

    // Certificates.
    /// The certificate's key or password setting was given without a certificate.
    case certificateSettingsWithoutCertificate
    /// The certificate password file does not hold one line.
    case certificatePasswordNotOneLine(file: String)
    /// The certificate has expired (UNIX seconds; its subject as given).
    case certificateExpired(shown: String, notAfter: Int64, subject: String)
    /// The certificate is not valid yet (UNIX seconds).
    case certificateNotYetValid(shown: String, notBefore: Int64)
    /// The certificate is for the other environment than the one the run sends to.
    case certificateEnvironment(shown: String, sendsTo: APNsEnvironment)
    /// The certificate covers several apps' topics, and no topic chose one (each shown).
    case certificateTopicNeeded(topics: [String])
    /// The certificate does not allow the topic or push type: APNs would refuse it.
    case certificateRefuses(CertificateRefusal)

    // Test materials.
    /// A test certificate needs a bundle id.
    case testCertificateNeedsTopic
    /// A topic for a test certificate is not a bundle id or topic.
    case notATopic(shown: String)
}
