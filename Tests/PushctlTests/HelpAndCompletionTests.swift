import Foundation
import Testing

/// The surface people read: help that fits a terminal, completions that complete.
@Suite struct HelpAndCompletionTests {
    @Test(
        "every command's help fits 80 columns",
        arguments: [
            [], ["send"], ["jwt"], ["jwt", "sign"], ["jwt", "decode"], ["jwt", "verify"], ["key"], ["key", "generate"], ["doctor"],
            ["mock"], ["demo"], ["cert"], ["cert", "inspect"], ["cert", "generate"], ["channel"], ["channel", "create"],
            ["channel", "list"], ["channel", "read"], ["channel", "delete"],
        ])
    func helpFits(_ command: [String]) throws {
        let result = try CLI.pushctl(command + ["--help"], env: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let long = result.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(long.isEmpty, "lines over 80 columns: \(long)")
    }

    @Test(
        "help for jwt, key, doctor, cert and channel has examples, each a whole command line",
        arguments: [
            ["jwt"], ["jwt", "sign"], ["jwt", "decode"], ["jwt", "verify"], ["key"], ["key", "generate"], ["doctor"],
            ["cert", "inspect"], ["cert", "generate"], ["channel"],
        ])
    func examples(_ command: [String]) throws {
        let help = try CLI.pushctl(command + ["--help"], env: ["COLUMNS": "80"]).stdout
        let examples =
            help.components(separatedBy: "Examples:\n").dropFirst().first?
            .split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty } ?? []
        #expect(!examples.isEmpty, "no examples: \(help)")
        for line in examples {
            let starts = ["  pushctl ", "  JWT=$(pushctl ", "  ID=$(pushctl ", "  export PUSHCTL_", "    "]
            #expect(starts.contains { line.hasPrefix($0) }, "\(line)")
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test("the top-level help lists every exit status")
    func exitStatuses() throws {
        let help = try CLI.pushctl(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for code in [
            "0 accepted", "1 rejected", "64 usage", "65 bad input", "66 missing", "69 APNs unreachable", "73 output", "74 results not written", "75 retries",
        ] {
            #expect(help.contains(code), "\(code)")
        }
    }

    @Test("completions complete file names for file options and values for push types and levels", arguments: ["bash", "zsh", "fish"])
    func completions(_ shell: String) throws {
        let script = try CLI.pushctl(["--generate-completion-script", shell]).stdout
        for value in ["liveactivity", "pushtotalk", "time-sensitive", "update", "latest"] {
            #expect(script.contains(value), "\(shell): \(value)")
        }
        switch shell {
        case "zsh":
            #expect(script.contains("--key-file[") && script.contains(":path:_files -g '\\''*.p8 *.pem'\\''"))
            #expect(script.contains("--tokens-file[") && script.contains("or - for stdin.]:path:_files"))
        case "fish":
            #expect(script.contains("-l 'tokens-file'") && script.contains("-rF"))
            #expect(script.contains("set -l exts \\'p8\\' \\'pem\\'"))
        default:
            #expect(script.contains("--key-file") && script.contains("compgen"))
            #expect(script.contains("p8|pem"), "the bash script completes .p8 and .pem files")
        }
    }

    @Test("--badge -1 reaches the real check, not 'Missing value'")
    func negativeBadge() throws {
        let result = try CLI.pushctl(["send", "--topic", "com.example.app", "--device-token", sampleToken, "--jwt", "x.y.z", "--badge", "-1"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("the badge must be 0 or more"), "\(result.stderr)")
    }

    @Test("mock and demo options complete in every shell: the scripts ask pushctl, which reads pushctl-mock's own help")
    func mockAndDemoComplete() throws {
        // swift-argument-parser 1.8's protocol: the argument, the index of the word being completed,
        // the cursor's place in it, then the words (here one, empty).
        let mock = try CLI.pushctl(["---completion", "mock", "--", "positional@0", "0", "0", ""])
        #expect(mock.status == 0)
        let offered = Set(mock.stdout.split(separator: "\n").map(String.init))
        #expect(offered.isSuperset(of: ["--key-file", "--fail", "--web", "--ca-out", "--port"]), "\(mock.stdout)")
        let demo = try CLI.pushctl(["---completion", "demo", "--", "positional@0", "0", "0", ""])
        #expect(demo.stdout.split(separator: "\n").contains("--pause"), "\(demo.stdout)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLI.pushctl(["--generate-completion-script", shell]).stdout
            #expect(script.contains("---completion mock") && script.contains("---completion demo"), "\(shell)")
        }
    }
}
