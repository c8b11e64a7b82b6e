import ChildProcess
import Foundation
import PushCore
import PushEngine
import Testing

/// `pushctl report`'s reading and adding-up, in process: whatever a file holds, the reader counts
/// its results, skips and counts the rest, and never stops on a line.
@Suite struct RunReportTests {
    static func token(_ n: Int) -> String { String(repeating: "0", count: 56) + String(format: "%08x", n) }

    static func resultLine(_ n: Int, outcome: String, index: Int? = nil) -> String {
        let (status, reason, timestamp): (String, String, String) =
            switch outcome {
            case "accepted": ("200", "null", "null")
            case "rejected": ("410", "\"Unregistered\"", "\(1_700_000_000_000 + n)")
            default: ("503", "\"ServiceUnavailable\"", "null")
            }
        let place = index.map { #""index":\#($0),"# } ?? ""
        return
            #"{\#(place)"token":"\#(token(n))","status":\#(status),"outcome":"\#(outcome)","apnsId":null,"apnsUniqueId":null,"reason":\#(reason),"timestamp":\#(timestamp),"explanation":"e","attempts":1}"#
    }

    /// A line that is not a result: broken JSON, bytes, a result with a field cut, a very long line.
    static func garbage(_ random: inout SplitMix64, from line: String) -> String {
        var bytes = Array(line.utf8)
        switch random.next() % 6 {
        case 0: bytes.removeLast(Int(random.next() % UInt64(bytes.count - 1)) + 1)
        case 1: for _ in 0..<3 { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
        case 2: bytes = (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next() | 0x80) }
        case 3: return String(repeating: "{", count: 70_000)
        case 4: return line.replacingOccurrences(of: #""token""#, with: #""tokn""#)
        default: return #"{"token":"zz","attempts":1}"#
        }
        // A line end inside would make two lines of it: not what this case is about.
        return String(decoding: bytes.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }

    @Test("a fixed-seed fuzz of the reader: results counted, every other line skipped and counted, never fatal; each token once")
    func fuzzReader() throws {
        var random = SplitMix64(seed: 37)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<40 {
            var paths: [String] = []
            var best: [String: String] = [:]
            var resultsExpected = 0
            for file in 0..<3 {
                var lines: [String] =
                    file == 0
                    ? [
                        #"{"journal":"pushctl","version":1,"run":{"input":"a","payload":null,"topic":"t","pushType":"alert","destination":"https://x","shard":"1/1"}}"#
                    ] : []
                for _ in 0..<Int(random.next() % 60) {
                    let n = Int(random.next() % 50)
                    let outcome = random.pick(["accepted", "rejected", "temporary-failure"])
                    let line = RunReportTests.resultLine(n, outcome: outcome, index: file == 0 ? n : nil)
                    if random.chance(15) {
                        // A damaged line may still be a result (a byte flipped in its explanation): not counted on.
                        lines.append(RunReportTests.garbage(&random, from: line))
                        continue
                    }
                    lines.append(line)
                    resultsExpected += 1
                    let rank = ["temporary-failure": 0, "rejected": 1, "accepted": 2]
                    if let old = best[RunReportTests.token(n)], rank[old]! > rank[outcome]! { continue }
                    best[RunReportTests.token(n)] = outcome
                }
                if random.chance(30) { lines.append("") }
                let separator = random.chance(20) ? "\r\n" : "\n"
                let path = dir.appendingPathComponent("r\(round)-\(file).jsonl").path
                try (lines.joined(separator: separator) + (random.chance(50) ? separator : "")).write(toFile: path, atomically: true, encoding: .utf8)
                paths.append(path)
            }
            guard !best.isEmpty else { continue }
            let report = try RunReport(reading: paths + [paths[0]])
            let read = report.files.map(\.results).reduce(0, +)
            #expect(read >= resultsExpected, "round \(round): every intact result read")
            #expect(report.repeated == [paths[0]])
            #expect(report.summary.tokens >= best.count, "round \(round)")
            // Each intact token's standing is at least as good as its best intact result.
            let accepted = best.filter { $0.value == "accepted" }.count
            #expect(report.summary.accepted >= accepted, "round \(round)")
            let s = report.summary
            #expect(s.tokens == s.accepted + s.rejected + s.temporaryFailures + s.unreachable + s.notSent + s.inDoubt)
            #expect(report.files.map(\.skipped).reduce(0, +) + read >= lines(paths), "round \(round): every line read is a result or skipped")
            #expect(Set(report.unregistered.map(\.token)).isDisjoint(with: report.retryLater.map(\.token)))
            #expect(report.files[0].kind == .journal && report.files[0].shard?.description == "1/1")
        }
    }

    /// The lines of the files that are not blank and not a journal's first line.
    func lines(_ paths: [String]) -> Int {
        paths.map { path in
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).filter { line in
                !line.allSatisfy(\.isWhitespace) && !line.hasPrefix(#"{"journal""#)
            }.count
        }.reduce(0, +)
    }

    @Test("the step summary's resume command sits in a fence no argument can close: longer than any run of backticks in it, on one line")
    func fenceHoldsTheCommand() {
        var summary = BatchSummary()
        summary.stoppedBy = StopRequest(signal: .terminate, count: 1)
        var report = JobReport(summary: summary)
        report.resumeCommand = Redaction.commandLine(["pushctl", "send", "--title", "a\n````\n![x](http://e)"], kinds: [:])
        let markdown = report.markdown
        #expect(markdown.contains("`````sh\n"), "a fence of five, past the four inside: \(markdown)")
        #expect(!markdown.contains("\n````\n"), "the command's backticks never stand alone on a line: \(markdown)")
    }

    @Test("an accepted result wins over a retry-later one whatever the order; of two 410s the earlier APNs time stays")
    func precedence() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-precedence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.jsonl").path
        let b = dir.appendingPathComponent("b.jsonl").path
        try
            ([
                RunReportTests.resultLine(1, outcome: "accepted"), RunReportTests.resultLine(2, outcome: "temporary-failure"),
                RunReportTests.resultLine(3, outcome: "rejected").replacingOccurrences(of: "1700000000003", with: "1700000000900"),
            ]
            .joined(separator: "\n")).write(toFile: a, atomically: true, encoding: .utf8)
        try
            ([
                RunReportTests.resultLine(1, outcome: "temporary-failure"), RunReportTests.resultLine(2, outcome: "accepted"),
                RunReportTests.resultLine(3, outcome: "rejected"), "{\"summary\":true,\"shard\":\"2/2\"}",
            ]
            .joined(separator: "\n")).write(toFile: b, atomically: true, encoding: .utf8)
        for order in [[a, b], [b, a]] {
            let report = try RunReport(reading: order)
            #expect(report.summary.tokens == 3 && report.summary.accepted == 2 && report.summary.rejected == 1)
            #expect(report.retryLater.isEmpty)
            #expect(report.unregistered.map(\.token) == [RunReportTests.token(3)] && report.unregistered.first?.timestamp == 1_700_000_000_003)
            #expect(report.shardCount == 2 && report.missingShards == [1], "only b names a shard (2/2): 1/2 is missing")
            #expect(report.outcome == .temporaryFailure)
        }
    }

    @Test("the metrics in Prometheus' text format: HELP and TYPE, _total counters, label values escaped, a newline at the end")
    func exposition() {
        var summary = BatchSummary()
        summary.shard = try? Shard(parsing: "2/3")
        summary.accepted = 5
        summary.rejected = 2
        summary.tokens = 7
        summary.rejectedByReason = [.apns(.unknown("Bad\"Quote\\Back\nLine")): 1, .apns(.unregistered): 1]
        summary.elapsedSeconds = 1.2345
        let metrics = RunMetrics(summary: summary, signings: 1, exitStatus: 1, finishedAt: 1_700_000_000)
        let text = metrics.exposition()
        #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
        // A control character from outside is shown as \u{…} (never raw), then escaped as any backslash.
        #expect(text.contains(#"pushctl_notifications_total{shard="2/3",outcome="rejected",reason="Bad\"Quote\\Back\\u{A}Line"} 1"#), "\(text)")
        #expect(text.contains("pushctl_run_duration_seconds{shard=\"2/3\"} 1.235\n"))
        #expect(!metrics.exposition(shardLabel: false).contains("shard="))
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.hasPrefix("pushctl_"), "\(line)")
        }
        #expect(metrics.pushURL(base: "http://gw:9091/") == "http://gw:9091/metrics/job/pushctl/shard@base64/Mi8z")
        #expect(
            RunMetrics.isPushURL("http://gw:9091") && RunMetrics.isPushURL("https://user:pw@gw") && !RunMetrics.isPushURL("gw:9091")
                && !RunMetrics.isPushURL("http://") && !RunMetrics.isPushURL("http://a b"))
    }

    @Test("a line of a followed input refused before any attempt counts as InvalidLine, said as pushctl's refusal, never as APNs'")
    func refusedLine() {
        #expect(RejectionCause(reason: nil, attempts: 0) == .invalidLine)
        #expect(RejectionCause(reason: nil, attempts: 1) == .apns(.unknown("unknown")))
        var summary = BatchSummary()
        (summary.tokens, summary.rejected) = (2, 2)
        summary.rejectedByReason = [.invalidLine: 1, .apns(.unregistered): 1]
        #expect(summary.json(exitStatus: 1).compact.contains(#""rejectedByReason":{"InvalidLine":1,"Unregistered":1}"#))
        var report = JobReport(summary: summary)
        report.language = .es
        #expect(report.annotations.contains { $0.contains("pushctl rechazó 1 línea de la entrada%3A InvalidLine") }, "\(report.annotations)")
        #expect(!report.annotations.contains { $0.contains("APNs rechazó 1 notificación%3A InvalidLine") })
        #expect(report.markdown.contains("| `InvalidLine` | 1 | una línea de la entrada seguida no era ni un token"), "\(report.markdown)")
    }

}
