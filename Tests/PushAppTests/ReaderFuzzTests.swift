import ChildProcess
import Foundation
import Testing

@testable import PushApp

/// The readers against malformed files (fixed seed): an app folder full of broken catalogs,
/// plists, strings and Swift is read to the end, each bad file passed over, never a crash.
@Suite struct ReaderFuzzTests {
    static let good: [(String, String)] = [
        ("Localizable.xcstrings", AppFolder.catalog),
        ("en.lproj/Localizable.strings", "\"GOAL\" = \"Goal for %@!\";\n\"SCORE\" = \"%1$@ %2$@\";\n"),
        ("Info.plist", AppFolder.infoPlist(backgroundModes: ["remote-notification"])),
        ("App.entitlements", AppFolder.entitlements(["aps-environment": "<string>production</string>"])),
        ("Attributes.swift", AppFolder.matchAttributes),
    ]

    @Test("300 malformed app files (cut, bytes flipped, spliced, nested deep): every folder is read, nothing crashes")
    func malformedFiles() throws {
        var random = SplitMix64(seed: 0x48)
        for round in 0..<60 {
            let app = try AppFolder()
            for (name, text) in Self.good {
                try app.write(name, Self.mangle(Array(text.utf8), random: &random, round: round))
            }
            let profile = try app.profile()
            // Whatever survived is bounded by what was written.
            #expect(profile.swiftFiles <= 1)
            #expect(profile.locales.count <= 2)
        }
    }

    @Test("nesting thousands deep in a catalog, a plist and Swift is refused or read, not a crash")
    func deepNesting() throws {
        let app = try AppFolder()
        let depth = 5000
        try app.write("Localizable.xcstrings", String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        try app.write(
            "Info.plist", "<plist><array>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</array></plist>")
        try app.write("Deep.swift", "struct A { var x: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth) + " }")
        // As deep as the reader takes: parsed, not a crash.
        let limit = SwiftDeclarations.nestingLimit - 1
        let square = SwiftDeclarations.squareBracketLimit
        try app.write(
            "AtLimit.swift",
            "struct B { var x: " + String(repeating: "[", count: square) + "Int" + String(repeating: "]", count: square) + " }\n"
                + "func f() " + String(repeating: "{ (", count: limit / 2) + String(repeating: ") }", count: limit / 2))
        try app.write("Big.swift", String(repeating: "// filler\n", count: 120_000))
        var nested: Any = ["x"]
        for _ in 0..<200 { nested = [nested] }
        try app.write("Deep.entitlements", try PropertyListSerialization.data(fromPropertyList: ["aps-environment": nested], format: .binary, options: 0))
        try app.write("en.lproj/Localizable.strings", "\"k\" = " + String(repeating: "(", count: depth) + String(repeating: ")", count: depth) + ";")
        let profile = try app.profile()
        #expect(profile.skipped.contains(SkippedFile(path: "Deep.swift", reason: .tooDeep)))
        #expect(profile.types.types["B"] != nil)
        for name in ["Info.plist", "Deep.entitlements", "en.lproj/Localizable.strings"] {
            #expect(profile.skipped.contains(SkippedFile(path: name, reason: .unreadable)), "\(name)")
        }
        #expect(profile.skipped.contains(SkippedFile(path: "Localizable.xcstrings", reason: .unreadable)))
        #expect(profile.skipped.contains(SkippedFile(path: "Big.swift", reason: .tooLarge)))
    }

    static func mangle(_ bytes: [UInt8], random: inout SplitMix64, round: Int) -> Data {
        var out = bytes
        switch round % 5 {
        case 0: out = Array(out.prefix(Int.random(in: 0...out.count, using: &random)))
        case 1:
            for _ in 0..<Int.random(in: 1...20, using: &random) where !out.isEmpty {
                out[Int.random(in: 0..<out.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 2:
            let cut = Int.random(in: 0...out.count, using: &random)
            out.insert(contentsOf: out.prefix(Int.random(in: 0...cut, using: &random)), at: cut)
        case 3: out = (0..<Int.random(in: 0...400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        default:
            let symbols = Array("{}[]<>\"\\:;=%@$#()".utf8)
            for _ in 0..<Int.random(in: 1...40, using: &random) where !out.isEmpty {
                out.insert(random.pick(symbols), at: Int.random(in: 0..<out.count, using: &random))
            }
        }
        return Data(out)
    }
}
