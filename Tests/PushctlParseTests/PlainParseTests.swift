import ArgumentParser
import ChildProcess
import Testing
@testable import pushctl

/// `send`'s quick reading (`SendCommand.plainParse`) against swift-argument-parser's, on lines
/// drawn with a fixed seed from the options `send --help` lists. Whatever the quick reading keeps
/// must be the command the parser makes; a plain line the parser takes, the quick reading must take
/// too (else a new option, or a changed default, would go the slow way unnoticed); and a line it is
/// not sure of goes to the parser.
@Suite struct PlainParseTests {
    /// Every option and flag `send --help` shows, with whether it takes a value.
    static let options: [(name: String, takesValue: Bool)] = {
        let help = SendCommand.helpMessage(includeHidden: true, columns: 10_000)
        var found: [(String, Bool)] = []
        for line in help.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = words.first, first.hasPrefix("--"), line.hasPrefix("  --") else { continue }
            let name = String(first.dropFirst(2))
            guard name != "help", !found.contains(where: { $0.0 == name }) else { continue }
            found.append((name, words.count > 1 && words[1].hasPrefix("<")))
        }
        return found
    }()

    /// Values a script gives: some each option takes, some it refuses.
    static let values = [
        "3", "443", "2197", "1.5", "0", "text", "jsonl", "start", "update", "es", "en", "com.example.app",
        String(repeating: "ab", count: 32), "Hello", "x y", "ñandú", "", "a=1", "score=3", "{\"a\":1}",
        "@state.json", "api.push.apple.com:443:127.0.0.1:8443", "1/2", "https://127.0.0.1:8443", "AuthKey_ABC123DEFG.p8",
    ]

    /// What validate() wants beside an option, so that lines with it are taken too.
    static let companions: [String: [(name: String, value: String?)]] = [
        "resume": [("journal", "j.jsonl")], "skip-in-doubt": [("journal", "j.jsonl"), ("resume", nil)],
        "request-id": [("channel-id", "chan")], "timestamp": [("live-activity", "update")], "content-state": [("live-activity", "update")],
        "stale-date": [("live-activity", "update")], "dismissal-date": [("live-activity", "end")], "relevance-score": [("live-activity", "update")],
        "attributes-type": [("live-activity", "start")], "attributes": [("live-activity", "start")], "input-push-token": [("live-activity", "start")],
        "input-push-channel": [("live-activity", "start")],
    ]

    static func parsed(_ line: [String]) -> SendCommand? {
        (try? SendCommand.parseAsRoot(Array(line.dropFirst()))) as? SendCommand
    }

    @Test func theHelpListsSendsOptions() {
        let names = Self.options.map(\.name)
        #expect(names.count > 60)
        for (name, value) in [("title", true), ("device-token", true), ("dry-run", false), ("lang", true), ("timeout", true), ("quiet", false)] {
            #expect(Self.options.contains(where: { $0.name == name && $0.takesValue == value }), "\(name)")
        }
    }

    /// The parser reads a line in about 90 ms in a debug build, the quick reading in microseconds:
    /// every line is read quickly (each option must be taken in one), the first 250 both ways.
    @Test func plainLinesReadAsTheParserReadsThem() {
        var random = SplitMix64(seed: 0x5E4D_2026)
        var taken = 0, compared = 0, takenWith: Set<String> = []
        for index in 0..<4_000 {
            var line = ["send"], used: Set<String> = []
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let option = random.pick(Self.options)
                var given = [(option.name, option.takesValue ? random.pick(Self.values) : nil)]
                given += Self.companions[option.name] ?? []
                for (name, value) in given where !used.contains(name) {
                    used.insert(name)
                    line.append("--" + name)
                    value.map { line.append($0) }
                }
            }
            let quick = SendCommand.plainParse(line)
            if quick != nil {
                taken += 1
                takenWith.formUnion(used)
            }
            guard index < 250 else { continue }
            switch (quick, Self.parsed(line)) {
            case let (quick?, slow?):
                #expect(String(reflecting: quick) == String(reflecting: slow), "\(line)")
                compared += 1
            case (nil, _?): Issue.record("the parser takes \(line), the quick reading does not")
            case (_?, nil): Issue.record("the quick reading takes \(line), the parser does not")
            case (nil, nil): break
            }
        }
        #expect(taken > 1_000 && compared > 60, "taken \(taken), compared \(compared)")
        let never = Self.options.map(\.name).filter { !takenWith.contains($0) }
        #expect(never.isEmpty, "no line with these was taken: \(never)")
    }

    @Test func anythingElseGoesToTheParser() {
        let base = ["send", "--topic", "com.example.app", "--device-token", String(repeating: "ab", count: 32)]
        let others: [[String]] = [
            ["--title=Hello"],                     // the = form
            ["-h"], ["--help"], ["--"], ["-"],      // short, help, the end of options
            ["--title", "-x"],                     // a value that starts with -
            ["--title", "a", "--title", "b"],      // an option twice
            ["--dry-run", "--dry-run"],            // a flag twice
            ["--dry-run", "yes"],                  // a flag given a value
            ["--title"],                           // an option without its value
            ["--port", "https"],                   // a value its type does not take
            ["--output", "xml"],
            ["--nope"], ["extra"], ["--Title", "x"],
            ["--generate-completion-script", "bash"],
            ["--sandbox", "--production"],         // refused by validate()
        ]
        #expect(SendCommand.plainParse(base) != nil)
        #expect(SendCommand.plainParse(["jwt", "--key-file", "k.p8"]) == nil)
        for extra in others {
            #expect(SendCommand.plainParse(base + extra) == nil, "\(extra)")
        }
    }

    /// `pushctl --lang es send …` (the root's --lang) is read quickly too, as the parser reads it.
    @Test func theRootsLanguageBeforeSend() throws {
        let send = ["send", "--topic", "com.example.app", "--device-token", String(repeating: "ab", count: 32), "--title", "Hola"]
        let line = ["--lang", "es"] + send
        let quick = try #require(SendCommand.plainParse(line))
        let slow = try #require(try Pushctl.parseAsRoot(line) as? SendCommand)
        #expect(String(reflecting: quick) == String(reflecting: slow))
        #expect(quick.language.lang == "es")
        // --lang both before and after send, or anything else before it: the parser's.
        for line in [["--lang", "en"] + send + ["--lang", "es"], ["--lang"] + send, ["--lang", "--title", "x"] + send, ["--verbose", "es"] + send] {
            #expect(SendCommand.plainParse(line) == nil, "\(line)")
        }
    }

    @Test func repeatedOptionsKeepTheirOrder() throws {
        let line = ["send", "--topic", "t", "--device-token", "aa", "--device-token", "bb", "--custom", "b=2", "--custom", "a=1"]
        let quick = try #require(SendCommand.plainParse(line))
        #expect(quick.deviceTokens == ["aa", "bb"])
        #expect(quick.custom == ["b=2", "a=1"])
        #expect(quick.connections == 1 && quick.retries == 3 && quick.timeout == 30)
    }
}
