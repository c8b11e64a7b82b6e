// The README's "Use it as a library" example, compiled with the tests; a test checks the README
// shows exactly this code between the markers.
// example-start
import PushCore
import PushEngine
import PushWords

/// Sends one alert to some devices and returns the tokens APNs called dead.
func sendAlert(
    to devices: [String], keyPath: String, endpoint: String = "https://api.sandbox.push.apple.com",
    caFile: String? = nil
) throws -> [String] {
    let template = try PushTemplate(
        PushSpec(topic: "com.example.app"),
        payload: Payload(json: .object([("aps", .object([("alert", .string("Hello from Swift"))]))])))
    let signer = SigningAuthorization(
        keyFile: try KeyFile(path: keyPath),
        keyID: try AppleIdentifier(.keyID, "ABC123DEFG"), teamID: try AppleIdentifier(.teamID, "DEF123GHIJ"),
        cache: nil)
    let (tokens, _) = try NotificationSource.tokens(devices, template: template, shard: nil)
    let plan = SendPlan(
        notifications: tokens, destination: try .endpoint(endpoint, caCertificate: caFile),
        connection: ConnectionSettings(), authorization: signer, policy: RetryPolicy())
    var dead: [String] = []
    let summary = try SendRun(plan: plan).run { result in
        // Typed: a RejectionReason to switch on, not a name to parse.
        if result.reason?.meansTokenIsDead == true, let token = result.token { dead.append(token.hex) }
    }
    print(summary.line)  // "2 tokens: 1 accepted, 1 rejected (Unregistered 1) in 95 ms"
    return dead
}

/// The lines of a tokens list that are not device tokens, each with why in Spanish; blank lines pass.
func unusableTokens(_ lines: [String]) -> [(line: String, why: String)] {
    lines.compactMap { line -> (line: String, why: String)? in
        do throws(InputError) {
            _ = try DeviceToken(parsing: line)
            return nil
        } catch {
            // The core returns a code: branch on it; the catalog (PushWords) says it in words.
            if case .empty? = error.problem(DeviceTokenProblem.self) { return nil }
            return (line, error.words.text(.es))
        }
    }
}
// example-end
