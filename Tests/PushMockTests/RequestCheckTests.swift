import Foundation
import PushCore
import PushMock
import Testing

/// One mock for the table-driven checks; each case is independent of the others.
private let shared = Task { try await Harness.start() }

/// A request that breaks one rule, and what APNs answers.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: String
    var method = "POST"
    var path = "/3/device/\(sampleToken)"
    var body: String? = #"{"aps":{"alert":"Hello"}}"#
    var headers: @Sendable (Harness) throws -> [(String, String)] = { $0.standardHeaders }
    let status: Int
    let reason: String

    var testDescription: String { "\(rule) → \(status) \(reason)" }
}

extension Array where Element == (String, String) {
    func setting(_ name: String, _ value: String?) -> [(String, String)] {
        var copy = filter { $0.0 != name }
        if let value { copy.append((name, value)) }
        return copy
    }
}

/// `{"aps":{"alert":"xxx…"}}` of exactly `size` bytes.
func payload(bytes size: Int) -> String {
    let frame = #"{"aps":{"alert":""}}"#
    return #"{"aps":{"alert":""# + String(repeating: "x", count: size - frame.utf8.count) + #""}}"#
}

let ruleCases: [RuleCase] = [
    RuleCase(rule: "GET instead of POST", method: "GET", body: nil, status: 405, reason: "MethodNotAllowed"),
    RuleCase(rule: "path outside /3/device", path: "/3/devices/\(sampleToken)", status: 404, reason: "BadPath"),
    RuleCase(rule: "no token in the path", path: "/3/device/", status: 400, reason: "MissingDeviceToken"),
    RuleCase(rule: "token not hex", path: "/3/device/zz\(sampleToken.dropFirst(2))", status: 400, reason: "BadDeviceToken"),
    RuleCase(rule: "token of odd length", path: "/3/device/abc", status: 400, reason: "BadDeviceToken"),
    // APNs issues tokens of 32 bytes (or more): it could never have issued a shorter one.
    RuleCase(rule: "token of 2 bytes", path: "/3/device/1234", status: 400, reason: "BadDeviceToken"),
    RuleCase(rule: "token of 5 bytes", path: "/3/device/0badbadbad", status: 400, reason: "BadDeviceToken"),
    RuleCase(rule: "token of 31 bytes", path: "/3/device/\(sampleToken.dropLast(2))", status: 400, reason: "BadDeviceToken"),
    RuleCase(rule: "apns-topic sent twice", headers: { $0.standardHeaders + [("apns-topic", "com.example.other")] }, status: 400, reason: "DuplicateHeaders"),
    RuleCase(rule: "no authorization", headers: { $0.standardHeaders.setting("authorization", nil) }, status: 403, reason: "MissingProviderToken"),
    RuleCase(
        rule: "not a bearer token", headers: { $0.standardHeaders.setting("authorization", "Basic dXNlcjpwYXNz") }, status: 403, reason: "InvalidProviderToken"),
    RuleCase(rule: "not a JWT", headers: { $0.standardHeaders.setting("authorization", "bearer abc.def") }, status: 403, reason: "InvalidProviderToken"),
    RuleCase(
        rule: "signed by another key with the same kid",
        headers: { h in
            let other = try TestKey.swiftCrypto(
                in: h.folder.appendingPathComponent("other-\(UUID().uuidString)", isDirectory: true).creatingDirectory(), keyID: h.key.keyID)
            return h.standardHeaders.setting("authorization", "bearer " + (try other.rawToken(team: sampleTeam)))
        },
        status: 403, reason: "InvalidProviderToken"),
    RuleCase(
        rule: "unknown key id",
        headers: { h in
            let other = try TestKey.swiftCrypto(in: h.folder)
            return h.standardHeaders.setting("authorization", "bearer " + (try other.rawToken(team: sampleTeam)))
        },
        status: 403, reason: "InvalidProviderToken"),
    RuleCase(
        rule: "another team",
        headers: { h in h.standardHeaders.setting("authorization", "bearer " + (try h.key.rawToken(team: "OTHER12345"))) },
        status: 403, reason: "InvalidProviderToken"),
    RuleCase(
        rule: "alg HS256",
        headers: { h in
            let token = signingInput(keyID: h.key.keyID, team: sampleTeam, issuedAt: now(), alg: "HS256") + "." + h.token.split(separator: ".")[2]
            return h.standardHeaders.setting("authorization", "bearer " + token)
        },
        status: 403, reason: "InvalidProviderToken"),
    RuleCase(
        rule: "DER signature altered",
        headers: { h in
            var parts = try h.key.openSSLToken(team: sampleTeam).split(separator: ".").map(String.init)
            var signature = Base64URL.decode(parts[2])!
            signature[signature.count - 1] ^= 0x01
            parts[2] = Base64URL.encode(signature)
            return h.standardHeaders.setting("authorization", "bearer " + parts.joined(separator: "."))
        },
        status: 403, reason: "InvalidProviderToken"),
    RuleCase(
        rule: "token issued 61 minutes ago",
        headers: { h in h.standardHeaders.setting("authorization", "bearer " + (try h.key.rawToken(team: sampleTeam, issuedAt: now() - 61 * 60))) },
        status: 403, reason: "ExpiredProviderToken"),
    RuleCase(rule: "no apns-topic", headers: { $0.standardHeaders.setting("apns-topic", nil) }, status: 400, reason: "MissingTopic"),
    RuleCase(rule: "unknown push type", headers: { $0.standardHeaders.setting("apns-push-type", "banner") }, status: 400, reason: "InvalidPushType"),
    RuleCase(rule: "voip without the .voip topic", headers: { $0.standardHeaders.setting("apns-push-type", "voip") }, status: 400, reason: "BadTopic"),
    RuleCase(rule: "alert to a .voip topic", headers: { $0.standardHeaders.setting("apns-topic", sampleTopic + ".voip") }, status: 400, reason: "BadTopic"),
    RuleCase(rule: "priority 7", headers: { $0.standardHeaders.setting("apns-priority", "7") }, status: 400, reason: "BadPriority"),
    RuleCase(
        rule: "background at priority 10",
        body: #"{"aps":{"content-available":1}}"#,
        headers: { $0.standardHeaders.setting("apns-push-type", "background").setting("apns-priority", "10") },
        status: 400, reason: "BadPriority"),
    RuleCase(
        rule: "collapse id of 65 bytes", headers: { $0.standardHeaders.setting("apns-collapse-id", String(repeating: "c", count: 65)) }, status: 400,
        reason: "BadCollapseId"),
    RuleCase(rule: "apns-id not a UUID", headers: { $0.standardHeaders.setting("apns-id", "message-1") }, status: 400, reason: "BadMessageId"),
    RuleCase(
        rule: "expiration not an integer", headers: { $0.standardHeaders.setting("apns-expiration", "tomorrow") }, status: 400, reason: "BadExpirationDate"),
    RuleCase(rule: "empty body", body: "", status: 400, reason: "PayloadEmpty"),
    RuleCase(rule: "alert of 4097 bytes", body: payload(bytes: 4097), status: 413, reason: "PayloadTooLarge"),
    RuleCase(
        rule: "voip of 5121 bytes", body: payload(bytes: 5121),
        headers: { $0.standardHeaders.setting("apns-push-type", "voip").setting("apns-topic", sampleTopic + ".voip") },
        status: 413, reason: "PayloadTooLarge"),
    RuleCase(rule: "body of 2 MB", body: payload(bytes: 2 << 20), status: 413, reason: "PayloadTooLarge"),
]

