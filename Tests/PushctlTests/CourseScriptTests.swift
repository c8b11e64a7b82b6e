import Foundation
import Testing

/// The course's two scripts, rebuilt over pushctl: configured only through their variables,
/// finding the built pushctl on PATH.
@Suite struct CourseScriptTests {
    let dir = try! TemporaryDirectory()

    /// The environment a student's shell would have, with the built pushctl on PATH, none of the
    /// scripts' variables but those given, and a cache directory of the test's own.
    func environment(_ variables: [String: String]) -> [String: String] {
        let bin = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().path
        let unset = [
            "TEAMID", "KEYID", "KEYFILE", "BUNDLEID", "DEVICETOKEN", "JWT", "PAYLOAD", "PAYLOAD_FILE", "SILENT",
            "ENDPOINT", "CACERT",
        ]
        return Dictionary(uniqueKeysWithValues: unset.map { ($0, "") })
            .merging([
                "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "XDG_CACHE_HOME": dir.path("cache"),
            ]) { $1 }
            .merging(variables) { $1 }
    }

    func script(_ name: String, _ arguments: [String] = [], _ variables: [String: String]) throws -> CommandResult {
        try CLI.run(Repository.script(name), arguments, env: environment(variables))
    }

    /// The variables that point send_push_notification.sh at `mock` instead of Apple's sandbox.
    func sendVariables(_ mock: MockProcess, _ more: [String: String] = [:]) -> [String: String] {
        [
            "TEAMID": "DEF123GHIJ", "KEYFILE": mock.keyFile, "BUNDLEID": "com.example.app", "DEVICETOKEN": sampleToken,
            "ENDPOINT": mock.url, "CACERT": mock.caFile,
        ].merging(more) { $1 }
    }

