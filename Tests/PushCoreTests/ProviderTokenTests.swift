import PushWords
import Testing

@testable import PushCore

/// A signer with a fixed signature: these tests are about the token's structure.
struct FixedSigner: ES256Signing {
    func sign(_ message: [UInt8]) throws -> [UInt8] { (0..<64).map { UInt8($0) } }
}

@Suite struct ProviderTokenTests {
    let keyID = try! AppleIdentifier(.keyID, "ABC123DEFG")
    let teamID = try! AppleIdentifier(.teamID, "DEF123GHIJ")

    @Test("header and claims are APNs' exact JSON, iat an integer")
    func structure() throws {
        let unsigned = UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: 1_700_000_000)
        #expect(unsigned.header.compact == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(unsigned.claims.compact == #"{"iss":"DEF123GHIJ","iat":1700000000}"#)
        let token = try unsigned.signed(by: FixedSigner())
        let parts = token.compact.split(separator: ".")
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[0]) == Array(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8))
        #expect(Base64URL.decode(parts[2])?.count == 64)
        #expect(!token.compact.contains("="))
    }

    @Test("a signed token decodes back to its header, claims and raw signature")
    func decodeRoundTrip() throws {
        let token = try UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: 42).signed(by: FixedSigner())
        let decoded = try DecodedJWT(parsing: "  bearer \(token.compact)\n")
        #expect(decoded.header == token.unsigned.header)
        #expect(decoded.claims == token.unsigned.claims)
        #expect(decoded.signature == token.signature)
        #expect(decoded.signatureForm == .raw)
        #expect(decoded.signingInput == token.unsigned.signingInput)
    }

    @Test(
        "malformed tokens say which part is wrong",
        arguments: [
            ("", "empty"),
            ("abc", "three parts"),
            ("a.b.c.d", "this one has 4"),
            ("!!!.e30.AAAA", "header (part 1) is not valid base64url"),
            ("e30.bm90IGpzb24.AAAA", "claims (part 2) is not valid JSON"),
            ("W10.e30.AAAA", "header (part 1) holds an array"),
            ("e30.e30.", "signature (part 3) is empty"),
            (".e30.AAAA", "header (part 1) is empty"),
        ])
    func malformed(_ token: String, _ expected: String) {
        #expect {
            try DecodedJWT(parsing: token)
        } throws: { error in
            (error as? InputError).map { $0.message(.en).contains(expected) && $0.kind == .badData } ?? false
        }
    }

    @Test(
        "key id and team id must be 10 characters of A–Z and 0–9",
        arguments: ["", "ABC123DEF", "ABC123DEFGH", "abc123defg", "ABC-123DEF", "ÀBC123DEFG"])
    func identifiers(_ text: String) {
        #expect(throws: InputError.self) { try AppleIdentifier(.teamID, text) }
    }

    @Test(
        "an id right but for its case or the blanks pasted around it is refused with the id it is",
        arguments: [
            ("def123ghij", "Apple's ids are in capitals: DEF123GHIJ"), (" DEF123GHIJ\n", "leave out the blanks around it: DEF123GHIJ"),
            ("def123ghij ", "leave out the blanks around it: DEF123GHIJ"), ("DEF123GHI", "use the Team ID shown under Membership"),
        ])
    func nearMiss(_ text: String, _ hint: String) {
        #expect {
            try AppleIdentifier(.teamID, text)
        } throws: { error in
            (error as? InputError)?.hintWords?.text(.en).hasPrefix(hint) == true
        }
    }

    @Test("the key id comes from AuthKey_<ID>.p8, and from a downloaded or copied AuthKey_<ID> (1).p8")
    func keyIDFromFileName() {
        #expect(AppleIdentifier.keyID(fromKeyFileName: "/keys/AuthKey_ABC123DEFG.p8") == "ABC123DEFG")
        #expect(AppleIdentifier.keyID(fromKeyFileName: "key.p8") == nil)
        #expect(AppleIdentifier.keyID(fromKeyFileName: "AuthKey_.p8") == nil)
        // A second download or a copy keeps the id; anything else after it is left for the id's own check.
        for copy in [
            "AuthKey_ABC123DEFG (1).p8", "Downloads/AuthKey_ABC123DEFG(2).p8", "AuthKey_ABC123DEFG copy.p8",
            "AuthKey_ABC123DEFG copy 2.p8", "AuthKey_ABC123DEFG-1.p8",
        ] {
            #expect(AppleIdentifier.keyID(fromKeyFileName: copy) == "ABC123DEFG", "\(copy)")
        }
        for other in [
            "AuthKey_ABC123DEFGH.p8", "AuthKey_ABC123DEFG (x).p8", "AuthKey_ABC123DEFG ().p8", "AuthKey_ABC123DEFGcopy.p8",
            "AuthKey_ABC123DEFG-.p8", "AuthKey_abc123defg (1).p8",
        ] {
            let id = String(other.dropFirst("AuthKey_".count).dropLast(".p8".count))
            #expect(AppleIdentifier.keyID(fromKeyFileName: other) == id, "\(other)")
        }
    }
}