/// A request right at a limit, which APNs accepts.
struct EdgeCase: Sendable, CustomTestStringConvertible {
    let name: String
    var path = "/3/device/\(sampleToken)"
    let body: String
    let changes: [(String, String)]
    var testDescription: String { name }
}

let edgeCases = [
    EdgeCase(name: "background at priority 5", body: #"{"aps":{"content-available":1}}"#, changes: [("apns-push-type", "background"), ("apns-priority", "5")]),
    EdgeCase(name: "alert of exactly 4096 bytes", body: payload(bytes: 4096), changes: []),
    EdgeCase(name: "voip of exactly 5120 bytes", body: payload(bytes: 5120), changes: [("apns-push-type", "voip"), ("apns-topic", sampleTopic + ".voip")]),
    EdgeCase(name: "collapse id of 64 bytes", body: #"{"aps":{"alert":"Hi"}}"#, changes: [("apns-collapse-id", String(repeating: "c", count: 64))]),
    EdgeCase(name: "expiration 0 and priority 1", body: #"{"aps":{"alert":"Hi"}}"#, changes: [("apns-expiration", "0"), ("apns-priority", "1")]),
    EdgeCase(
        name: "a token of 100 bytes (Apple says sizes may grow)", path: "/3/device/" + String(repeating: "ab", count: 100), body: #"{"aps":{"alert":"Hi"}}"#,
        changes: []),
    EdgeCase(
        name: "widgets to its topic", body: #"{"aps":{"content-changed":true}}"#,
        changes: [("apns-push-type", "widgets"), ("apns-topic", sampleTopic + ".push-type.widgets")]),
]

extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}

@Suite("What the mock checks")
struct RequestCheckTests {
    @Test(arguments: ruleCases)
    func refusesRequestBreakingARule(_ rule: RuleCase) async throws {
        let harness = try await shared.value
        let response = try harness.send(method: rule.method, path: rule.path, headers: try rule.headers(harness), body: rule.body)
        #expect(response.status == rule.status, "\(response.stderr)")
        #expect(response.reason == rule.reason)
        #expect(response.headers["content-type"] == "application/json")
        #expect(isUUID(response.headers["apns-id"]))
        #expect(response.json?["timestamp"] == nil, "only 410 carries a timestamp")
    }

    /// Requests at the edge of each rule, which APNs accepts.
    @Test(arguments: edgeCases)
    func acceptsRequestAtTheEdge(_ edge: EdgeCase) async throws {
        let harness = try await shared.value
        var headers = harness.standardHeaders
        for (header, value) in edge.changes { headers = headers.setting(header, value) }
        let response = try harness.send(path: edge.path, headers: headers, body: edge.body)
        #expect(response.status == 200, "\(response.body) \(response.stderr)")
        #expect(response.body.isEmpty)
        #expect(isUUID(response.headers["apns-id"]))
    }

    @Test func echoesTheClientsApnsIDAndAddsAUniqueID() async throws {
        let harness = try await shared.value
        let id = UUID().uuidString
        let response = try harness.send(headers: harness.standardHeaders.setting("apns-id", id))
        #expect(response.status == 200)
        #expect(response.headers["apns-id"] == id)
        #expect(isUUID(response.headers["apns-unique-id"]))

        let second = try harness.send()
        #expect(isUUID(second.headers["apns-id"]))
        #expect(second.headers["apns-id"] != id)
    }

    @Test func acceptsTokenNearlyAnHourOld() async throws {
        let harness = try await shared.value
        let token = try harness.key.rawToken(team: sampleTeam, issuedAt: now() - 59 * 60)
        let response = try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer \(token)"))
        #expect(response.status == 200, "\(response.body)")
    }

    @Test func acceptsTokensSignedByOpenSSLInDERAndByJOSEInRawForm() async throws {
        // The key comes from the openssl command line, the way the course's shell scripts made it.
        try await withHarness(keyMaker: { try TestKey.openSSL(in: $0) }) { harness in
            let der = try harness.key.openSSLToken(team: sampleTeam)
            let derSignature = Base64URL.decode(der.split(separator: ".")[2])!
            #expect(derSignature.count != 64 && derSignature.first == 0x30, "openssl signs in DER")
            let raw = try harness.key.rawToken(team: sampleTeam)

            for token in [der, raw] {
                let response = try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer \(token)"))
                #expect(response.status == 200, "\(response.body)")
            }
        }
    }

    @Test func answers410WithTheTimeTheTokenWentStale() async throws {
        let dead = try DeviceToken(parsing: String(repeating: "de", count: 32))
        try await withHarness(configure: { $0.faults.failTokens = [dead: .unregistered] }) { harness in
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            let response = try harness.send(path: "/3/device/\(dead.hex)")
            let after = Int64(Date().timeIntervalSince1970 * 1000)

            #expect(response.status == 410)
            #expect(response.reason == "Unregistered")
            #expect(response.headers["content-type"] == "application/json")
            #expect(isUUID(response.headers["apns-id"]))
            let timestamp = try #require(response.json?["timestamp"]?.integerValue)
            #expect(timestamp >= before && timestamp <= after, "timestamp is milliseconds since 1970")
            // Other tokens are unaffected.
            #expect(try harness.send().status == 200)
        }
    }

    @Test func checksOnlyTheTokensShapeWithoutKeys() async throws {
        try await withHarness(configure: {
            $0.providerKeys = []
            $0.teamID = nil
        }) { harness in
            // Any signer will do; the shape and the age still count.
            let stranger = try TestKey.swiftCrypto(in: harness.folder)
            #expect(
                try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer " + (try stranger.rawToken(team: "ANYTEAM123")))).status
                    == 200)
            let badShape = signingInput(keyID: "short", team: sampleTeam, issuedAt: now()) + "." + Base64URL.encode([UInt8](repeating: 1, count: 64))
            let refused = try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer \(badShape)"))
            #expect(refused.status == 403 && refused.reason == "InvalidProviderToken")
            let old = try stranger.rawToken(team: sampleTeam, issuedAt: now() - 2 * 3600)
            #expect(try harness.send(headers: harness.standardHeaders.setting("authorization", "bearer \(old)")).reason == "ExpiredProviderToken")
        }
    }

    @Test func aFailRuleForATokenAPNsCouldNotHaveIssuedIsAUsageError() throws {
        // The rule could never fire: the token gets 400 BadDeviceToken first.
        do {
            _ = try MockFaults.parseFailure("0badbadbad=Unregistered")
            Issue.record("a 5-byte token was taken")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.text(.en).contains("5 bytes"), "\(error.text(.en))")
        }
        #expect(try MockFaults.parseFailure("\(sampleToken)=unregistered").1 == .unregistered)
        #expect(try MockFaults.parseReason("shutdown") == .shutdown)
    }

    @Test func refusesHTTP1() async throws {
        let harness = try await shared.value
        let response = try harness.send(extraArguments: ["--http1.1"])
        #expect(response.curlStatus != 0, "the mock must not answer HTTP/1.1")
        #expect(response.status <= 0)
    }
}
