import Testing

@testable import PushCore

/// The one rule for showing what the user gave (`Redaction`): no password, token, PIN or signer
/// command comes back out, whatever the form.
@Suite struct RedactionTests {
    @Test(
        "a URL's credentials are masked: user:*** with a user and a password, *** when either is missing",
        arguments: [
            ("http://alice:s3cret@proxy:3128", "http://alice:***@proxy:3128"),
            ("http://:TOKEN@proxy:3128", "http://***@proxy:3128"),
            ("http://TOKEN@proxy:3128", "http://***@proxy:3128"),
            ("https://u:p%40ss@gateway/metrics", "https://u:***@gateway/metrics"),
            ("socks5h://a:b:c@host", "socks5h://a:***@host"),
            ("http://proxy:3128", "http://proxy:3128"),
            ("http://proxy/path@not-userinfo", "http://proxy/path@not-userinfo"),
            ("u:BADP1@127.0.0.1:3128", "u:***@127.0.0.1:3128"),
            ("TOKEN@127.0.0.1:3128", "***@127.0.0.1:3128"),
            ("http://u:PP/ASS4@h:1", "http://u:***@h:1"),
            ("http://gateway:9091/metrics/job/pushctl/shard@base64/Mg", "http://gateway:9091/metrics/job/pushctl/shard@base64/Mg"),
            ("no scheme at all", "no scheme at all"),
        ])
    func urls(given: String, shown: String) {
        #expect(Redaction.url(given) == shown)
        #expect(Redaction.hasCredentials(given) == (given != shown))
    }

    @Test("a pkcs11: URI's pin-value is masked in its path and its query, any case; the rest is kept")
    func pins() {
        #expect(Redaction.pkcs11("pkcs11:token=t;object=k;pin-value=1234") == "pkcs11:token=t;object=k;pin-value=***")
        #expect(Redaction.pkcs11("pkcs11:token=t?PIN-VALUE=9%209&module-path=/m.so") == "pkcs11:token=t?PIN-VALUE=***&module-path=/m.so")
        #expect(Redaction.pkcs11("pkcs11:token=t?pin-source=file:/run/pin") == "pkcs11:token=t?pin-source=file:/run/pin")
        #expect(
            Redaction.pkcs11("pkcs11:token=t;pin-value=ab cd'TAIL\"1;object=k") == "pkcs11:token=t;pin-value=***;object=k", "a PIN runs to the next attribute")
        #expect(Redaction.pkcs11("pkcs11:token=t?pin-value=a?b&x=1") == "pkcs11:token=t?pin-value=***&x=1")
        #expect(Redaction.carriesPIN("pkcs11:token=t;pin-value=1"))
        #expect(!Redaction.carriesPIN("pkcs11:token=t?pin-source=file:/p"))
    }

    @Test("free text (libcurl's trace, another library's error) loses every URL's credentials, every pin-value and the secrets named")
    func scrub() {
        let line =
            "Uses proxy env variable https_proxy == 'http://u:secret-1@127.0.0.1:3128' and http://:tok-2@h; pin-value=42 PIN 9999; Unsupported proxy syntax in 'u:pw-3@127.0.0.1:1' by someone@example"
        let scrubbed = Redaction.scrub(line, secrets: ["9999", "ab"])
        for secret in ["secret-1", "tok-2", "=42", "9999", "pw-3"] { #expect(!scrubbed.contains(secret), "\(secret): \(scrubbed)") }
        #expect(scrubbed.contains("someone@example"), "a plain address is left: \(scrubbed)")
        #expect(Redaction.scrub("a cab", secrets: ["ab"]) == "a cab", "a secret too short to look for in free text")
        #expect(scrubbed.contains("http://u:***@127.0.0.1:3128"))
    }

    @Test("a command line shown back: each secret becomes the variable that carries it, both flag forms, nothing after --")
    func commandLine() {
        let kinds: [String: Redaction.ArgumentKind] = [
            "--jwt": .secret(variable: "PUSHCTL_JWT"), "--signer": .secret(variable: "PUSHCTL_SIGNER"),
            "--proxy": .url(variable: "PUSHCTL_PROXY"), "--metrics-push": .url(variable: "PUSHCTL_METRICS_PUSH"),
            "--endpoint": .url(variable: nil), "--key-file": .keyLocation(variable: "PUSHCTL_KEY_FILE"),
        ]
        let line = Redaction.commandLine(
            [
                "pushctl", "send", "--jwt", "eyJ.secret.sig", "--signer=vault write -token=SIGN-3 x", "--proxy", "http://:TOK-4@p:1",
                "--metrics-push=http://u:MET-5@g:9091", "--endpoint", "https://u:END-6@h", "--key-file", "pkcs11:token=t;pin-value=PIN-7",
                "--proxy", "http://plain:8080", "--title", "it's", "--key-file", "AuthKey_A.p8", "--", "--jwt", "shown",
            ], kinds: kinds)
        for secret in ["eyJ.secret", "SIGN-3", "TOK-4", "MET-5", "END-6", "PIN-7"] { #expect(!line.contains(secret), "\(secret): \(line)") }
        #expect(line.contains("--jwt \"$PUSHCTL_JWT\""))
        #expect(line.contains("--signer=\"$PUSHCTL_SIGNER\""))
        #expect(line.contains("--proxy \"$PUSHCTL_PROXY\"") && line.contains("--proxy http://plain:8080"))
        #expect(line.contains("--metrics-push=\"$PUSHCTL_METRICS_PUSH\""))
        #expect(line.contains("--endpoint 'https://u:***@h'"))
        #expect(line.contains("--key-file \"$PUSHCTL_KEY_FILE\"") && line.contains("--key-file AuthKey_A.p8"))
        #expect(line.contains("--title 'it'\\''s'"))
        #expect(line.hasSuffix("-- --jwt shown"), "after -- nothing is a flag: \(line)")
        #expect(Redaction.variables(in: line) == ["PUSHCTL_JWT", "PUSHCTL_SIGNER", "PUSHCTL_PROXY", "PUSHCTL_METRICS_PUSH", "PUSHCTL_KEY_FILE"])
    }

    @Test("a shown command line carries no control character: a newline or an escape in an argument is an escape sequence")
    func controls() {
        let line = Redaction.commandLine(["pushctl", "--title", "a\n```\n![x](http://e)\u{1B}[2J"], kinds: [:])
        #expect(!line.contains("\n") && !line.contains("\u{1B}"), "\(line)")
    }
}
