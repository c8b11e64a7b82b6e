import Foundation
import Testing

/// Certificate-based authentication end to end: certificates made at test time (by
/// `pushctl cert generate` and by the openssl command line), sent over real mutual TLS to
/// `pushctl mock --client-ca`, with what reached the mock checked in its log.
@Suite(.serialized)
struct CertificateTests {
    /// A directory with a test CA and a certificate for com.example.app (+ .voip), both environments.
    final class Certificates {
        let dir: TemporaryDirectory
        let bundle: String
        var ca: String { dir.path("pushctl-test-ca.pem") }
        var p12: String { dir.path(bundle + ".p12") }
        var passwordFile: String { dir.path(bundle + ".password") }
        var pem: String { dir.path(bundle + ".pem") }
        var key: String { dir.path(bundle + ".key.pem") }

        init(_ extra: [String] = [], topics: [String] = ["com.example.app", "com.example.app.voip"]) throws {
            dir = try TemporaryDirectory()
            bundle = topics[0]
            let result = try CLI.pushctl(["cert", "generate", "--out", dir.url.path] + topics.flatMap { ["--topic", $0] } + extra)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("NOT Apple's"))
        }
    }

    static func send(_ mock: MockProcess, _ arguments: [String], env: [String: String] = [:]) throws -> CommandResult {
        try CLI.pushctl(["send", "--endpoint", mock.url, "--cacert", mock.caFile, "--device-token", sampleToken] + arguments, env: env)
    }

    /// Requests in the mock's log that came over a client certificate and without a JWT.
    static func certificateRequests(_ mock: MockProcess, count: Int) throws -> [[String: Any]] {
        let requests = try mock.requests(count: count)
        for request in requests {
            let headers = request["headers"] as? [String: Any] ?? [:]
            #expect(headers["authorization"] == nil, "a certificate run sent an authorization header")
            #expect(
                (headers["tls-client-certificate"] as? String ?? "").contains("UID=com.example.app")
                    || (headers["tls-client-certificate"] as? String ?? "").contains("com.example.app"))
        }
        return requests
    }

    @Test func inspectShowsWhatTheCertificateCovers() throws {
        let certs = try Certificates()
        let text = try CLI.pushctl(["cert", "inspect", certs.p12, "--cert-password-file", certs.passwordFile])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("bundle id     com.example.app"))
        #expect(text.stdout.contains("com.example.app.voip (voip)"))
        #expect(text.stdout.contains("development and production"))
        #expect(text.stdout.contains("(certificate and private key)"))
        #expect(text.stdout.contains("days left"))

        let json = try CLI.pushctl(["cert", "inspect", certs.pem, "--output", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["bundleId"] as? String == "com.example.app")
        #expect((object["environments"] as? [String]) == ["development", "production"])
        #expect((object["topics"] as? [[String: Any]])?.map { $0["topic"] as? String } == ["com.example.app", "com.example.app.voip"])
        #expect(object["privateKey"] as? Bool == false)
        #expect((364...365).contains(object["daysLeft"] as? Int ?? 0))

        // CI's early warning: exit 1 within the window, 0 outside it.
        let soon = try CLI.pushctl(["cert", "inspect", certs.pem, "--expires-within", "400"])
        #expect(soon.status == 1)
        #expect(soon.stderr.contains("expires within 400 days"))
        #expect(try CLI.pushctl(["cert", "inspect", certs.pem, "--expires-within", "30"]).status == 0)
    }

    @Test func passwordsAreAskedForAndChecked() throws {
        let certs = try Certificates()
        // No terminal and no password: a usage error that says how to give one.
        let none = try CLI.pushctl(["cert", "inspect", certs.p12])
        #expect(none.status == 64)
        #expect(none.stderr.contains("; give it with --cert-password-file or PUSHCTL_CERT_PASSWORD"), "\(none.stderr)")
        // The reader (PushCrypto) says what is wrong; the command line names its own flags, in Spanish too.
        let spanish = try CLI.pushctl(["cert", "inspect", certs.p12, "--lang", "es"])
        #expect(spanish.stderr.contains("; dala con --cert-password-file o PUSHCTL_CERT_PASSWORD"), "\(spanish.stderr)")
        let wrongFile = try certs.dir.write("wrong", "not-it\n")
        let wrong = try CLI.pushctl(["cert", "inspect", certs.p12, "--cert-password-file", wrongFile])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("password does not open"))
        #expect(wrong.stderr.contains("; check --cert-password-file or PUSHCTL_CERT_PASSWORD"), "\(wrong.stderr)")
        // The environment variable works too, and the password never shows.
        let password = try String(contentsOfFile: certs.passwordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let byEnv = try CLI.pushctl(["cert", "inspect", certs.p12], env: ["PUSHCTL_CERT_PASSWORD": password])
        #expect(byEnv.status == 0)
        #expect(!byEnv.stdout.contains(password) && !byEnv.stderr.contains(password))
    }

    @Test func thePasswordIsAskedOnATerminalWithoutEcho() throws {
        // Python's pty.fork gives pushctl a controlling terminal (on Linux and macOS alike); the
        // password is typed once the prompt has appeared, as a person would.
        let certs = try Certificates()
        let password = try String(contentsOfFile: certs.passwordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let driver = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:5])
            seen, typed = b"", False
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
                if not typed and b"Password for" in seen:
                    os.write(fd, open(sys.argv[5], "rb").read())
                    typed = True
            os.waitpid(pid, 0)
            sys.stdout.write(seen.decode("utf-8", "replace"))
            """
        let result = try CLI.run("/usr/bin/env", ["python3", "-c", driver, CLI.pushctlPath, "cert", "inspect", certs.p12, certs.passwordFile])
        #expect(result.stdout.contains("Password for"), "\(result.stdout)")
        #expect(result.stdout.contains("bundle id     com.example.app"), "\(result.stdout)")
        #expect(!result.stdout.contains(password), "the password was echoed")
    }

    @Test func sendsOverEveryKindOfCertificateFile() throws {
        let certs = try Certificates()
        let dir = certs.dir
        // .p12 files as the openssl command line writes them: modern (AES, SHA-256 MAC), legacy
        // (RC2-40/3DES, SHA-1 MAC: OpenSSL 3's legacy provider), with an empty password, and BER.
        try dir.openssl(["pkcs12", "-export", "-in", certs.pem, "-inkey", certs.key, "-out", "modern.p12", "-passout", "pass:s3cret"])
        try dir.openssl(["pkcs12", "-export", "-legacy", "-in", certs.pem, "-inkey", certs.key, "-out", "legacy.p12", "-passout", "pass:s3cret"])
        try dir.openssl(["pkcs12", "-export", "-in", certs.pem, "-inkey", certs.key, "-out", "empty.p12", "-passout", "pass:"])
        // BER: the outer SEQUENCE re-encoded with an indefinite length, as some exporters write it.
        let der = [UInt8](try Data(contentsOf: dir.url.appendingPathComponent("empty.p12")))
        let lengthBytes = der[1] & 0x80 != 0 ? Int(der[1] & 0x7F) : 0
        let contentLength = lengthBytes == 0 ? Int(der[1]) : der[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
        let content = der[(2 + lengthBytes)..<(2 + lengthBytes + contentLength)]
        try Data([0x30, 0x80] + content + [0x00, 0x00]).write(to: dir.url.appendingPathComponent("ber.p12"))
        let secret = try dir.write("secret.txt", "s3cret\n")
        let combined = try dir.write("both.pem", try String(contentsOfFile: certs.pem, encoding: .utf8) + String(contentsOfFile: certs.key, encoding: .utf8))

        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", certs.ca])
        let ways: [[String]] = [
            ["--cert", certs.p12, "--cert-password-file", certs.passwordFile],
            ["--cert", dir.path("modern.p12"), "--cert-password-file", secret],
            ["--cert", dir.path("legacy.p12"), "--cert-password-file", secret],
            ["--cert", dir.path("empty.p12")],
            ["--cert", dir.path("ber.p12")],
            ["--cert", certs.pem, "--cert-key", certs.key],
            ["--cert", combined],
        ]
        for way in ways {
            let result = try Self.send(mock, way + ["--title", "Hi"])
            #expect(result.status == 0, "\(way): \(result.stderr)")
            #expect(result.stdout.contains("200"))
        }
        // PUSHCTL_CERT and PUSHCTL_CERT_PASSWORD instead of flags.
        let byEnv = try Self.send(mock, ["--title", "Hi"], env: ["PUSHCTL_CERT": dir.path("modern.p12"), "PUSHCTL_CERT_PASSWORD": "s3cret"])
        #expect(byEnv.status == 0, "\(byEnv.stderr)")
        let requests = try Self.certificateRequests(mock, count: ways.count + 1)
        #expect(requests.count == ways.count + 1)
        #expect(requests.allSatisfy { ($0["headers"] as? [String: Any])?["apns-topic"] as? String == "com.example.app" })
    }

    @Test func badCertificateFilesStopBeforeSending() throws {
        let certs = try Certificates()
        let dir = certs.dir
        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", certs.ca])
        try dir.openssl(["genrsa", "-out", "other.key", "2048"])
        try dir.openssl(["pkcs12", "-export", "-nokeys", "-in", certs.pem, "-out", "nokey.p12", "-passout", "pass:x"])
        let x = try dir.write("x.txt", "x")
        let wrong = try dir.write("wrong.txt", "nope")
        try Data((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: dir.url.appendingPathComponent("junk.p12"))
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["--cert", certs.p12, "--cert-password-file", wrong], 65, "password does not open"),
            (["--cert", certs.pem, "--cert-key", dir.path("other.key")], 65, "does not belong to the certificate"),
            (["--cert", certs.pem], 65, "no private key"),
            (["--cert", dir.path("nokey.p12"), "--cert-password-file", x], 65, "not its private key"),
            (["--cert", dir.path("junk.p12")], 65, "neither a .p12"),
            (["--cert", dir.path("missing.p12")], 66, "missing.p12"),
            (["--cert", certs.p12, "--key-file", mock.keyFile], 64, "give one way"),
            (["--cert-key", certs.key], 64, "go with --cert"),
        ]
        for (arguments, status, message) in cases {
            let result = try Self.send(mock, arguments + ["--title", "Hi"])
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("PRIVATE KEY"))
        }
        #expect(try mock.requests().isEmpty, "nothing may reach the server")
    }

    @Test func validityIsCheckedBeforeConnecting() throws {
        let expired = try Certificates(["--valid-from-days", "-10", "--days", "5"])
        let future = try Certificates(["--valid-from-days", "3"])
        let soon = try Certificates(["--days", "10"])
        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", expired.ca, "--client-ca", future.ca, "--client-ca", soon.ca])

        let gone = try Self.send(mock, ["--cert", expired.p12, "--cert-password-file", expired.passwordFile, "--title", "Hi"])
        #expect(gone.status == 65)
        #expect(gone.stderr.contains("expired on"))
        let early = try Self.send(mock, ["--cert", future.p12, "--cert-password-file", future.passwordFile, "--title", "Hi"])
        #expect(early.status == 65)
        #expect(early.stderr.contains("not valid until"))
        #expect(try mock.requests().isEmpty)

        let warned = try Self.send(mock, ["--cert", soon.p12, "--cert-password-file", soon.passwordFile, "--title", "Hi"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("expires on") && (warned.stderr.contains("in 9 days") || warned.stderr.contains("in 10 days")), "\(warned.stderr)")
    }

    @Test func topicsComeFromTheCertificate() throws {
        let certs = try Certificates()
        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", certs.ca])
        let auth = ["--cert", certs.p12, "--cert-password-file", certs.passwordFile]

        // The voip topic is listed: the UID plus the suffix goes out.
        let voip = try Self.send(mock, auth + ["--push-type", "voip", "--payload-json", #"{"aps":{}}"#])
        #expect(voip.status == 0, "\(voip.stderr)")
        let sent = try mock.requests(count: 1)
        #expect((sent.last?["headers"] as? [String: Any])?["apns-topic"] as? String == "com.example.app.voip")

        // Not listed: refused before sending, with the list.
        let complication = try Self.send(mock, auth + ["--push-type", "complication", "--payload-json", #"{"aps":{}}"#])
        #expect(complication.status == 65)
        #expect(complication.stderr.contains("does not cover the topic 'com.example.app.complication'"))
        #expect(complication.stderr.contains("com.example.app.voip"))
        let other = try Self.send(mock, auth + ["--topic", "com.other.app", "--title", "x"])
        #expect(other.status == 65)
        // Live Activities need a key.
        let live = try Self.send(
            mock, auth + ["--push-type", "liveactivity", "--payload-json", #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#])
        #expect(live.status == 65)
        #expect(live.stderr.contains("needs token authentication"))
        #expect(try mock.requests().count == 1)

        // Two apps' topics and no --topic: a usage error listing them.
        let two = try Certificates(topics: ["com.a.app", "com.b.app"])
        let ambiguous = try Self.send(mock, ["--cert", two.p12, "--cert-password-file", two.passwordFile, "--title", "x"])
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("com.a.app, com.b.app"))
    }

    @Test func theEnvironmentMustMatch() throws {
        let development = try Certificates(["--environment", "development"])
        // Against Apple's production host: refused here, so nothing is even resolved.
        let refused = try CLI.pushctl([
            "send", "--production", "--cert", development.p12, "--cert-password-file", development.passwordFile,
            "--device-token", sampleToken, "--title", "Hi",
        ])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("development only") && refused.stderr.contains("--sandbox"))

        // A mock that plays production answers as APNs: no answer, a GOAWAY whose debug data is
        // {"reason":"BadCertificateEnvironment"}. libcurl drops that data; pushctl reads it.
        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", development.ca, "--environment", "production"])
        let result = try Self.send(
            mock,
            [
                "--cert", development.p12, "--cert-password-file", development.passwordFile,
                "--device-token", otherToken, "--title", "Hi", "--output", "jsonl",
            ])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let perToken = lines.filter { $0["token"] != nil }
        #expect(perToken.count == 2)
        #expect(perToken.allSatisfy { $0["reason"] as? String == "BadCertificateEnvironment" })
        #expect(result.stdout.contains("other environment"))
        let seen = try mock.requests(count: 1)
        #expect(seen.allSatisfy { ($0["fault"] as? String ?? "").contains("GOAWAY BadCertificateEnvironment") })
    }

    @Test func aGoAwayReasonReachesTokenRunsToo() throws {
        // No answer at all, only GOAWAY {"reason":"Forbidden"}: libcurl reports a lost stream;
        // pushctl reads the reason and gives it to every token, without blind retries.
        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--goaway-instead", "Forbidden"])
        let tokens = (0..<3).map { String(format: "%064x", $0 + 1) }
        let result = try mock.send(tokens.flatMap { ["--device-token", $0] } + ["--title", "Hi", "--output", "jsonl", "--timeout", "5"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let perToken = lines.filter { $0["token"] != nil }
        #expect(Set(perToken.compactMap { $0["token"] as? String }) == Set(tokens))
        #expect(perToken.allSatisfy { $0["reason"] as? String == "Forbidden" && $0["status"] as? Int == 403 })
        #expect(try mock.requests().count < 20, "no retry storm")
    }

    @Test func detectEnvironmentTriesTheOtherHostOnce() throws {
        // Two mocks play Apple's two hosts: --connect-to sends api.*.push.apple.com:443 to them,
        // and their certificates carry those names (--san), so TLS is verified as against Apple.
        let dev = String(repeating: "d1", count: 32)
        let prod = String(repeating: "e2", count: 32)
        let neither = String(repeating: "f3", count: 32)
        let sandbox = try MockProcess(
            dir: TemporaryDirectory(),
            extra: [
                "--san", "api.sandbox.push.apple.com",
                "--fail", "\(prod)=BadDeviceToken", "--fail", "\(neither)=BadDeviceToken",
            ])
        let production = try MockProcess(
            dir: TemporaryDirectory(),
            extra: [
                "--san", "api.push.apple.com", "--environment", "production",
                "--fail", "\(dev)=BadDeviceToken", "--fail", "\(neither)=BadDeviceToken",
            ],
            keyFile: sandbox.keyFile)
        let bundle = try sandbox.dir.write(
            "both-cas.pem",
            try String(contentsOfFile: sandbox.caFile, encoding: .utf8)
                + String(contentsOfFile: production.caFile, encoding: .utf8))
        func port(_ mock: MockProcess) -> String { String(mock.url.split(separator: ":").last!) }
        let result = try CLI.pushctl([
            "send", "--sandbox", "--cacert", bundle, "--key-file", sandbox.keyFile, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--title", "Hi", "--output", "jsonl", "--detect-environment",
            "--connect-to", "api.sandbox.push.apple.com:443:127.0.0.1:\(port(sandbox))",
            "--connect-to", "api.push.apple.com:443:127.0.0.1:\(port(production))",
            "--device-token", dev, "--device-token", prod, "--device-token", neither,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let byToken = Dictionary(
            uniqueKeysWithValues: result.stdoutLines
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .compactMap { object in (object["token"] as? String).map { ($0, object) } })
        #expect(byToken.count == 3, "one result each: \(result.stdout)")
        #expect(byToken[dev]?["environment"] as? String == "sandbox" && byToken[dev]?["status"] as? Int == 200)
        #expect(byToken[prod]?["environment"] as? String == "production" && byToken[prod]?["status"] as? Int == 200)
        #expect(byToken[neither]?["reason"] as? String == "BadDeviceToken")
        #expect(byToken[neither]?["environment"] is NSNull)
        let explanation = byToken[neither]?["explanation"] as? String ?? ""
        #expect(explanation.contains("production answered BadDeviceToken too"))
        #expect(try sandbox.requests(count: 3).count == 3)
        #expect(try production.requests(count: 2).count == 2, "only the two refused tokens were tried again")

        let text = try CLI.pushctl([
            "send", "--sandbox", "--cacert", bundle, "--key-file", sandbox.keyFile, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--title", "Hi", "--detect-environment",
            "--connect-to", "api.sandbox.push.apple.com:443:127.0.0.1:\(port(sandbox))",
            "--connect-to", "api.push.apple.com:443:127.0.0.1:\(port(production))", "--device-token", prod,
        ])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("(production)"))
        #expect(text.stderr.contains("hint: 1 token belongs to production: send it with --production"))
    }

    @Test func theMockChecksCertificatesLikeAPNs() throws {
        // A client nobody here wrote: curl's command line, with the certificate as PEM.
        let certs = try Certificates()
        let mock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", certs.ca])
        func curl(_ headers: [String]) throws -> String {
            let result = try CLI.run(
                "/usr/bin/env",
                [
                    "curl", "-s", "--http2", "--cacert", mock.caFile, "--cert", certs.pem, "--key", certs.key,
                    "-H", "apns-push-type: alert", "--data-binary", #"{"aps":{"alert":"x"}}"#,
                    "-w", " %{http_code}",
                ] + headers.flatMap { ["-H", $0] } + [mock.url + "/3/device/" + sampleToken])
            return result.stdout
        }
        #expect(try curl(["apns-topic: com.other.app"]).contains(#"TopicDisallowed"#))
        #expect(try curl(["apns-topic: com.other.app"]).hasSuffix(" 400"))
        // Two topics (app and voip): APNs cannot choose one.
        #expect(try curl([]).contains("MissingTopic"))
        #expect(try curl(["apns-topic: com.example.app"]).hasSuffix(" 200"))

        let one = try Certificates(topics: ["com.solo.app"])
        let soloMock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", one.ca])
        let solo = try CLI.run(
            "/usr/bin/env",
            [
                "curl", "-s", "--http2", "--cacert", soloMock.caFile, "--cert", one.pem, "--key", one.key,
                "--data-binary", #"{"aps":{"alert":"x"}}"#, "-w", " %{http_code}", soloMock.url + "/3/device/" + sampleToken,
            ])
        #expect(solo.stdout.hasSuffix(" 200"), "one topic: APNs takes it without apns-topic")
        let log = try soloMock.requests(count: 1)
        #expect((log.first?["headers"] as? [String: Any])?["tls-client-certificate"] as? String ?? "" != "")

        // A client certificate the mock trusts but which is no push certificate: BadCertificate.
        let plain = try TemporaryDirectory()
        try plain.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=Other CA",
            "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
        ])
        try plain.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "c.key", "-out", "c.csr", "-subj", "/CN=not a push certificate"])
        try plain.openssl(["x509", "-req", "-in", "c.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "c.pem", "-days", "2"])
        let plainMock = try MockProcess(dir: TemporaryDirectory(), extra: ["--client-ca", plain.path("ca.pem")])
        let bad = try CLI.run(
            "/usr/bin/env",
            [
                "curl", "-s", "--http2", "--cacert", plainMock.caFile, "--cert", plain.path("c.pem"), "--key", plain.path("c.key"),
                "-H", "apns-topic: com.example.app", "--data-binary", #"{"aps":{"alert":"x"}}"#, "-w", " %{http_code}",
                plainMock.url + "/3/device/" + sampleToken,
            ])
        #expect(bad.stdout.contains("BadCertificate") && bad.stdout.hasSuffix(" 403"), "\(bad.stdout)")
        // A certificate from a CA the mock does not trust fails the TLS handshake.
        let untrusted = try CLI.run(
            "/usr/bin/env",
            [
                "curl", "-s", "--http2", "--cacert", mock.caFile, "--cert", plain.path("c.pem"), "--key", plain.path("c.key"),
                "-H", "apns-topic: com.example.app", "--data-binary", "{}", "-w", " %{http_code}", mock.url + "/3/device/" + sampleToken,
            ])
        #expect(untrusted.stdout.hasSuffix(" 000"), "\(untrusted.stdout)")
    }

    @Test func dryRunShowsTheCurlEquivalentWithoutSecrets() throws {
        let certs = try Certificates()
        let password = try String(contentsOfFile: certs.passwordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try CLI.pushctl([
            "send", "--cert", certs.p12, "--cert-password-file", certs.passwordFile, "--device-token", sampleToken,
            "--title", "Hi", "--dry-run",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no authorization header"))
        #expect(result.stdout.contains("--cert-type P12 --cert"))
        #expect(!result.stdout.contains("authorization: bearer"))
        #expect(!result.stdout.contains(password))
    }
}
