import Foundation
import Testing

private func base64url(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

private func decodePart(_ part: Substring) throws -> [String: Any] {
    var text = String(part).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    let data = try #require(Data(base64Encoded: text))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite struct JWTCommandTests {
    let dir = try! TemporaryDirectory()

    @Test("jwt prints one line: an ES256 token whose kid comes from the file name and iat is an integer")
    func signs() throws {
        let key = try dir.generateKey()
        let result = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--issued-at", "1700000000"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutLines.count == 1)
        let parts = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        #expect(parts.count == 3)
        let header = try decodePart(parts[0])
        let claims = try decodePart(parts[1])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "ABC123DEFG")
        #expect(claims["iss"] as? String == "DEF123GHIJ")
        #expect(claims["iat"] as? Int == 1_700_000_000)
        #expect(String(decoding: Data(base64Encoded: String(parts[1]) + "==")!, as: UTF8.self).contains("\"iat\":1700000000"))
        #expect(!result.stdout.contains("="))
    }

    @Test("the token verifies with the openssl command line (its signature converted back to DER)")
    func opensslVerifies() throws {
        let key = try dir.generateKey()
        try dir.openssl(["pkey", "-in", key, "-pubout", "-out", "pub.pem"])
        let token = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = token.split(separator: ".")
        var sigText = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while sigText.count % 4 != 0 { sigText += "=" }
        let raw = [UInt8](try #require(Data(base64Encoded: sigText)))
        #expect(raw.count == 64)
        func derInteger(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var b = Array(bytes.drop { $0 == 0 })
            if b.isEmpty { b = [0] }
            if b[0] & 0x80 != 0 { b.insert(0, at: 0) }
            return [0x02, UInt8(b.count)] + b
        }
        let body = derInteger(raw[0..<32]) + derInteger(raw[32..<64])
        try Data([0x30, UInt8(body.count)] + body).write(to: URL(fileURLWithPath: dir.path("sig.der")))
        let verify = try dir.openssl(
            ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der"],
            stdin: Data("\(parts[0]).\(parts[1])".utf8))
        #expect(verify.stdout.contains("Verified OK"))
    }

    @Test("environment variables stand in for the flags, and flags win")
    func environment() throws {
        let key = try dir.generateKey()
        let env = ["PUSHCTL_KEY_FILE": key, "PUSHCTL_TEAM_ID": "DEF123GHIJ", "PUSHCTL_KEY_ID": "ZZZ999ZZZZ"]
        let fromEnv = try CLI.pushctl(["jwt", "--output", "json"], env: env)
        #expect(fromEnv.status == 0)
        #expect(fromEnv.stdout.contains("\"kid\": \"ZZZ999ZZZZ\""))
        let flagWins = try CLI.pushctl(["jwt", "--output", "json", "--key-id", "ABC123DEFG", "--team-id", "XYZ123GHIJ"], env: env)
        #expect(flagWins.stdout.contains("\"kid\": \"ABC123DEFG\""))
        #expect(flagWins.stdout.contains("\"iss\": \"XYZ123GHIJ\""))
    }

    @Test("--output json prints header, claims and token")
    func json() throws {
        let key = try dir.generateKey()
        let result = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--issued-at", "5", "--output", "json"])
        #expect(result.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((doc["header"] as? [String: Any])?["kid"] as? String == "ABC123DEFG")
        #expect((doc["claims"] as? [String: Any])?["iat"] as? Int == 5)
        #expect((doc["token"] as? String)?.split(separator: ".").count == 3)
    }

    @Test("--explain shows each step in order on stderr; stdout holds the token alone (JWT=$(pushctl jwt --explain) works)")
    func explain() throws {
        let key = try dir.generateKey()
        let result = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--issued-at", "1700000000", "--explain"])
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 1, "only the token on stdout: \(result.stdout)")
        let out = result.stderr
        let steps = [
            "1. Key", "2. Header", #"{"alg":"ES256","kid":"ABC123DEFG"}"#, "3. Claims", #"{"iss":"DEF123GHIJ","iat":1700000000}"#,
            "2023-11-14 22:13:20 UTC", "4. Base64url", "5. Signing input", "6. SHA-256", "7. Signature", "r: ", "s: ", "8. Token",
        ]
        var cursor = out.startIndex
        for step in steps {
            let found = try #require(out.range(of: step, range: cursor..<out.endIndex), "missing or out of order: \(step)")
            cursor = found.upperBound
        }
        let token = try #require(result.stdoutLines.last)
        #expect(token.hasPrefix("eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ."))
        let verify = try CLI.pushctl(["jwt", "verify", token, "--key-file", key])
        #expect(verify.stdout.contains("signature: valid"))
    }

    @Test(
        "--explain fits a 60-column projector in both languages: every row within the width, the steps still in order, stdout the whole token",
        arguments: ["en", "es"])
    func explainFits(language: String) throws {
        let key = try dir.generateKey()
        let result = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--explain", "--lang", language], env: ["COLUMNS": "60"])
        #expect(result.status == 0)
        let rows = result.stderr.split(separator: "\n")
        #expect(rows.count > 20, "\(result.stderr)")
        for row in rows { #expect(row.count <= 60, "wider than 60: \(row)") }
        let steps = language == "es" ? ["1. Clave", "2. Cabecera", "7. Firma", "8. Token"] : ["1. Key", "2. Header", "7. Signature", "8. Token"]
        var cursor = result.stderr.startIndex
        for step in steps {
            let found = try #require(result.stderr.range(of: step, range: cursor..<result.stderr.endIndex), "missing or out of order: \(step)")
            cursor = found.upperBound
        }
        #expect(result.stdoutLines.count == 1 && result.stdout.count > 100, "the token whole, unwrapped, on stdout: \(result.stdout)")
    }

    @Test("decode shows header, claims, the age against the 60-minute limit and the signature's form")
    func decode() throws {
        let key = try dir.generateKey()
        let issued = Int(Date().timeIntervalSince1970) - 12 * 60
        let token = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--issued-at", "\(issued)"]).stdout
        let result = try CLI.pushctl(["jwt", "decode", "-"], stdin: token)
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"kid\": \"ABC123DEFG\""))
        #expect(result.stdout.contains("\"iss\": \"DEF123GHIJ\""))
        #expect(result.stdout.contains("issued 12 min ago; APNs rejects it after 60 min"))
        #expect(result.stdout.contains("signature: raw r‖s, 64 bytes"))
    }

    @Test("verify accepts a DER signature made by `openssl dgst -sign`, and says it is DER")
    func verifiesOpenSSLDER() throws {
        let key = try dir.generateKey()
        let header = base64url(Data(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8))
        let claims = base64url(Data("{\"iss\":\"DEF123GHIJ\",\"iat\":\(Int(Date().timeIntervalSince1970))}".utf8))
        try dir.write("input.txt", "\(header).\(claims)")
        try dir.openssl(["dgst", "-sha256", "-sign", key, "-out", "sig.der", "input.txt"])
        let der = try Data(contentsOf: URL(fileURLWithPath: dir.path("sig.der")))
        let token = "\(header).\(claims).\(base64url(der))"
        let result = try CLI.pushctl(["jwt", "verify", token, "--key-file", key])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("signature: valid — DER"))
        #expect(result.stdout.contains("APNs accepts it"))
        #expect(result.stdout.contains("result: signature valid, APNs checks passed"))
    }

    @Test("verify: RFC 7515 A.3's example has a valid signature but is not an APNs token")
    func rfc7515() throws {
        // The appendix's JWK as a PEM public key: SubjectPublicKeyInfo prefix, then 04‖x‖y.
        func b64u(_ s: String) -> Data {
            var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while t.count % 4 != 0 { t += "=" }
            return Data(base64Encoded: t)!
        }
        var der = Data([
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86,
            0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
        ])
        der += b64u("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU") + b64u("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")
        let pem = try dir.write(
            "rfc7515.pem", "-----BEGIN PUBLIC KEY-----\n\(der.base64EncodedString(options: .lineLength64Characters))\n-----END PUBLIC KEY-----\n")
        let token =
            "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        let result = try CLI.pushctl(["jwt", "verify", token, "--key-file", pem])
        #expect(result.status == 1)
        #expect(result.stdout.contains("signature: valid — raw r‖s, 64 bytes"))
        #expect(result.stdout.contains("no kid"))
        #expect(result.stdout.contains("iss 'joe' is not a 10-character team id"))
        #expect(result.stdout.contains("no iat"))
        #expect(result.stdout.contains("result: signature valid, APNs checks failed"))
    }

    @Test("verify fails (exit 1) for another key's token and for an expired token")
    func verifyFailures() throws {
        let key = try dir.generateKey()
        let other = try dir.generateKey(id: "OTHER12345")
        let token = try CLI.pushctl(["jwt", "--key-file", other, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]).stdout
        let wrongKey = try CLI.pushctl(["jwt", "verify", token, "--key-file", key])
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stdout.contains("signature: invalid"))

        let old = Int(Date().timeIntervalSince1970) - 61 * 60
        let expired = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--issued-at", "\(old)"]).stdout
        let result = try CLI.pushctl(["jwt", "verify", "-", "--key-file", key], stdin: expired)
        #expect(result.status == 1)
        #expect(result.stdout.contains("signature: valid"))
        #expect(result.stdout.contains("ExpiredProviderToken"))
    }

    @Test("verify names both ids when the token's kid is not the key's (from the file name or --key-id), and says what to do")
    func kidMismatch() throws {
        let key = try dir.generateKey()
        let other = try dir.generateKey(id: "OTHER12345")
        // Signed by OTHER12345's key: verifying with ABC123DEFG's key.
        let foreign = try CLI.pushctl(["jwt", "--key-file", other, "--team-id", "DEF123GHIJ"]).stdout
        let byName = try CLI.pushctl(["jwt", "verify", foreign, "--key-file", key])
        #expect(byName.status == 1)
        #expect(byName.stdout.contains("✗ kid OTHER12345 is not this key's id ABC123DEFG (from the file name AuthKey_ABC123DEFG.p8)"), "\(byName.stdout)")
        #expect(byName.stdout.contains("hint: the token was signed by another key: verify it with that key (AuthKey_OTHER12345.p8)"), "\(byName.stdout)")

        // This key's signature, but the wrong key id in the header.
        let misnamed = try CLI.pushctl(["jwt", "--key-file", key, "--key-id", "WRONG12345", "--team-id", "DEF123GHIJ"]).stdout
        try dir.openssl(["pkey", "-in", key, "-pubout", "-out", "pub.pem"])
        let withPublic = try CLI.pushctl(["jwt", "verify", misnamed, "--key-file", dir.path("pub.pem"), "--key-id", "ABC123DEFG"])
        #expect(withPublic.status == 1)
        #expect(withPublic.stdout.contains("signature: valid"))
        #expect(withPublic.stdout.contains("✗ kid WRONG12345 is not this key's id ABC123DEFG (from --key-id)"), "\(withPublic.stdout)")
        #expect(
            withPublic.stdout.contains("hint: the signature is this key's, so the token was signed with the wrong key id: sign again with --key-id ABC123DEFG"))

        // Matching ids: no such line, and a public key without an id says nothing about it.
        let fine = try CLI.pushctl(["jwt", "verify", misnamed, "--key-file", dir.path("pub.pem")])
        #expect(fine.status == 0, "\(fine.stdout)")
        #expect(!fine.stdout.contains("is not this key's id"))
    }

    @Test("verify agrees with the mock on iat: a number with a fraction passes, a string (even of digits) fails")
    func verifiesIssueTimeForms() throws {
        let key = try dir.generateKey()
        let seconds = Int(Date().timeIntervalSince1970)
        for (iat, passes) in [("\(seconds).75", true), ("\"\(seconds)\"", false)] {
            let header = base64url(Data(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8))
            let claims = base64url(Data("{\"iss\":\"DEF123GHIJ\",\"iat\":\(iat)}".utf8))
            try dir.write("input.txt", "\(header).\(claims)")
            try dir.openssl(["dgst", "-sha256", "-sign", key, "-out", "sig.der", "input.txt"])
            let der = try Data(contentsOf: URL(fileURLWithPath: dir.path("sig.der")))
            let result = try CLI.pushctl(["jwt", "verify", "\(header).\(claims).\(base64url(der))", "--key-file", key])
            #expect(result.status == (passes ? 0 : 1), "iat \(iat): \(result.stdout)")
            if passes {
                #expect(result.stdout.contains("a number with a fraction, read as whole seconds"))
            } else {
                #expect(result.stdout.contains("iat is a string (\"\(seconds)\"); APNs needs a JSON number of UNIX seconds, not text"))
            }
        }
    }

    @Test("jwt --cached prints the token send would use: the same one again while it may be reused, kept sealed in the cache; send then uses it too")
    func cachedToken() throws {
        let mock = try MockProcess(dir: dir)
        let env = ["PUSHCTL_CACHE_DIR": dir.path("jwt-cache")]
        let arguments = ["jwt", "--cached", "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ"]
        let first = try CLI.pushctl(arguments, env: env)
        let second = try CLI.pushctl(arguments, env: env)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)")
        let token = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("eyJ") && token == second.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path("jwt-cache"))
        let entry = try String(contentsOfFile: dir.path("jwt-cache/" + (files.first ?? "")), encoding: .utf8)
        #expect(files.count == 1 && !entry.contains("eyJ"))
        let sent = try mock.send(["--device-token", sampleToken, "--title", "x", "--verbose", "--show-secrets"], env: env)
        #expect(sent.status == 0)
        #expect(sent.stderr.contains("> authorization: bearer \(token)"), "send reuses the token jwt --cached made")
        #expect(try CLI.pushctl(arguments + ["--explain"], env: env).status == 64)
    }
}
