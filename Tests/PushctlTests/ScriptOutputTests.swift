import Foundation
import Testing

/// Scripts/test.sh and Scripts/quickstart.sh keep the compile's lines in a log: a build that
/// fails shows its errors, the log's last lines and the log's path (CI included). Run with a
/// stand-in for `swift` (PUSHCTL_SWIFT), so no real build happens here.
@Suite struct ScriptOutputTests {
    let dir = try! TemporaryDirectory()

    func run(_ script: String, failing: Bool, extra: [String: String] = [:]) throws -> CommandResult {
        let swift = try dir.write(
            "swift",
            """
            #!/usr/bin/env bash
            if [ "$1" = build ]; then
              for i in $(seq 1 300); do echo "[$i/300] Compiling Part$i.swift"; done
              if [ -n "${FAKE_FAIL:-}" ]; then echo "/src/Broken.swift:3:1: error: cannot find 'x' in scope"; echo "the compile's last line"; exit 1; fi
              echo "Build complete!"
            elif [ "$1" = test ] && [ -n "${FAKE_HANG:-}" ]; then
              echo '◇ Test "a test that hangs" started.'
              echo '◇ Test quickOne() started.'
              echo '✔ Test quickOne() passed after 0.010 seconds.'
              sleep 60
            elif [ "$1" = test ]; then
              echo "the tests ran"
            fi
            """, mode: 0o755)
        var env = ["CI": "true", "PUSHCTL_SWIFT": swift, "PUSHCTL_LOG_DIR": dir.path("logs"), "PUSHCTL_SCRATCH_PATH": dir.path("build")]
        if failing { env["FAKE_FAIL"] = "1" }
        env.merge(extra) { $1 }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try CLI.run("/bin/bash", [root.appendingPathComponent(script).path], env: env)
    }

