import Foundation
import PushCore
import PushFiles
import PushWords
import Testing

/// Every file pushctl writes goes through `OutputFiles`: these are its rules, once.
@Suite struct OutputFilesTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a symbolic link where a file goes is never written through, whatever the way of writing; said with the file's name")
    func linksRefused() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim").path
        try "theirs".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = dir.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let attempts: [(String, () throws(InputError) -> Void)] = [
            ("write", { () throws(InputError) in try OutputFiles.write([1], to: link, .simulatorFile) }),
            ("append", { () throws(InputError) in try OutputFiles.append([1], to: link, .stepSummary) }),
            ("open", { () throws(InputError) in _ = try OutputFiles.open(link, .deadTokenFile, .truncating) }),
        ]
        for (way, attempt) in attempts {
            let error = try #require(throws: InputError.self, "\(way)") { try attempt() }
            #expect(error.kind == .cannotCreateOutput)
            #expect(error.problem(OutputProblem.self) != nil, "\(way): \(error.words.en)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "theirs")
        let refused = try #require(throws: InputError.self) { try OutputFiles.write([1], to: link, .simulatorFile) }
        #expect(refused.words.en.hasPrefix("cannot write the Simulator file '\(link)': "), "\(refused.words.en)")
        #expect(refused.words.text(.es).hasPrefix("no se puede escribir el archivo del Simulador '\(link)': "))
    }

    @Test("a new file is never a replaced one; a truncated one is made private like a new one; a replaced one appears whole")
    func creationRules() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = dir.appendingPathComponent("AuthKey.p8").path
        try OutputFiles.writeNew(Array("key".utf8), to: key, .signingKey, mode: 0o600)
        let again = try #require(throws: InputError.self) { try OutputFiles.writeNew(Array("other".utf8), to: key, .signingKey, mode: 0o600) }
        #expect(again.problem(OutputProblem.self) == .exists(.signingKey, path: key))
        #expect(try String(contentsOfFile: key, encoding: .utf8) == "key")
        let shared = dir.appendingPathComponent("dead.txt").path
        try "old".write(toFile: shared, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: shared)
        try OutputFiles.write(Array("new".utf8), to: shared, .deadTokenFile)
        #expect(try Self.mode(shared) == 0o600 && String(contentsOfFile: shared, encoding: .utf8) == "new")
        // A device written to (`--simulator-file /dev/null`) keeps its mode: only a regular file is made private.
        let before = try Self.mode("/dev/null")
        defer { try? FileManager.default.setAttributes([.posixPermissions: before], ofItemAtPath: "/dev/null") }
        try OutputFiles.write(Array("x".utf8), to: "/dev/null", .simulatorFile)
        #expect(try Self.mode("/dev/null") == before)
        let metrics = dir.appendingPathComponent("run.prom").path
        try OutputFiles.replace(Array("a 1\n".utf8), at: metrics, .metricsFile, mode: 0o644)
        try OutputFiles.replace(Array("a 2\n".utf8), at: metrics, .metricsFile, mode: 0o644)
        #expect(try String(contentsOfFile: metrics, encoding: .utf8) == "a 2\n" && Self.mode(metrics) == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["AuthKey.p8", "dead.txt", "run.prom"], "no temporary file left")
        // A folder (as a device or a pipe would be) where a replaced file goes is not renamed over.
        let folder = dir.appendingPathComponent("run.d").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let notAFile = try #require(throws: InputError.self) { try OutputFiles.replace([1], at: folder, .metricsFile) }
        #expect(notAFile.problem(OutputProblem.self) == .notAFile(.metricsFile, path: folder))
        #expect(throws: InputError.self) { try OutputFiles.checkFolder(of: folder, .metricsFile) }
        try FileManager.default.removeItem(atPath: folder)
        let nowhere = dir.appendingPathComponent("no/such/folder/run.prom").path
        let missing = try #require(throws: InputError.self) { try OutputFiles.checkFolder(of: nowhere, .metricsFile) }
        #expect(missing.problem(OutputProblem.self) == .cannotWrite(.metricsFile, path: nowhere, .noSuchFile))
    }
}
