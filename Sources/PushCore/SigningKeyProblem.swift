/// What is wrong with a key given to sign provider tokens (or to check them): each case a code a
/// caller can branch on, with what the file held instead. (PushCrypto reads the key; the catalog
/// says each case and what to do.)
public enum SigningKeyProblem: InputProblem {
    /// Nothing but blanks.
    case empty
    /// No PEM block at all.
    case notPEM
    /// The `-----BEGIN …-----` line does not end in five dashes.
    case damagedBeginLine
    /// The line breaks were lost (a secret pasted on one line).
    case lostLineBreaks
    /// A traditional PEM key with a password (`Proc-Type: 4,ENCRYPTED`), by its label.
    case encryptedTraditional(label: String)
    /// A PKCS#8 key with a password.
    case encryptedPKCS8
    /// A public key where signing needs the private one.
    case publicKeyGiven
    /// A certificate where token authentication needs the key.
    case certificateGiven
    /// An RSA key (PEM label or key type).
    case rsa
    /// A key of another type (its OpenSSL name).
    case otherType(String)
    /// An EC key on a curve without a name.
    case unnamedCurve
    /// An EC key on another curve (its OpenSSL name: `secp384r1`…).
    case otherCurve(String)
    /// An `EC PARAMETERS` block first.
    case ecParameters
    /// Another PEM block, by its label.
    case otherBlock(label: String)
    /// A private key's PEM block that does not decode (damaged base64 or DER).
    case unreadablePrivateKey
    /// A public key's PEM block that does not decode.
    case unreadablePublicKey
    /// A certificate (to verify with its key) that does not decode.
    case unreadableCertificate
    /// A private key whose parts contradict each other: every token it signs would be refused.
    case damaged(KeyDamage)
    /// A point's coordinates are not 32 bytes each.
    case coordinateSize
    /// The coordinates are not a point on P-256.
    case notOnCurve

    /// How a private key's parts contradict each other (OpenSSL's checks).
    public enum KeyDamage: Sendable, Equatable, CaseIterable {
        /// The private scalar is 0 or not below the curve's order.
        case scalarOutOfRange
        /// The public half is not a point on P-256.
        case publicNotOnCurve
        /// The public half is not the private half's.
        case halvesDisagree
    }
}
