import Foundation
import Testing

/// Issue 44: no secret comes back out. The same secrets — a proxy URL with and without a user name,
/// an environment proxy under `--verbose`, a Pushgateway URL with a password, a signer command — go
/// through every path that speaks (the warnings, a stopped run's resume hint on stderr, GitHub's
/// annotation and step summary, a failed run, a dry run, doctor in text and JSON, a refused URL), in
/// English and Spanish, and none is found in anything printed or written. The PKCS#11 PIN's paths
/// are in `KeySourceTests` (they need SoftHSM2).
@Suite(.serialized) struct SecretsTests {
    let dir = try! TemporaryDirectory()

    static let proxyToken = "PR0XYT0KEN77"
    static let proxyPassword = "PR0XYPASS88"
    static let metricsPassword = "METR1CSECRET"
    static let signerSecret = "S1GNERSECRET"
    static let environmentProxyPassword = "ENVPR0XYPASS"
    static let endpointPassword = "END5ECRET"
    static let schemelessPassword = "SCHEMELE55PW"
    static let proxyUserToken = "T0KENASUSER"

    static let secrets = [
        proxyToken, proxyPassword, metricsPassword, signerSecret, environmentProxyPassword, endpointPassword, schemelessPassword, proxyUserToken,
    ]

    /// Every secret absent from `text`, each checked by name.
    static func expectNoSecret(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets where text.contains(secret) {
            Issue.record("\(what) shows \(secret): \(text)", sourceLocation: sourceLocation)
        }
    }

    func tokensFile(_ count: Int) throws -> String {
        try dir.write("tokens-\(count).txt", (0..<count).map { String(format: "5ec2e7%058x", $0) }.joined(separator: "\n") + "\n")
    }

    /// A signer that signs with the mock's key, with a secret of its own in its command.
    func signer(_ mock: MockProcess, marker: String = "signer-ran") -> String {
        "TOKEN=\(Self.signerSecret) sh -c 'echo ran >> \(dir.path(marker))'; openssl dgst -sha256 -sign '\(mock.keyFile)'"
    }

    func destination(_ mock: MockProcess) -> [String] {
        ["--endpoint", mock.url, "--cacert", mock.caFile, "--team-id", "DEF123GHIJ", "--topic", "com.example.app"]
    }

