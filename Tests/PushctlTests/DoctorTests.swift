import Foundation
import Testing

/// `pushctl doctor` end to end. Every run passes --endpoint: the tests never leave loopback.
@Suite struct DoctorTests {
    let dir = try! TemporaryDirectory()

    func doctor(_ mock: MockProcess, _ arguments: [String], env: [String: String] = [:]) throws -> CommandResult {
        try CLI.pushctl(["doctor", "--endpoint", mock.url, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ"] + arguments, env: env)
    }

    @Test("against the mock every check passes (a test push included) and the exit status is 0; json has one object per check")
    func allPass() throws {
        let mock = try MockProcess(dir: dir)
        let text = try doctor(mock, ["--cacert", mock.caFile, "--topic", "com.example.app", "--device-token", sampleToken])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        let host = String(mock.url.dropFirst("https://".count))
        for line in ["✓ libcurl", "✓ key", "✓ clock", "✓ \(host)", "✓ test push"] {
            #expect(text.stdout.contains(line), "\(line): \(text.stdout)")
        }
        #expect(text.stdout.contains("certificate verified") && text.stdout.contains("HTTP/2"), "\(text.stdout)")
        #expect(text.stdout.contains("accepted by \(mock.url)"), "\(text.stdout)")
        #expect(!text.stdout.contains("✗"))
        #expect(try mock.requests(count: 2).contains { ($0["status"] as? Int) == 200 }, "the test push reached the mock")

        let json = try doctor(mock, ["--cacert", mock.caFile, "--output", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["exitStatus"] as? Int == 0)
        #expect(document["failed"] as? Int == 0)
        let checks = try #require(document["checks"] as? [[String: Any]])
        // On a Mac, doctor also says whether Xcode's simctl is there (a last row, never a failure).
        #if os(macOS)
            let onThisSystem = ["simulator"]
        #else
            let onThisSystem: [String] = []
        #endif
        #expect(checks.map { $0["name"] as? String } == ["libcurl", "key", "certificate", "clock", "proxy", host, "test push"] + onThisSystem)
        for check in checks {
            #expect(["pass", "skip"].contains(check["status"] as? String), "\(check)")
            #expect(check["found"] is String)
        }
        let connection = try #require(checks.first { $0["name"] as? String == host })
        let stages = try #require(connection["stages"] as? [String: [String: Any]])
        #expect(Set(stages.keys) == ["dns", "tcp", "tls", "http2"])
        #expect(stages.values.allSatisfy { $0["status"] as? String == "pass" })
        let clock = try #require(checks.first { $0["name"] as? String == "clock" })
        #expect(abs(try #require(clock["skewSeconds"] as? Int)) <= 2, "the mock dates its answers with this machine's clock")
    }

    @Test("with a certificate: it is read and shown, the TLS handshake presents it, the test push goes over it; an expired one fails")
    func certificate() throws {
        let certs = try TemporaryDirectory()
        #expect(try CLI.pushctl(["cert", "generate", "--topic", "com.example.app", "--out", certs.url.path]).status == 0)
        let expired = try TemporaryDirectory()
        #expect(
            try CLI.pushctl([
                "cert", "generate", "--topic", "com.example.app", "--out", expired.url.path,
                "--valid-from-days", "-10", "--days", "5",
            ]).status == 0)
        let mock = try MockProcess(dir: try TemporaryDirectory(), extra: ["--client-ca", certs.path("pushctl-test-ca.pem")])
        let result = try CLI.pushctl([
            "doctor", "--endpoint", mock.url, "--cacert", mock.caFile, "--cert", certs.path("com.example.app.p12"),
            "--cert-password-file", certs.path("com.example.app.password"), "--device-token", sampleToken,
        ])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("✓ certificate") && result.stdout.contains("com.example.app, development and production"))
        #expect(result.stdout.contains("✓ test push"))
        let pushed = try #require(try mock.requests(count: 1).last)
        #expect((pushed["headers"] as? [String: Any])?["tls-client-certificate"] != nil, "the push went over the certificate")
        let old = try CLI.pushctl([
            "doctor", "--endpoint", mock.url, "--cacert", mock.caFile, "--cert", expired.path("com.example.app.p12"),
            "--cert-password-file", expired.path("com.example.app.password"),
        ])
        #expect(old.status == 1)
        #expect(old.stdout.contains("✗ certificate") && old.stdout.contains("expired on"), "\(old.stdout)")
    }

    @Test("the table fits the width (60, 80, 120 columns): the found text wraps in its column, words whole; in Spanish too", arguments: [60, 80, 120])
    func fitsTheWidth(columns: Int) throws {
        let mock = try MockProcess(dir: dir)
        for env in [["COLUMNS": "\(columns)"], ["COLUMNS": "\(columns)", "LANG": "es_ES.UTF-8"]] {
            let result = try doctor(mock, [], env: env)  // no --cacert: a failed check and its hint too
            let rows = result.stdout.split(separator: "\n")
            #expect(rows.count > 8)
            for row in rows { #expect(row.count <= columns, "\(row)") }
            let words = Set(result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }))
            #expect(words.contains("DEF123GHIJ") && words.contains("(unable"), "no word cut: \(result.stdout)")
        }
    }

