import ChildProcess
import Foundation
import PushSystem
import Testing

/// `--rate` and `--spread` against the mock: the server sees the notifications spread out.
@Suite struct PacingCLITests {
    let dir = try! TemporaryDirectory()

    func tokens(_ count: Int) -> [String] {
        (0..<count).map { "5ace0000" + String(repeating: "0", count: 48) + String(format: "%08x", $0 + 1) }
    }

    /// Seconds between the first and the last request the mock received (its log's times, in ms).
    func serverSpan(_ requests: [[String: Any]]) throws -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let times = try requests.map { try #require(($0["time"] as? String).flatMap(formatter.date(from:)), "\($0["time"] ?? "")") }
        return (times.max() ?? .distantPast).timeIntervalSince(times.min() ?? .distantPast)
    }

    @Test("--rate 100 spreads 300 notifications over about 3 s at the server; so does --spread 3s")
    func rateSpreads() throws {
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("tokens.txt", tokens(300).joined(separator: "\n") + "\n")
        var seen = 0
        for pace in [["--rate", "100"], ["--spread", "3s"]] {
            let started = Date()
            let result = try mock.send(["--tokens-file", file, "--title", "Hi", "--connections", "4"] + pace)
            let wall = Date().timeIntervalSince(started)
            #expect(result.status == 0, "\(result.stderr)")
            let all = try mock.requestsSoFar()
            let these = Array(all.dropFirst(seen))
            seen = all.count
            #expect(these.count == 300)
            let span = try serverSpan(these)
            #expect(span >= 2.5 && span <= 5, "\(pace): first to last request at the server: \(span) s")
            #expect(wall >= 2.5 && wall <= 15, "\(pace): the run took \(wall) s")
        }
    }

    @Test(
        "--rate and --spread refuse what is not a pace (64), saying what they take, in English and Spanish",
        arguments: [
            ["--rate", "0"], ["--rate", "-5"], ["--rate", "fast"], ["--rate", "nan"], ["--rate", "1e-12"], ["--rate", "0x10"], ["--rate", "0.0001"],
            ["--spread", "0"], ["--spread", "10x"], ["--spread", "0x10s"],
            ["--rate", "10", "--spread", "1m"],
        ])
    func refusals(arguments: [String]) throws {
        let mock = try MockProcess(dir: dir)
        let result = try mock.send(["--device-token", tokens(1)[0], "--title", "Hi"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(arguments.contains("--spread") && arguments.contains("--rate") ? "give one" : arguments[0]), "\(result.stderr)")
        #expect(
            result.stderr.contains("a decimal number from 0.001") || result.stderr.contains("a duration above 0") || result.stderr.contains("give one"),
            "\(result.stderr)"
        )
        let spanish = try mock.send(["--device-token", tokens(1)[0], "--title", "Hi", "--lang", "es"] + arguments)
        #expect(
            spanish.status == 64 && ["mayor que 0", "número decimal de 0.001", "da solo uno"].contains(where: spanish.stderr.contains), "\(spanish.stderr)")
        #expect(try mock.requestsSoFar().isEmpty, "nothing was sent")
    }
}
