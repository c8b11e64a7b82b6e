import Foundation
import PushCore
import PushCrypto
import Testing

@Suite struct LibraryExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the library documentation's example is the compiled one")
    func readmeShowsCompiledExample() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Tests/PushEngineTests/LibraryExample.swift"), encoding: .utf8)
        let start = try #require(source.range(of: "// example-start\n"))
        let end = try #require(source.range(of: "// example-end"))
        let example = String(source[start.upperBound..<end.lowerBound])
        let readme = try String(contentsOf: Self.root.appendingPathComponent("Sources/PushEngine/PushEngine.docc/PushEngine.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```"), "the PushEngine documentation must show Tests/PushEngineTests/LibraryExample.swift between its markers")
    }

    @Test("the example runs: a server that cannot be reached gives every token one result, and no dead tokens")
    func exampleRuns() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = dir.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try ES256PrivateKey.generate().pkcs8PEM.write(toFile: key, atomically: true, encoding: .utf8)
        let dead = try sendAlert(to: [String(repeating: "ab", count: 32)], keyPath: key, endpoint: "https://127.0.0.1:9")
        #expect(dead.isEmpty)
    }
}
