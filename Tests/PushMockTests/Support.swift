import ChildProcess
import Crypto
import Foundation
import PushCore
import PushMock
import PushWords

// Helpers that drive the mock with tools nobody here wrote: curl, nghttp, openssl.

enum TestFailure: Error, CustomStringConvertible {
    case tool(String)
    var description: String { if case .tool(let text) = self { return text } else { return "" } }
}

/// A fresh temporary folder for one test's files.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushmock-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

struct ToolResult {
    let status: Int32
    let stdout: Data
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs a program to completion. Output goes through files, so a chatty tool cannot block on a full pipe.
/// `environment` replaces this process's, when given.
func runTool(_ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) throws -> ToolResult {
    let folder = FileManager.default.temporaryDirectory
    let outURL = folder.appendingPathComponent("tool-out-\(UUID().uuidString)")
    let errURL = folder.appendingPathComponent("tool-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    process.waitUntilExit()
    return ToolResult(
        status: process.terminationStatus,
        stdout: try Data(contentsOf: outURL),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

// MARK: - Keys and tokens

/// A provider key on disk as `AuthKey_<ID>.p8`, made by swift-crypto or by the openssl command line.
struct TestKey: Sendable {
    let keyID: String
    let path: String

    static func swiftCrypto(in folder: URL, keyID: String = randomIdentifier()) throws -> TestKey {
        let path = folder.appendingPathComponent("AuthKey_\(keyID).p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
        return TestKey(keyID: keyID, path: path)
    }

    static func openSSL(in folder: URL, keyID: String = randomIdentifier()) throws -> TestKey {
        let path = folder.appendingPathComponent("AuthKey_\(keyID).p8").path
        let result = try runTool(
            "/bin/sh",
            ["-c", "openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out '\(path)'"])
        guard result.status == 0 else { throw TestFailure.tool("openssl could not make a key: \(result.stderr)") }
        return TestKey(keyID: keyID, path: path)
    }

    var mockKey: MockProviderKey {
        get throws { try MockProviderKey.load(spec: path) }
    }

    /// A provider token signed with swift-crypto: raw r‖s, as JOSE wants.
    func rawToken(team: String, issuedAt: Int64 = now()) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: path, encoding: .utf8))
        let input = signingInput(keyID: keyID, team: team, issuedAt: issuedAt)
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(Array(signature))
    }

    /// A provider token signed by `openssl dgst -sha256 -sign`: a DER signature, as the course's shell script made them.
    func openSSLToken(team: String, issuedAt: Int64 = now()) throws -> String {
        let input = signingInput(keyID: keyID, team: team, issuedAt: issuedAt)
        let result = try runTool(Tool.path("openssl"), ["dgst", "-sha256", "-sign", path], stdin: Data(input.utf8))
        guard result.status == 0 else { throw TestFailure.tool("openssl could not sign: \(result.stderr)") }
        return input + "." + Base64URL.encode(Array(result.stdout))
    }
}

func signingInput(keyID: String, team: String, issuedAt: Int64, alg: String = "ES256") -> String {
    Base64URL.encode(#"{"alg":"\#(alg)","kid":"\#(keyID)"}"#) + "." + Base64URL.encode(#"{"iss":"\#(team)","iat":\#(issuedAt)}"#)
}

func randomIdentifier() -> String {
    var generator = SystemRandomNumberGenerator()
    return AppleIdentifier.random(using: &generator)
}

func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

let sampleToken = String(repeating: "0123456789abcdef", count: 4)
let sampleTeam = "TEAM123456"
let sampleTopic = "com.example.app"

// MARK: - A running mock and curl against it

/// A mock with one key, its CA written to disk, and curl pointed at it.
struct Harness: Sendable {
    let server: MockAPNsServer
    let folder: URL
    let caPath: String
    let key: TestKey
    let token: String

    static func start(
        keyMaker: (URL) throws -> TestKey = { try TestKey.swiftCrypto(in: $0) },
        configure: (inout MockAPNsConfiguration) -> Void = { _ in }
    ) async throws -> Harness {
        let folder = try makeTemporaryDirectory()
        let key = try keyMaker(folder)
        var configuration = MockAPNsConfiguration(providerKeys: [try key.mockKey], teamID: sampleTeam)
        // No idle timeout unless a test sets one: while the rest of the suite holds the test
        // threads (child processes waited for), a test can wait minutes between two frames, and its
        // connection must not be closed as idle for it.
        configuration.limits.idleTimeoutMilliseconds = nil
        configure(&configuration)
        let server = try await MockAPNsServer.start(configuration)
        let caPath = folder.appendingPathComponent("ca.pem").path
        try server.caCertificatePEM.write(toFile: caPath, atomically: true, encoding: .utf8)
        return Harness(server: server, folder: folder, caPath: caPath, key: key, token: try key.rawToken(team: sampleTeam))
    }

    func stop() async throws {
        try await server.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The headers pushctl sends for an alert.
    var standardHeaders: [(String, String)] {
        [("authorization", "bearer \(token)"), ("apns-topic", sampleTopic), ("apns-push-type", "alert"), ("apns-priority", "10")]
    }

    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String
        let curlStatus: Int32
        let stderr: String

        var reason: String? { (try? JSONValue.parse(body))?["reason"]?.stringValue }
        var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// One request with `curl --http2 --cacert`. `headers: nil` sends the standard ones.
    func send(
        method: String = "POST", path: String = "/3/device/\(sampleToken)", headers: [(String, String)]? = nil,
        body: String? = #"{"aps":{"alert":"Hello"}}"#, extraArguments: [String] = []
    ) throws -> Response {
        let id = UUID().uuidString
        let bodyOut = folder.appendingPathComponent("body-\(id)").path
        let headersOut = folder.appendingPathComponent("headers-\(id)").path
        var arguments = [
            "--http2", "--cacert", caPath, "-s", "-S", "-o", bodyOut, "-D", headersOut, "-w", "%{http_code}",
            "-X", method, "--max-time", "20",
        ]
        for (name, value) in headers ?? standardHeaders { arguments += ["-H", "\(name): \(value)"] }
        if let body {
            let bodyIn = folder.appendingPathComponent("request-\(id)").path
            try body.write(toFile: bodyIn, atomically: true, encoding: .utf8)
            arguments += ["--data-binary", "@\(bodyIn)", "-H", "content-type:"]
        }
        arguments += extraArguments
        arguments.append(server.url + path)
        let result = try runTool(Tool.path("curl"), arguments)
        var responseHeaders: [String: String] = [:]
        if let text = try? String(contentsOfFile: headersOut, encoding: .utf8) {
            for line in text.split(whereSeparator: \.isNewline) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                responseHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Response(
            status: Int(result.text) ?? -1,
            headers: responseHeaders,
            body: (try? String(contentsOfFile: bodyOut, encoding: .utf8)) ?? "",
            curlStatus: result.status,
            stderr: result.stderr)
    }

    /// `nghttp -v`: every frame the mock sends, as text.
    /// `timeout` bounds the wait for answers (seconds), for a server that sends none.
    func nghttp(
        requests: Int = 1, headers: [(String, String)]? = nil, body: String = #"{"aps":{"alert":"Hello"}}"#, timeout: Int = 20
    ) throws -> String {
        let bodyIn = folder.appendingPathComponent("nghttp-\(UUID().uuidString)").path
        try body.write(toFile: bodyIn, atomically: true, encoding: .utf8)
        var arguments = ["-v", "-n", "-m", String(requests), "-d", bodyIn, "-t", String(timeout)]
        for (name, value) in headers ?? standardHeaders { arguments += ["-H", "\(name): \(value)"] }
        arguments.append(server.url + "/3/device/\(sampleToken)")
        return try runTool(Tool.path("nghttp"), arguments).text
    }
}

func isUUID(_ text: String?) -> Bool {
    guard let text else { return false }
    return UUID(uuidString: text) != nil
}

/// Runs `body` against a fresh mock and stops the mock afterwards, whatever happens.
func withHarness<T>(
    keyMaker: (URL) throws -> TestKey = { try TestKey.swiftCrypto(in: $0) },
    configure: (inout MockAPNsConfiguration) -> Void = { _ in },
    _ body: (Harness) async throws -> T
) async throws -> T {
    let harness = try await Harness.start(keyMaker: keyMaker, configure: configure)
    do {
        let result = try await body(harness)
        try await harness.stop()
        return result
    } catch {
        try? await harness.stop()
        throw error
    }
}
