import Foundation
import Testing

/// The mistakes of a developer's first hour, each caught by name.
@Suite struct FirstHourTests {
    let dir = try! TemporaryDirectory()

    @Test("a --key-id that contradicts AuthKey_<ID>.p8 is said before sending, and InvalidProviderToken then names it as the likely cause")
    func keyIDAgainstFileName() throws {
        let mock = try MockProcess(dir: dir)
        let wrong = try mock.send(["--device-token", sampleToken, "--title", "x", "--key-id", "WRONG12345", "--no-jwt-cache"])
        #expect(wrong.status == 1)
        let warning = try #require(wrong.stderr.split(separator: "\n").first { $0.hasPrefix("warning:") }, "\(wrong.stderr)")
        #expect(warning.contains("WRONG12345") && warning.contains("ABC123DEFG") && warning.contains("--key-id"), "\(warning)")
        #expect(wrong.stdout.contains("InvalidProviderToken") && wrong.stdout.contains("likely cause: the key id WRONG12345 is not ABC123DEFG"), "\(wrong.stdout)")

        let fromEnvironment = try mock.send(["--device-token", sampleToken, "--title", "x", "--no-jwt-cache", "--output", "json"],
                                            env: ["PUSHCTL_KEY_ID": "WRONG12345", "LANG": "es_ES.UTF-8"])
        #expect(fromEnvironment.stderr.contains("aviso: el id de clave WRONG12345 (de PUSHCTL_KEY_ID)"), "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("likely cause"), "json explains in English unless --lang is given: \(fromEnvironment.stdout)")

        let right = try mock.send(["--device-token", sampleToken, "--title", "x", "--key-id", "ABC123DEFG"])
        #expect(right.status == 0 && !right.stderr.contains("warning"), "\(right.stderr)")

        let jwt = try CLI.pushctl(["jwt", "--key-file", mock.keyFile, "--key-id", "WRONG12345", "--team-id", "DEF123GHIJ"])
        #expect(jwt.status == 0 && jwt.stderr.contains("WRONG12345") && jwt.stderr.contains("ABC123DEFG"), "\(jwt.stderr)")
    }
}