    @Test("a failing build prints its errors, the log's last lines and the log's path, and fails", arguments: ["Scripts/test.sh", "Scripts/quickstart.sh"])
    func failing(_ script: String) throws {
        let result = try run(script, failing: true)
        #expect(result.status == 1)
        let log = script.hasSuffix("test.sh") ? dir.path("logs/test-build.log") : dir.path("logs/quickstart-build.log")
        #expect(result.stderr.contains("failed (exit 1)"), "\(result.stderr)")
        #expect(result.stderr.contains("errors:\n  /src/Broken.swift:3:1: error: cannot find 'x' in scope"), "\(result.stderr)")
        #expect(result.stderr.contains("  the compile's last line\nfull log: \(log)"), "\(result.stderr)")
        #expect(!result.stderr.contains("[1/300]"), "the early compile lines stay in the log")
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("[1/300] Compiling Part1.swift"))
    }

    @Test("a build that works shows one line about it, not the compile")
    func passing() throws {
        let result = try run("Scripts/test.sh", failing: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the tests ran"))
        #expect(!(result.stdout + result.stderr).contains("Compiling"))
        #expect(result.stderr.contains("building pushctl and its tests: done in"), "\(result.stderr)")
    }

    @Test("a test run that hangs is stopped at PUSHCTL_TEST_TIMEOUT, and the tests that never finished are named")
    func hanging() throws {
        let started = Date()
        let result = try run("Scripts/test.sh", failing: false, extra: ["FAKE_HANG": "1", "PUSHCTL_TEST_TIMEOUT": "2"])
        #expect(result.status == 124, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 40)
        #expect(result.stderr.contains("the test run was stopped after 2 s; started and never finished:\n  \"a test that hangs\""), "\(result.stderr)")
        #expect(!result.stderr.contains("quickOne"), "\(result.stderr)")
    }

    @Test(
        "Scripts/check-workflows.py finds what would break a README workflow: pushctl called before it is installed, a secret in a job output, a shellcheck warning, YAML that does not parse"
    )
    func workflowChecks() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let checker = root.appendingPathComponent("Scripts/check-workflows.py").path
        let workflow = try dir.write("ok.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n")
        let bad = try dir.write(
            "README.md",
            """
            ```yaml
            jobs:
              mint:
                runs-on: ubuntu-latest
                outputs:
                  jwt: ${{ steps.m.outputs.jwt }}
                steps:
                  - id: m
                    run: |
                      export WHEN=$(date)
                      echo "jwt=$(pushctl jwt)" >> "$GITHUB_OUTPUT"
              push:
                runs-on: ubuntu-latest
                steps:
                  - run: bash Scripts/install.sh "$HOME/.local"
                  - run: pushctl send --tokens-file t.txt --content-available
            ```

            ```yaml
            jobs: [unclosed
            ```
            """)
        let result = try CLI.run("/usr/bin/env", ["python3", checker, bad, workflow])
        #expect(result.status == 1)
        #expect(result.stderr.contains("job mint step 1: calls pushctl before any step of this job installs it"), "\(result.stderr)")
        #expect(result.stderr.contains("job mint: output 'jwt' would carry a secret"), "\(result.stderr)")
        #expect(result.stderr.contains("SC2155"), "\(result.stderr)")
        #expect(result.stderr.contains("the YAML does not parse"), "\(result.stderr)")
        #expect(!result.stderr.contains("job push"), "the push job installs first: \(result.stderr)")
        let good = try dir.write(
            "GOOD.md",
            "```yaml\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: bash Scripts/install.sh \"$HOME/.local\"\n      - run: pushctl --version\n```\n"
        )
        let passed = try CLI.run("/usr/bin/env", ["python3", checker, good, workflow])
        #expect(passed.status == 0, "\(passed.stderr)")
    }

    @Test(
        "Scripts/check-workflows.py holds each engine's recipe to its engine's rules: the action, the Kubernetes Indexed Job, the GitLab job",
        arguments: [
            (
                "action", ".github/actions/send/action.yml",
                [("key=\"$RUNNER_TEMP/pushctl-key/AuthKey.p8\"", "key=${{ inputs.key }}"), ("actions/upload-artifact@v4", "actions/cache/save@v4")],
                ["puts an input into the script's text", "never uploads the journal"]
            ),
            (
                "kubernetes", "Scripts/recipes/kubernetes-indexed-job.yaml",
                [
                    ("values: [64, 65, 66]", "values: [64, 65]"), ("--shard auto/4", "--shard auto/3"),
                    ("completionMode: Indexed", "completionMode: NonIndexed"), ("values: [75]", "values: [76]"),
                ],
                ["does not fail the Job on 64, 65 and 66", "--shard auto/3 against 4 copies", "completionMode is not Indexed", "does not retry on 75"]
            ),
            (
                "gitlab", "Scripts/recipes/gitlab-ci.yml",
                [("--shard auto \\", "--shard 1/4 \\"), ("  before_script: *pushctl-install\n  script:\n    - |", "  script:\n    - |")],
                ["does not send with --shard auto", "calls pushctl, and its before_script installs nothing"]
            ),
        ] as [(String, String, [(String, String)], [String])])
    func recipeChecks(kind: String, file: String, breaks: [(String, String)], complaints: [String]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let checker = root.appendingPathComponent("Scripts/check-workflows.py").path
        let original = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let good = try CLI.run("/usr/bin/env", ["python3", checker, "--recipe", kind, root.appendingPathComponent(file).path])
        #expect(good.status == 0, "\(good.stderr)")
        var broken = original
        for (from, to) in breaks {
            #expect(broken.contains(from), "\(file) holds \(from)")
            broken = broken.replacingOccurrences(of: from, with: to)
        }
        let copy = try dir.write("broken-\(kind).yml", broken)
        let result = try CLI.run("/usr/bin/env", ["python3", checker, "--recipe", kind, copy])
        #expect(result.status == 1)
        for complaint in complaints { #expect(result.stderr.contains(complaint), "\(complaint): \(result.stderr)") }
    }
}