    @Test("a name longer than the name column (an --endpoint's host and port) gets a row of its own; every found text starts in one column")
    func longNameKeepsTheColumn() throws {
        let host = "[0000:0000:0000:0000:0000:0000:0000:0001]:\(ProxyProcess.freePort())"
        let result = try CLI.pushctl(["doctor", "--endpoint", "https://\(host)", "--timeout", "3"], env: ["COLUMNS": "100"])
        let rows = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let libcurl = try #require(rows.first { $0.hasPrefix("✓ libcurl") }, "\(result.stdout)")
        let column = try #require(libcurl.range(of: "libcurl ", options: .backwards)).lowerBound
        let start = libcurl.distance(from: libcurl.startIndex, to: column)
        let index = try #require(rows.firstIndex { $0.contains(host) }, "\(result.stdout)")
        #expect(rows[index] == "✗ \(host)", "the long name alone on its row: \(rows[index])")
        let next = rows[index + 1]
        #expect(next.prefix(start).allSatisfy { $0 == " " } && next.dropFirst(start).first != " ", "its found text in the column (\(start)): \(next)")
    }

    @Test("nothing listening: the connection check fails with a hint, exit 1")
    func nothingListening() throws {
        let url = "https://127.0.0.1:\(ProxyProcess.freePort())"
        let result = try CLI.pushctl(["doctor", "--endpoint", url, "--timeout", "3"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✗ 127.0.0.1:"), "\(result.stdout)")
        #expect(result.stdout.contains("do: nothing is listening there: is `pushctl mock` running"), "\(result.stdout)")
        #expect(result.stdout.contains("– clock"), "no date to compare with: skipped, not failed")
    }

    @Test("a server whose certificate does not chain to a trusted root (the mock without --cacert) names Apple's root")
    func untrusted() throws {
        let mock = try MockProcess(dir: dir)
        let result = try doctor(mock, ["--output", "json"])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["exitStatus"] as? Int == 1)
        let checks = try #require(document["checks"] as? [[String: Any]])
        let connection = try #require(checks.first { $0["url"] as? String == mock.url })
        #expect(connection["status"] as? String == "fail")
        #expect((connection["found"] as? String ?? "").contains("does not chain to a trusted root"), "\(connection)")
        let hint = connection["hint"] as? String ?? ""
        #expect(hint.contains("\"USERTrust RSA Certification Authority\"") && hint.contains("--cacert"), "\(hint)")
        let stages = try #require(connection["stages"] as? [String: [String: Any]])
        #expect(stages["tcp"]?["status"] as? String == "pass")
        #expect(stages["tls"]?["status"] as? String == "fail")
        #expect(stages["http2"]?["status"] as? String == "skip")
    }

    @Test("in Spanish every row and hint reads in Spanish; json keeps English unless --lang chose the language")
    func speaksSpanish() throws {
        let mock = try MockProcess(dir: dir)
        let text = try doctor(mock, [], env: ["LANG": "es_ES.UTF-8"])  // no --cacert: a failed check and its hint
        #expect(text.status == 1)
        for phrase in [
            "con HTTP/2", "se carga (P-256)", "el certificado no lleva a una raíz de confianza", "haz: para pushctl mock, pasa su CA con --cacert",
            "no se dio --device-token", "no se dio --cert", "comprobaciones:",
        ] {
            #expect(text.stdout.contains(phrase), "\(phrase): \(text.stdout)")
        }
        for english in ["with HTTP/2", "loads (P-256)", "does not chain", "no --device-token given", "do: "] {
            #expect(!text.stdout.contains(english), "\(english) left in English: \(text.stdout)")
        }
        func found(_ result: CommandResult) throws -> String {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let checks = try #require(document["checks"] as? [[String: Any]])
            return checks.compactMap { $0["found"] as? String }.joined(separator: "\n")
        }
        #expect(try found(doctor(mock, ["--output", "json"], env: ["LANG": "es_ES.UTF-8"])).contains("with HTTP/2"), "the locale leaves json English")
        #expect(try found(doctor(mock, ["--output", "json", "--lang", "es"])).contains("con HTTP/2"), "--lang chooses json's words too")
    }

    @Test("a proxy: CONNECT through tinyproxy works; one that is not there fails the proxy check")
    func proxy() throws {
        let mock = try MockProcess(dir: dir)
        let http = try ProxyProcess(tinyproxy: dir)
        let through = try doctor(mock, ["--cacert", mock.caFile, "--proxy", "http://127.0.0.1:\(http.port)"])
        #expect(through.status == 0, "\(through.stdout)")
        #expect(through.stdout.contains("✓ proxy") && through.stdout.contains("CONNECT to \(mock.url) works"), "\(through.stdout)")

        let gone = try doctor(mock, ["--cacert", mock.caFile], env: ["PUSHCTL_PROXY": "http://127.0.0.1:\(ProxyProcess.freePort())"])
        #expect(gone.status == 1)
        #expect(gone.stdout.contains("✗ proxy") && gone.stdout.contains("from PUSHCTL_PROXY"), "\(gone.stdout)")
        #expect(gone.stdout.contains("do: the proxy could not be reached"), "\(gone.stdout)")
    }

    @Test("a test push the server refuses fails the check with APNs' reason")
    func refusedPush() throws {
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(otherToken)=DeviceTokenNotForTopic"])
        let result = try doctor(mock, ["--cacert", mock.caFile, "--topic", "com.example.app", "--device-token", otherToken])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ test push") && result.stdout.contains("DeviceTokenNotForTopic"), "\(result.stdout)")
    }

    @Test("usage: --device-token needs a topic (64); a malformed endpoint is bad input (65)")
    func usage() throws {
        #expect(try CLI.pushctl(["doctor", "--endpoint", "https://127.0.0.1:9", "--device-token", sampleToken]).status == 64)
        #expect(try CLI.pushctl(["doctor", "--endpoint", "http://127.0.0.1:9"]).status == 65)
    }

    @Test("--version --verbose names libcurl's version, HTTP/2 and its TLS library (OpenSSL 3), in the reader's language")
    func versionVerbose() throws {
        let english = try CLI.pushctl(["--version", "--verbose"], env: ["PUSHCTL_LANG": "en"])
        #expect(english.status == 0, "\(english.stderr)")
        let lines = english.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(english.stdout)")
        #expect(lines.last?.hasPrefix("libcurl ") == true && lines.last?.contains(" with HTTP/2 on OpenSSL/3.") == true, "\(english.stdout)")
        let spanish = try CLI.pushctl(["--verbose", "--version"], env: ["PUSHCTL_LANG": "es"])
        #expect(spanish.status == 0)
        #expect(spanish.stdout.contains(" con HTTP/2 sobre OpenSSL/3."), "\(spanish.stdout)")
    }

}
