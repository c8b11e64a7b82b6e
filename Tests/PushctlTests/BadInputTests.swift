import Foundation
import Testing

/// Each bad input: its exit status, nothing on stdout, one line on stderr that says what was wrong.
@Suite struct BadInputTests {
    let dir = try! TemporaryDirectory()

    func jwt(keyFile: String) throws -> CommandResult {
        try CLI.pushctl(["jwt", "--key-file", keyFile, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"])
    }

    func expectRefused(_ result: CommandResult, _ status: Int32, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test("a missing key file or a directory: 66")
    func missing() throws {
        expectRefused(try jwt(keyFile: dir.path("AuthKey_ABC123DEFG.p8")), 66, "no such file")
        expectRefused(try jwt(keyFile: dir.url.path), 66, "is a directory")
    }

    @Test("an empty file, or a file that is not PEM: 65")
    func notPEM() throws {
        expectRefused(try jwt(keyFile: dir.write("empty.p8", "")), 65, "the key file is empty")
        expectRefused(try jwt(keyFile: dir.write("text.p8", "my key\n")), 65, "not a PEM key")
    }

    @Test("an encrypted PKCS#8 key: 65, and no password prompt")
    func encrypted() throws {
        try dir.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "plain.p8"])
        try dir.openssl(["pkcs8", "-topk8", "-in", "plain.p8", "-passout", "pass:secret", "-out", "enc.p8"])
        expectRefused(try jwt(keyFile: dir.path("enc.p8")), 65, "encrypted")
    }

    @Test("an RSA key: 65, APNs keys are P-256")
    func rsa() throws {
        try dir.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa.p8"])
        expectRefused(try jwt(keyFile: dir.path("rsa.p8")), 65, "APNs keys are P-256 (prime256v1) EC keys; this file holds an RSA key")
    }

    @Test("an EC key on P-384: 65")
    func p384() throws {
        try dir.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "p384.p8"])
        expectRefused(try jwt(keyFile: dir.path("p384.p8")), 65, "this file holds an EC key on P-384 (secp384r1)")
    }

    @Test("a public key where the private key is needed: 65")
    func publicKey() throws {
        let key = try dir.generateKey()
        try dir.openssl(["pkey", "-in", key, "-pubout", "-out", "pub.pem"])
        expectRefused(try jwt(keyFile: dir.path("pub.pem")), 65, "this file holds a public key; signing needs the private key")
    }

    @Test("a key readable by group or others works, with a warning")
    func sharedKey() throws {
        let key = try dir.generateKey()
        chmod(key, 0o644)
        let result = try jwt(keyFile: key)
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 1)
        #expect(result.stderr.contains("warning: \(key) is readable by group or others (mode 0644)"))
    }

    @Test("a malformed key id or team id: 65 with an example of the right shape")
    func identifiers() throws {
        let key = try dir.generateKey()
        let badTeam = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "team-1"])
        expectRefused(badTeam, 65, "team id must be 10 characters, A–Z and 0–9 (for example DEF123GHIJ); got 'team-1'")
        let badKey = try CLI.pushctl(["jwt", "--key-file", key, "--key-id", "abc", "--team-id", "DEF123GHIJ"])
        expectRefused(badKey, 65, "key id must be 10 characters")
    }

    @Test("missing team id, or a key file whose name carries no key id: usage error 64")
    func usage() throws {
        let key = try dir.generateKey()
        expectRefused(try CLI.pushctl(["jwt", "--key-file", key]), 64, "missing --team-id")
        let renamed = dir.path("mykey.p8")
        try FileManager.default.copyItem(atPath: key, toPath: renamed)
        expectRefused(try CLI.pushctl(["jwt", "--key-file", renamed, "--team-id", "DEF123GHIJ"]), 64, "missing --key-id")
        let badFlag = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--output", "xml"])
        #expect(badFlag.status == 64)
        // No provider token at all: the same words for send and for a channel command (which is not `send`).
        for command in [["send", "--device-token", String(repeating: "ab", count: 32), "--title", "x"], ["channel", "create"]] {
            expectRefused(
                try CLI.pushctl(command + ["--topic", "com.example.app"]), 64,
                "missing a provider token: give --key-file with --team-id (and --key-id unless the file is AuthKey_<KEYID>.p8), or --jwt")
        }
    }

    @Test(
        "malformed JWTs given to decode and verify: 65, naming the part",
        arguments: [
            ("abc", "three parts"),
            ("e30.!!!.AAAA", "claims (part 2) is not valid base64url"),
            ("bm9wZQ.e30.AAAA", "header (part 1) is not valid JSON"),
            ("e30.e30.", "signature (part 3) is empty"),
        ])
    func malformedJWT(_ token: String, _ message: String) throws {
        expectRefused(try CLI.pushctl(["jwt", "decode", token]), 65, message)
        let key = try dir.generateKey()
        expectRefused(try CLI.pushctl(["jwt", "verify", token, "--key-file", key]), 65, message)
    }
}

@Suite struct KeyGenerateTests {
    let dir = try! TemporaryDirectory()

    @Test("writes AuthKey_<ID>.p8: unencrypted PKCS#8, mode 0600, says it is not an Apple key")
    func generate() throws {
        let result = try CLI.pushctl(["key", "generate", "--key-id", "TEST123456"], in: dir.url)
        #expect(result.status == 0)
        #expect(result.stdout == "AuthKey_TEST123456.p8\n")
        #expect(result.stderr.contains("NOT an Apple key"))
        #expect(result.stderr.contains("mode 0600, and its public half TEST123456.pem. This is NOT"), "\(result.stderr)")
        let path = dir.path("AuthKey_TEST123456.p8")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let pem = try String(contentsOfFile: path, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        // openssl agrees it is a P-256 key.
        let text = try dir.openssl(["pkey", "-in", path, "-noout", "-text"])
        #expect(text.stdout.contains("prime256v1"))
    }

    @Test("a random 10-character key id when none is given; never overwrites")
    func randomAndNoOverwrite() throws {
        let result = try CLI.pushctl(["key", "generate", "--out", dir.url.path])
        #expect(result.status == 0)
        let name = URL(fileURLWithPath: result.stdout.trimmingCharacters(in: .newlines)).lastPathComponent
        #expect(name.range(of: "^AuthKey_[A-Z0-9]{10}\\.p8$", options: .regularExpression) != nil)
        let again = try CLI.pushctl(["key", "generate", "--out", dir.path(name)])
        #expect(again.status == 73)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("already exists"))
    }
}