    @Test("a stopped journaled run: its warnings, resume hint, annotation and step summary show no secret, in English and Spanish")
    func stoppedRun() throws {
        // Answers 20 s late: the run is stopped with requests in flight.
        let mock = try MockProcess(dir: dir, extra: ["--delay", "20000"])
        let proxy = try ProxyProcess(tinyproxy: dir)
        let tokens = try tokensFile(20)
        for language in ["en", "es"] {
            let summary = dir.path("summary-\(language).md")
            let journal = dir.path("journal-\(language).jsonl")
            let run = try CLI.run(
                "/usr/bin/timeout",
                [
                    "--preserve-status", "-s", "INT", "2", CLI.pushctlPath, "send", "--key-id", "ABC123DEFG", "--tokens-file", tokens, "--title", "Hi",
                    "--concurrency", "5", "--journal", journal, "--signer", signer(mock),
                    "--proxy", "http://:\(Self.proxyToken)@127.0.0.1:\(proxy.port)",
                    "--metrics-push", "http://ci:\(Self.metricsPassword)@127.0.0.1:9", "--lang", language,
                ] + destination(mock),
                env: ["GITHUB_STEP_SUMMARY": summary, "GITHUB_ACTIONS": "true"])
            #expect(run.status == 130, "\(run.stderr)")
            let written = (try? String(contentsOfFile: summary, encoding: .utf8)) ?? ""
            #expect(run.stderr.contains("--resume") && written.contains("--resume"), "the resume command is given: \(run.stderr)")
            #expect(run.stderr.contains("\"$PUSHCTL_SIGNER\"") && run.stderr.contains("\"$PUSHCTL_PROXY\""), "as the variables: \(run.stderr)")
            #expect(run.stderr.contains("::warning"), "the stop's annotation: \(run.stderr)")
            #expect(run.stderr.contains("PUSHCTL_METRICS_PUSH"), "the Pushgateway's password on the command line is said: \(run.stderr)")
            Self.expectNoSecret(run.stdout + run.stderr, "the stopped run (\(language))")
            Self.expectNoSecret(written, "the step summary (\(language))")
            Self.expectNoSecret((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "", "the journal")
        }
    }

    @Test("a dry run runs no signer and shows no secret; with --show-secrets it signs; doctor in text and JSON shows none")
    func dryRunAndDoctor() throws {
        let mock = try MockProcess(dir: dir)
        let proxy = try ProxyProcess(tinyproxy: dir)
        let proxyFlag = ["--proxy", "http://:\(Self.proxyToken)@127.0.0.1:\(proxy.port)"]
        for language in ["en", "es"] {
            let dry = try CLI.pushctl(
                [
                    "send", "--dry-run", "--key-id", "ABC123DEFG", "--signer", signer(mock, marker: "dry-signer"), "--device-token",
                    String(repeating: "ab", count: 32), "--title", "Hi", "--metrics-push", "http://ci:\(Self.metricsPassword)@127.0.0.1:9",
                    "--lang", language,
                ] + proxyFlag + destination(mock))
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("curl --http2"), "\(dry.stdout)")
            Self.expectNoSecret(dry.stdout + dry.stderr, "the dry run (\(language))")
            #expect(!FileManager.default.fileExists(atPath: dir.path("dry-signer")), "a dry run runs no signer unless asked")
            for output in ["text", "json"] {
                let signed = try CLI.pushctl(
                    [
                        "doctor", "--key-id", "ABC123DEFG", "--signer", signer(mock, marker: "doctor-signer"), "--team-id", "DEF123GHIJ", "--endpoint",
                        mock.url, "--cacert", mock.caFile, "--output", output, "--lang", language,
                    ])
                #expect(signed.stdout.contains("$PUSHCTL_SIGNER"), "the signer is named by its variable: \(signed.stdout)")
                Self.expectNoSecret(signed.stdout + signed.stderr, "doctor --signer --output \(output) (\(language))")
                let doctor = try CLI.pushctl(
                    [
                        "doctor", "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ", "--endpoint", mock.url, "--cacert", mock.caFile, "--output", output,
                        "--lang", language,
                    ] + proxyFlag)
                #expect(doctor.stdout.contains("***"), "the proxy is shown, masked: \(doctor.stdout)")
                Self.expectNoSecret(doctor.stdout + doctor.stderr, "doctor --output \(output) (\(language))")
            }
        }
        let shown = try CLI.pushctl(
            [
                "send", "--dry-run", "--show-secrets", "--key-id", "ABC123DEFG", "--signer", signer(mock, marker: "shown-signer"), "--device-token",
                String(repeating: "ab", count: 32), "--title", "Hi",
            ] + destination(mock))
        #expect(shown.status == 0 && FileManager.default.fileExists(atPath: dir.path("shown-signer")), "asked to show the token, it signs: \(shown.stderr)")
    }

