import Foundation
import PushCore
import Testing

/// Keys that never sit in a file (issue 38): a PKCS#11 token (SoftHSM2), an external signer, the
/// key's PEM from a CI secret; a damaged .p8 refused; secrets kept off the command line. Every run is
/// the built pushctl against `pushctl mock`, which checks each JWT's signature with the public half.
@Suite struct KeySourceTests {
    static let team = "DEF123GHIJ"
    static let token = String(repeating: "ab", count: 32)
    static let cacheKey = "0123456789abcdef0123456789abcdef"

    /// A fresh key and a mock that holds only its public half (`KEYID.pem`).
    static func keyAndMock(_ dir: TemporaryDirectory, id: String) throws -> (p8: String, pem: String, mock: MockProcess) {
        let p8 = try dir.generateKey(id: id)
        let pem = dir.path("\(id).pem")
        #expect(FileManager.default.fileExists(atPath: pem), "pushctl key generate writes the public half beside the key")
        return (p8, pem, try MockProcess(dir: dir, keyFile: "\(id)=\(pem)"))
    }

    /// `send` to the mock with `auth` for the key, and nothing of the mock's own key.
    static func send(_ mock: MockProcess, _ auth: [String], env: [String: String] = [:], in directory: URL? = nil) throws -> CommandResult {
        try CLI.pushctl(
            [
                "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--team-id", team, "--topic", "com.example.app",
                "--device-token", token, "--title", "Hi",
            ] + auth, env: env, in: directory)
    }

    // MARK: PKCS#11

