import ChildProcess
import Foundation
import PushCore
import PushCrypto
import PushSystem
import PushWords
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
        #expect(
            readme.contains("```swift\n" + example + "```"),
            "the PushEngine documentation must show Tests/PushEngineTests/LibraryExample.swift between its markers")
    }

    /// A fresh folder holding a new test key, AuthKey_ABC123DEFG.p8.
    static func folderWithKey() throws -> (URL, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let key = dir.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try ES256PrivateKey.generate().pkcs8PEM.write(toFile: key, atomically: true, encoding: .utf8)
        return (dir, key)
    }

    @Test("the example's check of a tokens list: each line that is not a token, with why in Spanish; a blank line passes")
    func exampleBranchesOnTheCode() {
        let refused = unusableTokens(["", String(repeating: "ab", count: 32), "zz11"])
        #expect(refused.map(\.line) == ["zz11"])
        #expect(refused.first?.why == "el token del dispositivo 'zz11' tiene 'z' en la posición 1; un token es hexadecimal (0-9, a-f)")
    }

    @Test("the example's key check branches on the file's problem and says it in the language asked for")
    func exampleSaysWhyAKeyCannotSign() throws {
        let (dir, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(whyKeyCannotSign(key, in: .es) == nil)
        let missing = dir.appendingPathComponent("AuthKey_NONE.p8").path
        #expect(whyKeyCannotSign(missing, in: .es) == "no hay ninguna clave en \(missing)")
        #expect(whyKeyCannotSign(missing, in: .en) == "no key at \(missing)")
        #expect(whyKeyCannotSign(dir.path, in: .es) == "no se puede leer el archivo de la clave '\(dir.path)': es una carpeta")
        let empty = dir.appendingPathComponent("empty.p8").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(whyKeyCannotSign(empty, in: .en)?.hasPrefix("\(empty): the key file is empty") == true)
        let publicHalf = dir.appendingPathComponent("public.pem").path
        try ES256PrivateKey.generate().publicKey.pem.write(toFile: publicHalf, atomically: true, encoding: .utf8)
        #expect(whyKeyCannotSign(publicHalf, in: .es) == "es la mitad pública; firma con el .p8")
    }

    @Test("the example's journal: a second holder is refused with who holds it, in the language asked for")
    func exampleSaysWhoHoldsTheJournal() throws {
        let (dir, _) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = dir.appendingPathComponent("run.jsonl").path
        let first = takeJournal(journal, in: .es)
        #expect(first.lock != nil && first.refusal == nil)
        let second = takeJournal(journal, in: .es)
        #expect(second.lock == nil)
        #expect(second.refusal == "en uso por el pid \(ProcessInfo.processInfo.processIdentifier)")
        first.lock?.release()
        #expect(takeJournal(journal, in: .en).lock != nil)
    }

    @Test("the example's credential advice: a code to branch on, the catalog's words with the caller's own names otherwise")
    func exampleAdvisesOnCredentials() throws {
        #expect(credentialAdvice(["PUSHCTL_JWT": "a.b.c", "PUSHCTL_KEY_FILE": "k.p8"], in: .es) == "deja solo una de PUSHCTL_KEY_FILE, PUSHCTL_JWT")
        let missing = try #require(credentialAdvice([:], in: .en))
        #expect(missing.hasPrefix("missing a provider token: give Key file with Team ID (and Key ID unless"), "\(missing)")
        #expect(!missing.contains("--"), "a library caller never reads pushctl's flags: \(missing)")
        let spanish = try #require(credentialAdvice([:], in: .es))
        #expect(spanish.hasPrefix("falta el token del proveedor: da Key file con Team ID"), "\(spanish)")
    }

    @Test("the example runs: a server that cannot be reached gives every token one result, and no dead tokens")
    func exampleRuns() throws {
        let (dir, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = try sendAlert(to: [String(repeating: "ab", count: 32)], keyPath: key, endpoint: "https://127.0.0.1:9")
        #expect(dead.isEmpty)
    }

    @Test("the example against a local APNs (the built pushctl-mock): the accepted token is not dead, the Unregistered one is returned")
    func exampleFindsTheDeadToken() throws {
        let (dir, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = dir.appendingPathComponent("ca.pem").path
        let alive = String(repeating: "ab", count: 32)
        let gone = String(repeating: "cd", count: 32)
        let mock = SpawnedProcess()
        mock.executableURL = URL(fileURLWithPath: try #require(BuiltProducts.path(of: "pushctl-mock"), "build pushctl-mock first"))
        mock.arguments = ["mock", "--port", "0", "--key-file", key, "--team-id", "DEF123GHIJ", "--ca-out", ca, "--fail", "\(gone)=Unregistered"]
        let out = Pipe()
        mock.standardOutput = out
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        defer { kill(mock.processIdentifier, SIGKILL) }
        var banner = ""
        while !banner.contains("Ctrl-C stops it.") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let url = try #require(banner.firstMatch(of: /https:\/\/127\.0\.0\.1:[0-9]+/).map { String($0.output) }, "\(banner)")
        #expect(try sendAlert(to: [alive, gone], keyPath: key, endpoint: url, caFile: ca) == [gone])
    }
}
