import ChildProcess
import Foundation
import PushSystem
import Testing

/// A fleet of runs: N machines of a job engine each send their shard of one list (`--shard auto`),
/// one run per journal, `pushctl report` adds the shards up. The mock's log is the truth.
@Suite struct FleetTests {
    let dir = try! TemporaryDirectory()

    func tokens(_ count: Int, seed: Int) -> [String] {
        (0..<count).map { String(format: "%08x", seed) + String(repeating: "0", count: 48) + String(format: "%08x", $0 + 1) }
    }

    /// The tokens of a `--output jsonl` run's result lines.
    func sentTokens(_ result: CommandResult) -> [String] {
        result.stdoutLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["token"] as? String }
    }

    /// The device tokens of every request the mock received so far.
    func received(_ mock: MockProcess) throws -> [String] {
        try mock.requestsSoFar().compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
    }

    /// What each engine sets for copy `k` of 3, the `--shard` value it needs, and the line pushctl says.
    static func engine(_ name: String, copy k: Int) -> (env: [String: String], shard: String, line: String) {
        switch name {
        case "GitLab":
            return (["CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "3"], "auto", "shard \(k)/3, from GitLab's CI_NODE_INDEX=\(k) and CI_NODE_TOTAL=3")
        case "AWS Batch":
            return (["AWS_BATCH_JOB_ARRAY_INDEX": "\(k - 1)", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], "auto",
                    "shard \(k)/3, from AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX=\(k - 1) and AWS_BATCH_JOB_ARRAY_SIZE=3")
        default:
            return (["JOB_COMPLETION_INDEX": "\(k - 1)"], "auto/3", "shard \(k)/3, from Kubernetes' JOB_COMPLETION_INDEX=\(k - 1) and --shard auto/3")
        }
    }

    @Test("GitLab's, AWS Batch's and Kubernetes' variables shard 30 tokens into three disjoint runs covering all 30, each saying where its shard came from",
          arguments: ["GitLab", "AWS Batch", "Kubernetes"])
    func autoShards(engine: String) throws {
        let mock = try MockProcess(dir: dir)
        let all = tokens(30, seed: engine.count)
        let file = try dir.write("tokens-\(engine.count).txt", all.joined(separator: "\n") + "\n")
        var seen: [[String]] = []
        for k in 1...3 {
            let copy = FleetTests.engine(engine, copy: k)
            let result = try mock.send(["--tokens-file", file, "--title", "x", "--shard", copy.shard, "--output", "jsonl"], env: copy.env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(copy.line), "\(result.stderr)")
            seen.append(sentTokens(result))
        }
        #expect(seen.allSatisfy { !$0.isEmpty }, "each copy sent a part: \(seen.map(\.count))")
        #expect(Set(seen[0]).isDisjoint(with: seen[1]) && Set(seen[0]).isDisjoint(with: seen[2]) && Set(seen[1]).isDisjoint(with: seen[2]))
        #expect(seen.joined().sorted() == all.sorted(), "together, every token once")
        #expect(try received(mock).sorted() == all.sorted(), "the mock got each token once")
        // Said in Spanish too, and not with --quiet (a dry run: nothing more is sent).
        let copy = FleetTests.engine(engine, copy: 2)
        let spanish = try mock.send(["--tokens-file", file, "--title", "x", "--shard", copy.shard, "--dry-run", "--lang", "es"], env: copy.env)
        #expect(spanish.stderr.contains("fragmento 2/3, de "), "\(spanish.stderr)")
        let quiet = try mock.send(["--tokens-file", file, "--title", "x", "--shard", copy.shard, "--dry-run", "--quiet"], env: copy.env)
        #expect(quiet.status == 0 && !quiet.stderr.contains("shard"), "\(quiet.stderr)")
    }

    @Test("--shard auto refuses (64), naming the variable: none set, empty, not a number, out of range, no count, a count that disagrees, two engines",
          arguments: [
              ([:], "auto", "none of them is set"),
              (["CI_NODE_INDEX": "", "CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX is set but empty"),
              (["CI_NODE_INDEX": "two", "CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX is 'two', not a whole number"),
              (["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX=4 is outside 1 to 3"),
              (["CI_NODE_INDEX": "1"], "auto", "CI_NODE_INDEX=1 is set and CI_NODE_TOTAL is not"),
              (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"], "auto/4", "auto/4 says 4 shards, and CI_NODE_TOTAL=3 says 3"),
              (["AWS_BATCH_JOB_ARRAY_INDEX": "3", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], "auto", "AWS_BATCH_JOB_ARRAY_INDEX=3 is outside 0 to 2"),
              (["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "0"], "auto", "AWS_BATCH_JOB_ARRAY_SIZE=0"),
              (["JOB_COMPLETION_INDEX": "1"], "auto", "Kubernetes gives each pod its index (JOB_COMPLETION_INDEX=1) but not the count"),
              (["JOB_COMPLETION_INDEX": "3"], "auto/3", "JOB_COMPLETION_INDEX=3 is outside 0 to 2"),
              (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "JOB_COMPLETION_INDEX": "0"], "auto/2", "CI_NODE_INDEX and JOB_COMPLETION_INDEX are all set"),
              (["JOB_COMPLETION_INDEX": "0"], "auto/0", "1 ≤ K ≤ N ≤ 10000"),
              ([:], "auto/x", "auto or auto/N"),
          ] as [([String: String], String, String)])
    func autoRefusals(env: [String: String], shard: String, message: String) throws {
        let result = try CLI.pushctl(["send", "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x", "--jwt", "x.y.z",
                                      "--shard", shard], env: env)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

}
