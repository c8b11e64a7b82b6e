import ChildProcess
import Foundation
import PushCore
import PushEngine
import Testing

@Suite struct DeviceTokenFileTests {
    @Test("tokens that share their first half are each sent once; their repeats, however spelled, are counted and skipped")
    func sharedPrefixes() throws {
        var random = SplitMix64(seed: 2026)
        // Every token starts with the same 32 hex digits (16 bytes): only the rest tells them apart.
        let head = String(repeating: "ab", count: 16)
        var distinct: [String] = []
        var seen = Set<String>()
        while distinct.count < 4000 {
            let tail = (0..<4).map { _ in String(format: "%016llx", random.next()) }.joined()
            let token = head + String(tail.prefix(32))
            if seen.insert(token).inserted { distinct.append(token) }
        }
        var lines = distinct
        // 400 repeats: upper case, or grouped as Xcode prints a token, spread through the file.
        for index in 0..<400 {
            let token = distinct[Int(random.next() % UInt64(distinct.count))]
            let repeated =
                index % 2 == 0
                ? token.uppercased()
                : "<"
                    + stride(from: 0, to: 64, by: 8).map { start in
                        String(token.dropFirst(start).prefix(8))
                    }.joined(separator: " ") + ">"
            lines.insert(repeated, at: Int(random.next() % UInt64(lines.count + 1)))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-tokens-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)

        let file = try DeviceTokenFile(path)
        #expect(file.count == 4000)
        #expect(file.duplicates == 400)
        // In the file's order, each distinct token once (a repeat never stands in for its first).
        var expected: [String] = []
        var firstSeen = Set<String>()
        for line in lines {
            let hex = line.lowercased().filter(\.isHexDigit)
            if firstSeen.insert(hex).inserted { expected.append(hex) }
        }
        #expect(Array(file).map(\.hex) == expected)
    }
}