    /// SoftHSM2's module, where Debian, Ubuntu and Homebrew put it.
    static var softHSMModule: String? {
        [
            "/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so", "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so",
            "/opt/homebrew/lib/softhsm/libsofthsm2.so", "/usr/local/lib/softhsm/libsofthsm2.so",
        ].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A SoftHSM2 token initialised in `dir` (its own config: SOFTHSM2_CONF) holding `p8` as object
    /// "apns", user PIN pin-7x4q; the environment that finds it.
    static func token(in dir: TemporaryDirectory, holding p8: String) throws -> [String: String]? {
        guard let module = softHSMModule,
            let util = ["/usr/bin/softhsm2-util", "/opt/homebrew/bin/softhsm2-util", "/usr/local/bin/softhsm2-util"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            Issue.record("SoftHSM2 is not installed: Scripts/install-deps.sh installs softhsm2 and libengine-pkcs11-openssl (macOS: softhsm and libp11)")
            return nil
        }
        try FileManager.default.createDirectory(atPath: dir.path("tokens"), withIntermediateDirectories: true)
        let conf = try dir.write("softhsm2.conf", "directories.tokendir = \(dir.path("tokens"))\nobjectstore.backend = file\nlog.level = ERROR\n")
        let env = ["SOFTHSM2_CONF": conf, "PUSHCTL_PKCS11_MODULE": module]
        let initialised = try CLI.run(util, ["--init-token", "--free", "--label", "pushctl", "--so-pin", "5678", "--pin", "pin-7x4q"], env: env)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let imported = try CLI.run(util, ["--import", p8, "--token", "pushctl", "--label", "apns", "--id", "01", "--pin", "pin-7x4q"], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        return env
    }

    @Test("a push signed inside a SoftHSM2 token (RFC 7512 URI) is accepted by a mock that verifies the JWT; doctor checks the token")
    func pkcs11Token() throws {
        let dir = try TemporaryDirectory()
        let (p8, _, mock) = try Self.keyAndMock(dir, id: "TOKEN12345")
        guard var env = try Self.token(in: dir, holding: p8) else { return }
        try FileManager.default.removeItem(atPath: p8)  // from now on the key is only in the token
        let uri = "pkcs11:token=pushctl;object=apns;type=private"
        env["PUSHCTL_KEY_FILE"] = uri + "?pin-value=pin-7x4q"
        let sent = try Self.send(mock, ["--key-id", "TOKEN12345", "--no-jwt-cache"], env: env)
        #expect(sent.status == 0, "\(sent.stderr)")
        if sent.status != 0 && sent.stderr.contains("cannot reach a PKCS#11 token") {
            Issue.record("libp11's pkcs11 engine is missing: Scripts/install-deps.sh installs libengine-pkcs11-openssl")
        }
        let requests = try mock.requests(count: 1)
        #expect(requests.count == 1 && requests.first?["status"] as? Int == 200, "\(requests)")
        #expect(!sent.stderr.contains("pin-7x4q"), "the PIN is never shown: \(sent.stderr)")

        // The module in the URI, the PIN on the command line: sent, and the PIN called out (not shown).
        let module = try #require(env["PUSHCTL_PKCS11_MODULE"])
        env.removeValue(forKey: "PUSHCTL_PKCS11_MODULE")
        env.removeValue(forKey: "PUSHCTL_KEY_FILE")
        let inURI = try Self.send(
            mock, ["--key-file", uri + "?module-path=\(module)&pin-value=pin-7x4q", "--key-id", "TOKEN12345", "--no-jwt-cache"], env: env)
        #expect(inURI.status == 0, "\(inURI.stderr)")
        #expect(
            inURI.stderr.contains("PIN is on the command line") && inURI.stderr.contains("PUSHCTL_KEY_FILE") && !inURI.stderr.contains("pin-7x4q"),
            "\(inURI.stderr)")

        // A wrong PIN, and no PIN with nobody to ask: refused, nothing sent.
        env["PUSHCTL_PKCS11_MODULE"] = module
        for (given, said) in [("?pin-value=0000", "the token refused the PIN given for pkcs11:"), ("", "no private key for pkcs11:")] {
            env["PUSHCTL_KEY_FILE"] = uri + given
            let refused = try Self.send(mock, ["--key-id", "TOKEN12345", "--no-jwt-cache"], env: env)
            #expect(refused.status == 66, "\(given): \(refused.stderr)")
            #expect(refused.stderr.contains(said) && refused.stderr.contains("pin-source=file:"), "\(refused.stderr)")
        }
        #expect(try mock.requests(count: 2).count == 2, "nothing more was sent")

        // doctor: found, logged in, a P-256 key, a test signature verified.
        env["PUSHCTL_KEY_FILE"] = uri + "?pin-value=pin-7x4q"
        let doctor = try CLI.pushctl(
            [
                "doctor", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-id", "TOKEN12345", "--team-id", Self.team,
                "--output", "json",
            ], env: env)
        let key = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any]).checks(named: "key")
        #expect(key?["status"] as? String == "pass", "\(doctor.stdout) \(doctor.stderr)")
        let found = key?["found"] as? String ?? ""
        for word in ["found (module \(module))", "logged in", "P-256", "a test signature verifies"] {
            #expect(found.contains(word), "\(word): \(found)")
        }
        #expect(!doctor.stdout.contains("pin-7x4q"))
    }

    @Test(
        "a PIN in the URI's path or query is the engine's PIN, never in OpenSSL's text: a wrong one is said in pushctl's words (66) without it, in English and Spanish; pin-source=file: works; a module that does not load is 69"
    )
    func pkcs11PINNeverShown() throws {
        let dir = try TemporaryDirectory()
        let (p8, _, mock) = try Self.keyAndMock(dir, id: "TOKEN12345")
        guard var env = try Self.token(in: dir, holding: p8) else { return }
        let base = "pkcs11:token=pushctl;object=apns;type=private"
        // The right PIN among the path's attributes: handed to the engine, and the push goes.
        env["PUSHCTL_KEY_FILE"] = base + ";pin-value=pin-7x4q"
        let sent = try Self.send(mock, ["--key-id", "TOKEN12345", "--no-jwt-cache"], env: env)
        #expect(sent.status == 0, "\(sent.stderr)")
        // A file holding the PIN (pin-source=file:, read by libp11).
        let pinFile = try dir.write("pin", "pin-7x4q", mode: 0o600)
        env["PUSHCTL_KEY_FILE"] = base + "?pin-source=file:\(pinFile)"
        let fromFile = try Self.send(mock, ["--key-id", "TOKEN12345", "--no-jwt-cache"], env: env)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try mock.requests(count: 2).count == 2)
        // Wrong PINs, in the path and in the query, in both languages and in doctor: never shown.
        for (form, pin) in [(";pin-value=", "WR0NGPATH1"), ("?pin-value=", "WR0NGQUERY2")] {
            env["PUSHCTL_KEY_FILE"] = base + form + pin
            for language in ["en", "es"] {
                let refused = try Self.send(mock, ["--key-id", "TOKEN12345", "--no-jwt-cache", "--lang", language], env: env)
                #expect(refused.status == 66, "\(refused.stderr)")
                #expect(refused.stderr.contains(language == "en" ? "refused the PIN" : "rechazó el PIN"), "\(refused.stderr)")
                for raw in [pin, "Login failed", "PKCS11_get_private_key", "The private key was not found"] {
                    #expect(!refused.stderr.contains(raw) && !refused.stdout.contains(raw), "\(raw): \(refused.stderr)")
                }
            }
        }
        #expect(try mock.requests(count: 2).count == 2, "nothing more was sent")
        for (form, pin) in [(";pin-value=", "WR0NGPATH1"), ("?pin-value=", "WR0NGQUERY2")] {
            env["PUSHCTL_KEY_FILE"] = base + form + pin
            for language in ["en", "es"] {
                for output in ["text", "json"] {
                    let doctor = try CLI.pushctl(
                        [
                            "doctor", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-id", "TOKEN12345", "--team-id", Self.team,
                            "--output", output, "--lang", language,
                        ], env: env)
                    #expect(!(doctor.stdout + doctor.stderr).contains(pin), "doctor --output \(output): \(doctor.stdout)\(doctor.stderr)")
                    #expect(!(doctor.stdout + doctor.stderr).contains("Login failed"), "\(doctor.stderr)")
                }
            }
        }
        // A module that does not load: said as such, 69 (not a PIN hint).
        env.removeValue(forKey: "PUSHCTL_PKCS11_MODULE")
        env["PUSHCTL_KEY_FILE"] = base + "?module-path=\(dir.path("no-such-module.so"))&pin-value=pin-7x4q"
        let noModule = try Self.send(mock, ["--key-id", "TOKEN12345", "--no-jwt-cache"], env: env)
        #expect(noModule.status == 69, "\(noModule.stderr)")
        #expect(noModule.stderr.contains("could not be loaded") && !noModule.stderr.contains("pin-7x4q"), "\(noModule.stderr)")
    }

    // MARK: an external signer

    /// A signer script: counts its runs, signs stdin with `openssl dgst -sign` (DER), optionally dumps its environment.
    static func signerScript(_ dir: TemporaryDirectory, key: String, dumpEnvironment: Bool = false) throws -> String {
        let dump = dumpEnvironment ? "env > '\(dir.path("signer-env"))'\n" : ""
        return try dir.write("sign.sh", "#!/bin/sh\necho run >> '\(dir.path("signer-runs"))'\n\(dump)exec openssl dgst -sha256 -sign '\(key)'\n", mode: 0o700)
    }

    func runs(_ dir: TemporaryDirectory) -> Int {
        (try? String(contentsOfFile: dir.path("signer-runs"), encoding: .utf8))?.split(separator: "\n").count ?? 0
    }

    @Test("--signer with openssl dgst -sign is accepted; the next run takes the sealed token and runs no signer; the cache holds no readable token")
    func openSSLSigner() throws {
        let dir = try TemporaryDirectory()
        let (p8, pem, mock) = try Self.keyAndMock(dir, id: "SIGNER1234")
        let script = try Self.signerScript(dir, key: p8)
        let cache = dir.path("cache")
        let env = ["PUSHCTL_CACHE_DIR": cache, "PUSHCTL_CACHE_KEY": Self.cacheKey]
        let auth = ["--signer", script, "--key-id", "SIGNER1234", "--public-key", pem]
        let first = try Self.send(mock, auth, env: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(runs(dir) == 1)
        let second = try Self.send(mock, auth, env: env)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(runs(dir) == 1, "the second run within the token's life did not run the signer")
        let requests = try mock.requests(count: 2)
        #expect(requests.map { $0["status"] as? Int } == [200, 200])
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(entries.count == 1, "\(entries)")
        for entry in entries {
            let text = try String(contentsOfFile: cache + "/" + entry, encoding: .utf8)
            #expect(text.hasPrefix("pushctl-jwt-cache sealed v1\n") && !text.contains("eyJ"), "no readable JWT: \(text)")
        }

        // A fork's pull request: the same cache, another (or no) cache key: nothing usable, signed anew.
        let fork = try Self.send(mock, auth, env: ["PUSHCTL_CACHE_DIR": cache, "PUSHCTL_CACHE_KEY": String(Self.cacheKey.reversed())])
        #expect(fork.status == 0 && fork.stderr.contains("does not open"), "\(fork.stderr)")
        #expect(runs(dir) == 2)
        let none = try Self.send(mock, auth, env: ["PUSHCTL_CACHE_DIR": cache])
        #expect(none.status == 0 && none.stderr.contains("PUSHCTL_CACHE_KEY"), "no cache key: said once: \(none.stderr)")
        #expect(runs(dir) == 3)

        // Without a public key the signature goes unchecked, and that is said; PUSHCTL_SIGNER works as the flag does.
        let unchecked = try Self.send(mock, ["--key-id", "SIGNER1234", "--no-jwt-cache"], env: ["PUSHCTL_SIGNER": script])
        #expect(unchecked.status == 0 && unchecked.stderr.contains("not checked here"), "\(unchecked.stderr)")
        #expect(try mock.requests(count: 5).count == 5)
    }

    @Test("a signer that fails, cannot start, prints garbage or another key's signature is refused with what it said, nothing sent")
    func failingSigners() throws {
        let dir = try TemporaryDirectory()
        let (_, pem, mock) = try Self.keyAndMock(dir, id: "SIGNER1234")
        let otherDir = try TemporaryDirectory()
        let other = try otherDir.generateKey(id: "OTHER12345")
        let cases: [(signer: String, status: Int32, says: [String])] = [
            ("/bin/false", 65, ["the signer failed (exit status 1)"]),
            ("printf 'no key \\033[31mhere\\n' >&2; exit 3", 65, ["exit status 3", "it said: no key \\u{1B}[31mhere"]),
            ("echo garbage", 65, ["8 bytes that are not an ES256 signature"]),
            ("true", 65, ["printed nothing"]),
            ("head -c 100000 /dev/zero", 65, ["65536+ bytes"]),
            ("openssl dgst -sha256 -sign '\(other)'", 65, ["does not verify with the public key"]),
            ("/nonexistent/signer", 66, ["could not be run", "127"]),
        ]
        for item in cases {
            let result = try Self.send(mock, ["--signer", item.signer, "--key-id", "SIGNER1234", "--public-key", pem, "--no-jwt-cache"])
            #expect(result.status == item.status, "\(item.signer): \(result.stderr)")
            for words in item.says { #expect(result.stderr.contains(words), "\(item.signer): \(words): \(result.stderr)") }
            #expect(!result.stderr.contains("\u{1B}"), "control characters are never printed")
        }
        #expect(try mock.requests().isEmpty, "nothing was sent")
    }

    @Test("a signer that hangs is stopped at its time limit (30 s): 75, nothing sent")
    func hangingSigner() throws {
        let dir = try TemporaryDirectory()
        let (_, _, mock) = try Self.keyAndMock(dir, id: "SIGNER1234")
        let started = Date()
        // Not `exec`: the shell's own child is stopped with it (a process group of its own).
        let marker = "\(Int.random(in: 100_000...999_999))"
        let result = try Self.send(mock, ["--signer", "sleep 300.\(marker); echo never", "--key-id", "SIGNER1234", "--no-jwt-cache"])
        #expect(result.status == 75 && result.stderr.contains("did not answer within 30 s"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(try mock.requests().isEmpty)
        let left = try CLI.run("/usr/bin/env", ["pgrep", "-f", "sleep 300.\(marker)"])
        #expect(left.stdout.isEmpty, "the signer's own children were stopped too: \(left.stdout)")
    }

    // MARK: the key from a CI secret

    @Test("PUSHCTL_KEY alone sends; it is not passed on to a child; a flag wins over it; with PUSHCTL_KEY_FILE it is a usage error")
    func keyFromSecret() throws {
        let dir = try TemporaryDirectory()
        let (p8, pem, mock) = try Self.keyAndMock(dir, id: "SECRET1234")
        let secret = try String(contentsOfFile: p8, encoding: .utf8)
        let sent = try Self.send(mock, ["--key-id", "SECRET1234"], env: ["PUSHCTL_KEY": secret], in: dir.url)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(!sent.stderr.contains("PRIVATE KEY") && !sent.stdout.contains("PRIVATE KEY"))
        // One line with \n for its newlines, as some CI secret stores keep it.
        let escaped = try Self.send(mock, ["--key-id", "SECRET1234"], env: ["PUSHCTL_KEY": secret.replacingOccurrences(of: "\n", with: "\\n")])
        #expect(escaped.status == 0, "\(escaped.stderr)")
        // --signer (a flag) wins over PUSHCTL_KEY, and the signer's environment lacks it.
        let script = try Self.signerScript(dir, key: p8, dumpEnvironment: true)
        let signed = try Self.send(
            mock, ["--signer", script, "--key-id", "SECRET1234", "--public-key", pem, "--no-jwt-cache"],
            env: ["PUSHCTL_KEY": secret, "PUSHCTL_CACHE_KEY": Self.cacheKey, "AWS_PROFILE": "signing", "DEPLOY_PASSWORD": "deploy-7q3x"])
        #expect(signed.status == 0, "\(signed.stderr)")
        let childEnvironment = try String(contentsOfFile: dir.path("signer-env"), encoding: .utf8)
        #expect(!childEnvironment.contains("PUSHCTL_KEY=") && !childEnvironment.contains("PRIVATE KEY") && !childEnvironment.contains("PUSHCTL_CACHE_KEY"))
        // An allow list: a cloud client's settings pass, another step's secret does not.
        #expect(childEnvironment.contains("AWS_PROFILE=signing\n") && childEnvironment.contains("PATH="), "\(childEnvironment)")
        #expect(!childEnvironment.contains("deploy-7q3x"), "\(childEnvironment)")
        let both = try Self.send(mock, ["--key-id", "SECRET1234"], env: ["PUSHCTL_KEY": secret, "PUSHCTL_KEY_FILE": p8])
        #expect(both.status == 64 && both.stderr.contains("PUSHCTL_KEY_FILE and PUSHCTL_KEY"), "\(both.stderr)")
        #expect(try mock.requests(count: 3).count == 3)
        let broken = try Self.send(mock, ["--key-id", "SECRET1234"], env: ["PUSHCTL_KEY": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])
        #expect(broken.status == 65 && broken.stderr.contains("PUSHCTL_KEY:"), "\(broken.stderr)")
    }

    // MARK: a damaged key

    /// `p8` with its private scalar changed by `change` (the DER's `04 20` octet string).
    static func damaged(_ p8: String, _ change: (inout [UInt8]) -> Void) throws -> String {
        let text = try String(contentsOfFile: p8, encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        var der = try #require(Data(base64Encoded: body).map { [UInt8]($0) })
        let at = try #require((0..<(der.count - 1)).first { der[$0] == 0x04 && der[$0 + 1] == 0x20 }) + 2
        var scalar = Array(der[at..<(at + 32)])
        change(&scalar)
        der.replaceSubrange(at..<(at + 32), with: scalar)
        return "-----BEGIN PRIVATE KEY-----\n" + Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            + "\n-----END PRIVATE KEY-----\n"
    }

    @Test("a .p8 with one private bit flipped, a scalar of 0 or of n: refused with 65 and what is wrong, nothing sent")
    func damagedKeys() throws {
        let dir = try TemporaryDirectory()
        let (p8, _, mock) = try Self.keyAndMock(dir, id: "DAMAGE1234")
        let order: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]
        let cases: [(name: String, change: (inout [UInt8]) -> Void, says: String)] = [
            ("flipped", { $0[31] ^= 0x01 }, "public half does not match its private half"),
            ("zero", { $0 = [UInt8](repeating: 0, count: 32) }, "private scalar is out of range"),
            ("order", { $0 = order }, "private scalar is out of range"),
        ]
        for item in cases {
            let path = try dir.write("damaged-\(item.name).p8", try Self.damaged(p8, item.change))
            let result = try Self.send(mock, ["--key-file", path, "--key-id", "DAMAGE1234", "--no-jwt-cache"])
            #expect(result.status == 65, "\(item.name): \(result.stderr)")
            #expect(result.stderr.contains(item.says) && result.stderr.contains("damaged"), "\(item.name): \(result.stderr)")
            let viaJWT = try CLI.pushctl(["jwt", "--key-file", path, "--key-id", "DAMAGE1234", "--team-id", Self.team])
            #expect(viaJWT.status == 65 && viaJWT.stdout.isEmpty, "\(item.name): jwt \(viaJWT.stderr)")
        }
        #expect(try mock.requests().isEmpty)
    }

    // MARK: secrets off the command line

    @Test("--proxy with a password prints a warning naming PUSHCTL_PROXY and never the password")
    func proxyPasswordCalledOut() throws {
        let result = try CLI.pushctl([
            "send", "--proxy", "http://user:s3cretpw@127.0.0.1:9", "--jwt", "x", "--topic", "com.example.app",
            "--device-token", Self.token, "--title", "Hi", "--dry-run",
        ])
        #expect(result.stderr.contains("PUSHCTL_PROXY") && result.stderr.contains("http://user:***@127.0.0.1:9"), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cretpw") && !result.stdout.contains("s3cretpw"), "\(result.stdout) \(result.stderr)")
        let fromVariable = try CLI.pushctl(
            ["doctor", "--endpoint", "https://127.0.0.1:9", "--timeout", "2", "--output", "json"],
            env: ["PUSHCTL_PROXY": "http://user:s3cretpw@127.0.0.1:9"])
        #expect(!fromVariable.stderr.contains("PUSHCTL_PROXY") || !fromVariable.stderr.contains("command line"), "a variable is not called out")
        #expect(
            !fromVariable.stdout.contains("s3cretpw") && fromVariable.stdout.contains("user:***"),
            "doctor shows proxies without their passwords: \(fromVariable.stdout)")
    }
}

extension [String: Any] {
    /// A doctor report's check by name.
    fileprivate func checks(named name: String) -> [String: Any]? {
        (self["checks"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }
}
