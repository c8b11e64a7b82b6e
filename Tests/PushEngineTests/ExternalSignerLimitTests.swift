import PushCore
import PushCrypto
import PushSystem
import Testing

@testable import PushEngine

/// The external signer's limits hold whatever it does with its streams (issue 44): one deadline
/// from its start to its process group's end, and a shell that exits while a background job holds
/// its output is not mistaken for a signer that never answered. Short limits here; the built
/// pushctl is held to the real one in KeySourceTests.
@Suite struct ExternalSignerLimitTests {
    /// As pushctl does from its start: a signer that exits without reading its input makes the
    /// write of that input fail (EPIPE), not end this process.
    init() { Signals.ignoreBrokenPipes() }

    /// Processes whose command line holds `marker` (pgrep -f), to see that none was left behind.
    /// A group just sent SIGKILL may take the kernel a moment to end on a loaded machine, so a
    /// process still listed is looked for again for up to 3 s; one alive after that was left behind.
    static func left(_ marker: String) -> String {
        var found = "?"
        for _ in 0..<30 {
            guard case .success(let run) = ChildProcesses.run(ChildSpec("/usr/bin/env", ["pgrep", "-f", marker]), seconds: 10) else { return "?" }
            found = String(decoding: run.output, as: UTF8.self)
            if found.isEmpty { return found }
            Clocks.sleep(seconds: 0.1)
        }
        return found
    }

    static func marker() -> String { "\(Int.random(in: 100_000...999_999))" }

    @Test("a signer that closes its output and error, then sleeps, is stopped at its limit with its group: 75")
    func closesStreamsThenSleeps() throws {
        let marker = Self.marker()
        let signer = ExternalSigner(command: "exec >&- 2>&-; sleep 300.\(marker); echo never", publicKey: nil, seconds: 1)
        let started = Clocks.monotonicSeconds()
        let error = try #require(throws: InputError.self) { try signer.sign(Array("header.claims".utf8)) }
        let took = Clocks.monotonicSeconds() - started
        #expect(error.kind == .temporaryFailure, "\(error)")
        #expect(error.words.en.contains("did not answer within 1 s"), "\(error)")
        #expect(took >= 1 && took < 5, "one deadline from the start: \(took) s")
        #expect(Self.left(marker).isEmpty, "the signer's group was ended")
    }

    @Test("a shell that exits with a signature while its background job holds the output: the signature is used, the job stopped")
    func backgroundJobHoldsOutput() throws {
        let key = ES256PrivateKey.generate()
        let message = Array("header.claims".utf8)
        let signature = try key.sign(message)
        let marker = Self.marker()
        let command = "printf '%s' '\(Base64URL.encode(signature))'; sleep 300.\(marker) & exit 0"
        let signer = ExternalSigner(command: command, publicKey: key.publicKey, seconds: 20)
        let started = Clocks.monotonicSeconds()
        #expect(try signer.sign(message) == signature)
        #expect(Clocks.monotonicSeconds() - started < 10, "not waited for until the limit")
        #expect(Self.left(marker).isEmpty, "the background job was stopped with the group")
    }

    @Test("a shell that exits without a signature while its background job holds the output is said as such, not as 'did not answer'")
    func backgroundJobNoSignature() throws {
        let marker = Self.marker()
        let signer = ExternalSigner(command: "sleep 300.\(marker) & exit 0", publicKey: nil, seconds: 20)
        let error = try #require(throws: InputError.self) { try signer.sign(Array("header.claims".utf8)) }
        #expect(error.kind == .badData, "\(error)")
        #expect(error.words.en.contains("printed nothing") && error.words.en.contains("in the background"), "\(error)")
        #expect(error.words.es.contains("segundo plano"), "\(error)")
        #expect(!error.words.en.contains("did not answer"))
        #expect(Self.left(marker).isEmpty)
    }

    @Test("the signer's environment is an allow list: cloud credentials and the locale pass, no PUSHCTL_* secret does")
    func environment() {
        let given = [
            "PATH=/usr/bin:/bin", "HOME=/home/ci", "LANG=es_ES.UTF-8", "LC_ALL=C", "TMPDIR=/tmp", "AWS_PROFILE=signing",
            "AWS_SECRET_ACCESS_KEY=aws-secret", "VAULT_ADDR=https://vault", "VAULT_TOKEN=vault-token", "GOOGLE_APPLICATION_CREDENTIALS=/k.json",
            "HTTPS_PROXY=http://proxy:3128", "PUSHCTL_KEY_ID=ABC123DEFG", "PUSHCTL_TEAM_ID=DEF123GHIJ", "PUSHCTL_PROXY=http://u:proxy-secret@p",
            "PUSHCTL_CERT_PASSWORD=cert-secret", "PUSHCTL_JWT=eyJ.jwt.secret", "PUSHCTL_KEY=-----BEGIN", "PUSHCTL_CACHE_KEY=cache-secret",
            "PUSHCTL_KEY_FILE=pkcs11:object=k?pin-value=1234", "PUSHCTL_SIGNER=sign.sh", "GITHUB_TOKEN=ghs_secret", "DEPLOY_PASSWORD=x",
        ]
        let passed = ExternalSigner.environment(from: given)
        #expect(
            passed == [
                "PATH=/usr/bin:/bin", "HOME=/home/ci", "LANG=es_ES.UTF-8", "LC_ALL=C", "TMPDIR=/tmp", "AWS_PROFILE=signing",
                "AWS_SECRET_ACCESS_KEY=aws-secret", "VAULT_ADDR=https://vault", "VAULT_TOKEN=vault-token", "GOOGLE_APPLICATION_CREDENTIALS=/k.json",
                "HTTPS_PROXY=http://proxy:3128", "PUSHCTL_KEY_ID=ABC123DEFG", "PUSHCTL_TEAM_ID=DEF123GHIJ",
            ])
        #expect(!passed.contains { $0.contains("secret") && $0.hasPrefix("PUSHCTL_") })
    }
}