@Suite struct SignatureFormTests {
    @Test("64 bytes is raw r‖s; a SEQUENCE of two INTEGERs is DER; anything else is neither")
    func classify() {
        #expect(SignatureForm(classifying: [UInt8](repeating: 1, count: 64)) == .raw)
        let der: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x07]
        #expect(SignatureForm(classifying: der) == .der)
        #expect(SignatureForm(classifying: [0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x02, 0x07]) == .unrecognized)
        #expect(SignatureForm(classifying: [1, 2, 3]) == .unrecognized)
    }
}

@Suite struct ProviderTokenAuditTests {
    func decoded(header: String, claims: String) throws -> DecodedJWT {
        try DecodedJWT(parsing: Base64URL.encode(header) + "." + Base64URL.encode(claims) + ".AAAA")
    }

    func outcomes(_ jwt: DecodedJWT, now: Int64) -> [ProviderTokenCheck.Outcome] {
        ProviderTokenRules.audit(jwt, now: now).map(\.outcome)
    }

    @Test("a fresh APNs token passes every check")
    func fresh() throws {
        let jwt = try decoded(header: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":1000}"#)
        #expect(outcomes(jwt, now: 1000 + 600) == [.pass, .pass, .pass, .pass])
    }

    @Test("RFC 7515 A.3's example claims are not an APNs token")
    func rfcExample() throws {
        let jwt = try decoded(header: #"{"alg":"ES256"}"#, claims: "{\"iss\":\"joe\",\r\n \"exp\":1300819380}")
        let checks = ProviderTokenRules.audit(jwt, now: 1_300_000_000)
        #expect(checks.filter { $0.outcome == .failure }.count == 3)  // no kid, iss not a team id, no iat
    }

    @Test("iat: an integer or a number with a fraction is a NumericDate (whole seconds); a string, null or a bool is not")
    func issueTimeForms() throws {
        #expect(ProviderTokenRules.issuedAt(.integer(1_700_000_000)) == 1_700_000_000)
        #expect(ProviderTokenRules.issuedAt(.number(1_700_000_000.9)) == 1_700_000_000)
        #expect(ProviderTokenRules.issuedAt(.number(-0.5)) == -1)
        #expect(ProviderTokenRules.issuedAt(.number(1e300)) == nil)
        #expect(ProviderTokenRules.issuedAt(.string("1700000000")) == nil)
        #expect(ProviderTokenRules.issuedAt(.null) == nil)
        #expect(ProviderTokenRules.issuedAt(nil) == nil)
        let header = #"{"alg":"ES256","kid":"ABC123DEFG"}"#
        let fractional = try decoded(header: header, claims: #"{"iss":"DEF123GHIJ","iat":1000.5}"#)
        #expect(ProviderTokenRules.defects(fractional).isEmpty)
        #expect(outcomes(fractional, now: 1600) == [.pass, .pass, .pass, .pass])
        let text = try decoded(header: header, claims: #"{"iss":"DEF123GHIJ","iat":"1000.5"}"#)
        #expect(ProviderTokenRules.defects(text) == [.issuedAt(.string("1000.5"))])
        #expect(
            ProviderTokenRules.audit(text, now: 1600).last?.message.en == #"iat is a string ("1000.5"); APNs needs a JSON number of UNIX seconds, not text"#)
    }

    @Test("older than 60 minutes fails, older than 50 warns, a string iat fails, another alg fails")
    func ages() throws {
        let header = #"{"alg":"ES256","kid":"ABC123DEFG"}"#
        let old = try decoded(header: header, claims: #"{"iss":"DEF123GHIJ","iat":0}"#)
        #expect(outcomes(old, now: 3601).last == .failure)
        #expect(outcomes(old, now: 3001).last == .warning)
        #expect(outcomes(old, now: 3000).last == .pass)
        let stringIat = try decoded(header: header, claims: #"{"iss":"DEF123GHIJ","iat":"0"}"#)
        #expect(outcomes(stringIat, now: 10).last == .failure)
        let hs256 = try decoded(header: #"{"alg":"HS256","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":0}"#)
        #expect(outcomes(hs256, now: 10).first == .failure)
    }
}