    @Test("a failed run: a proxy with a password that refuses, and an environment proxy under --verbose, blamed as proxies, no password shown")
    func failedRuns() throws {
        let closed = ProxyProcess.freePort()
        let mock = try MockProcess(dir: dir)
        for language in ["en", "es"] {
            let given = try CLI.pushctl(
                [
                    "send", "--key-file", mock.keyFile, "--device-token", String(repeating: "cd", count: 32), "--title", "Hi",
                    "--proxy", "http://alice:\(Self.proxyPassword)@127.0.0.1:\(closed)", "--lang", language,
                ] + destination(mock))
            #expect(given.status == 69, "\(given.stderr)")
            Self.expectNoSecret(given.stdout + given.stderr, "a refused proxy (\(language))")
            let environment = try CLI.pushctl(
                [
                    "send", "--key-file", mock.keyFile, "--device-token", String(repeating: "cd", count: 32), "--title", "Hi", "--verbose",
                    "--lang", language,
                ] + destination(mock),
                env: ["https_proxy": "http://bob:\(Self.environmentProxyPassword)@127.0.0.1:\(closed)", "no_proxy": "", "NO_PROXY": ""])
            #expect(environment.status == 69, "\(environment.stderr)")
            #expect(environment.stderr.contains("https_proxy"), "libcurl's trace names the variable: \(environment.stderr)")
            #expect(
                environment.stderr.contains(language == "en" ? "hint: the proxy" : "sugerencia: no se pudo llegar al proxy"),
                "the proxy is blamed, not the endpoint: \(environment.stderr)")
            Self.expectNoSecret(environment.stdout + environment.stderr, "an environment proxy under --verbose (\(language))")
        }
        // A proxy written without a scheme (libcurl reads one from https_proxy), and a token proxy's
        // user name, which libcurl names when the proxy asks for credentials.
        let schemeless = try CLI.pushctl(
            ["send", "--key-file", mock.keyFile, "--device-token", String(repeating: "cd", count: 32), "--title", "Hi", "--output", "jsonl", "--verbose"]
                + destination(mock),
            env: ["https_proxy": "u:\(Self.schemelessPassword)@127.0.0.1:\(closed)", "no_proxy": "", "NO_PROXY": ""])
        #expect(schemeless.status == 69, "\(schemeless.stderr)")
        Self.expectNoSecret(schemeless.stdout + schemeless.stderr, "a proxy without a scheme")
        let asking = try ProxyProcess(tinyproxy: dir, auth: ("alice", "pw-alice"))
        let tokenUser = try CLI.pushctl(
            [
                "send", "--key-file", mock.keyFile, "--device-token", String(repeating: "cd", count: 32), "--title", "Hi", "--verbose",
                "--proxy", "http://\(Self.proxyUserToken)@127.0.0.1:\(asking.port)",
            ] + destination(mock))
        #expect(tokenUser.status == 69 && tokenUser.stderr.contains("with user '***'"), "\(tokenUser.stderr)")
        Self.expectNoSecret(tokenUser.stdout + tokenUser.stderr, "a token proxy's user name under --verbose")
        #expect(try mock.requestsSoFar().isEmpty, "nothing reached the mock")
    }

    @Test("the signer's command is not in its process's arguments (ps shows them to every user); it still runs and signs")
    func signerOffTheCommandLine() throws {
        let mock = try MockProcess(dir: dir)
        let seen = dir.path("signer-cmdline")
        // Linux shows a process's arguments in /proc; the signer copies its shell's own.
        #if os(Linux)
            let peek = "cat /proc/$$/cmdline > '\(seen)' 2>/dev/null; "
        #else
            let peek = ""
        #endif
        let command = "TOKEN=\(Self.signerSecret) sh -c 'true'; \(peek)openssl dgst -sha256 -sign '\(mock.keyFile)'"
        let sent = try CLI.pushctl(
            ["send", "--key-id", "ABC123DEFG", "--device-token", String(repeating: "ef", count: 32), "--title", "Hi", "--no-jwt-cache"] + destination(mock),
            env: ["PUSHCTL_SIGNER": command])
        #expect(sent.status == 0, "\(sent.stderr)")
        if let arguments = try? String(contentsOfFile: seen, encoding: .utf8) {
            #expect(!arguments.isEmpty && !arguments.contains(Self.signerSecret), "the shell's arguments: \(arguments.debugDescription)")
        }
        Self.expectNoSecret(sent.stdout + sent.stderr, "a signed send")
    }

    @Test("a URL refused (--endpoint, --metrics-push) is shown with its password masked")
    func refusedURLs() throws {
        let mock = try MockProcess(dir: dir)
        let endpoint = try CLI.pushctl(
            [
                "send", "--endpoint", "https://u:\(Self.endpointPassword)@127.0.0.1:1/x", "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
                "--topic", "a.b", "--device-token", String(repeating: "ab", count: 32), "--title", "Hi",
            ])
        #expect(endpoint.status != 0 && endpoint.stderr.contains("***"), "\(endpoint.stderr)")
        Self.expectNoSecret(endpoint.stdout + endpoint.stderr, "a refused endpoint")
        let metrics = try mock.send([
            "--device-token", String(repeating: "ab", count: 32), "--title", "Hi", "--metrics-push", "ftp://u:\(Self.metricsPassword)@h",
        ])
        #expect(metrics.status == 64 && metrics.stderr.contains("***"), "\(metrics.stderr)")
        Self.expectNoSecret(metrics.stdout + metrics.stderr, "a refused Pushgateway URL")
    }
}