    @Test("encode_jwt.sh prints, on its last line, a JWT that pushctl jwt verify accepts", arguments: [[], ["--explain"]])
    func encodeJWT(_ arguments: [String]) throws {
        let key = try dir.generateKey(id: "KEY4567890")
        let result = try script("encode_jwt.sh", arguments, ["TEAMID": "DEF123GHIJ", "KEYID": "KEY4567890", "KEYFILE": key])
        #expect(result.status == 0, "\(result.stderr)")
        let jwt = try #require(result.stdoutLines.last)
        #expect(jwt.split(separator: ".").count == 3)
        let verify = try CLI.pushctl(["jwt", "verify", jwt, "--key-file", key])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("kid") && verify.stdout.contains("KEY4567890"))
        #expect(verify.stdout.contains("DEF123GHIJ"))
    }

    @Test("encode_jwt.sh finds AuthKey_<KEYID>.p8 in the current directory, where a student keeps it; --explain's lesson stays out of $(…)")
    func keyInCurrentDirectory() throws {
        let key = try dir.generateKey(id: "KEYCWD1234")
        let result = try CLI.run(
            "/bin/bash", ["-c", "JWT=$(\(Repository.script("encode_jwt.sh")) --explain) && echo \"$JWT\""],
            env: environment(["TEAMID": "DEF123GHIJ", "KEYID": "KEYCWD1234"]), in: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count == 1, "the variable holds the token alone: \(result.stdout)")
        #expect(result.stderr.contains("8. Token"), "the lesson is shown")
        let verify = try CLI.pushctl(["jwt", "verify", result.stdoutLines[0], "--key-file", key])
        #expect(verify.status == 0)
    }

    @Test("encode_jwt.sh takes the key id from AuthKey_<KEYID>.p8, and names the variable to set when one is missing")
    func encodeJWTDefaults() throws {
        let key = try dir.generateKey()
        let result = try script("encode_jwt.sh", [], ["TEAMID": "DEF123GHIJ", "KEYFILE": key])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CLI.pushctl(["jwt", "verify", try #require(result.stdoutLines.last), "--key-file", key]).status == 0)
        let missing = try script("encode_jwt.sh", [], ["KEYFILE": key])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("set TEAMID"), "\(missing.stderr)")
    }

    @Test("a copy of a script with no pushctl on PATH or in .build says how to build it")
    func pushctlMissing() throws {
        let copy = dir.path("encode_jwt.sh")
        try FileManager.default.copyItem(atPath: Repository.script("encode_jwt.sh"), toPath: copy)
        let result = try CLI.run(copy, [], env: ["PATH": "/usr/bin:/bin", "TEAMID": "DEF123GHIJ", "KEYID": "ABC123DEFG"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("swift build"), "\(result.stderr)")
    }

    @Test("send_push_notification.sh sends its alert payload to the endpoint given, signing with the key")
    func sendAlert() throws {
        let mock = try MockProcess(dir: dir)
        let result = try script("send_push_notification.sh", [], sendVariables(mock))
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(try mock.requests(count: 1).first)
        #expect(request["path"] as? String == "/3/device/\(sampleToken)")
        let headers = request["headers"] as? [String: String] ?? [:]
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-topic"] == "com.example.app")
        #expect(headers["content-type"] == nil, "no form content-type, unlike curl --data")
        let body = try JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: Any]
        let alert = (body?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect(alert?["title"] as? String == "Introducción a las notificaciones")
    }

    @Test("SILENT=1 sends the course's silent notification as a background push at priority 5")
    func sendSilent() throws {
        let mock = try MockProcess(dir: dir)
        let result = try script("send_push_notification.sh", [], sendVariables(mock, ["SILENT": "1"]))
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(try mock.requests(count: 1).first)
        let headers = request["headers"] as? [String: String] ?? [:]
        #expect(headers["apns-push-type"] == "background")
        #expect(headers["apns-priority"] == "5")
        #expect(request["body"] as? String == #"{"aps" : {"content-available" : 1}, "mensaje" : "Holaaaa"}"#)
    }

    @Test("a JWT from encode_jwt.sh is used as is; PUSHCTL_ENDPOINT/PUSHCTL_CACERT and PAYLOAD_FILE are honoured")
    func sendWithJWT() throws {
        let mock = try MockProcess(dir: dir)
        let jwt = try #require(try script("encode_jwt.sh", [], ["TEAMID": "DEF123GHIJ", "KEYFILE": mock.keyFile]).stdoutLines.last)
        let payload = Repository.payloads.appendingPathComponent("thread.json").path
        let result = try script(
            "send_push_notification.sh", ["--output", "json"],
            [
                "JWT": jwt, "BUNDLEID": "com.example.app", "DEVICETOKEN": sampleToken, "PAYLOAD_FILE": payload,
                "PUSHCTL_ENDPOINT": mock.url, "PUSHCTL_CACERT": mock.caFile,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((output?["summary"] as? [String: Any])?["accepted"] as? Int == 1, "\(result.stdout)")
        let request = try #require(try mock.requests(count: 1).first)
        #expect(request["body"] as? String == String(decoding: try Data(contentsOf: URL(fileURLWithPath: payload)), as: UTF8.self))
        // The mock logs the token's header and claims: the claims must be encode_jwt.sh's, iat included.
        var claims = jwt.split(separator: ".")[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        claims += String(repeating: "=", count: (4 - claims.count % 4) % 4)
        let claimsJSON = String(decoding: try #require(Data(base64Encoded: claims)), as: UTF8.self)
        let headers = request["headers"] as? [String: String] ?? [:]
        #expect(headers["authorization"]?.contains(claimsJSON) == true, "\(headers["authorization"] ?? "") vs \(claimsJSON)")
    }

    @Test("send_push_notification.sh names the variables to set when they are missing, and sends nothing")
    func sendMissing() throws {
        let missingDevice = try script("send_push_notification.sh", [], ["BUNDLEID": "com.example.app"])
        #expect(missingDevice.status == 64)
        #expect(missingDevice.stderr.contains("DEVICETOKEN"), "\(missingDevice.stderr)")
        let missingKey = try script("send_push_notification.sh", [], ["BUNDLEID": "com.example.app", "DEVICETOKEN": sampleToken])
        #expect(missingKey.status == 64)
        #expect(missingKey.stderr.contains("set JWT, or TEAMID"), "\(missingKey.stderr)")
    }
}
