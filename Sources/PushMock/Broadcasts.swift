import Foundation
import NIOConcurrencyHelpers
import PushCore
import PushWords

/// The channel management API and broadcast sends (iOS 18), with APNs' checks in APNs' order:
/// authentication, method and path, the bundle id (no push-type suffix), the channel id, then
/// the body. Channels live in memory, per bundle id, up to ``limit`` in all.
final class MockBroadcasts: Sendable {
    struct Channel: Sendable {
        let id: String
        let storage: Int64
    }

    /// What to answer: a status with headers and a body, or an APNs reason.
    struct Answer {
        var status = 200
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        var reason: RejectionReason?
        /// For the log: what a device would drop (Live Activity lint), or which check failed.
        var detail: String?
    }

    let limit: Int
    private let channels = NIOLockedValueBox<[String: [Channel]]>([:])
    /// The language of what the log says a device would drop.
    let language: Language
    init(limit: Int, language: Language = .en) {
        self.limit = limit
        self.language = language
    }

    static func handles(_ path: String) -> Bool { path.hasPrefix("/1/apps/") || path.hasPrefix("/4/broadcasts/apps/") }

    func answer(_ head: RequestHead, body: [UInt8], bodyByteCount: Int, now: Int64) -> Answer {
        let path = head.path ?? ""
        let method = head.method ?? ""
        var answer = Answer()
        func refuse(_ reason: RejectionReason, _ detail: String? = nil) -> Answer {
            var refused = Answer()
            refused.reason = reason
            refused.detail = detail
            return refused
        }
        if head.duplicate != nil { return refuse(.duplicateHeaders) }
        if let requestID = head.requestID, !PushTemplate.isCanonicalUUID(requestID) {
            return refuse(.badRequestParams, "apns-request-id is not a UUID")
        }
        let requestID = head.requestID?.lowercased() ?? nextRequestID()
        answer.headers.append(("apns-request-id", requestID))

        guard let (bundle, operation) = Self.route(path) else { return refuse(.badPath) }
        if PushType.allCases.contains(where: { $0.topicSuffix.map(bundle.hasSuffix) ?? false }) {
            return refuse(.topicDisallowed, "the bundle id in the path carries a push-type suffix")
        }

        switch (operation, method) {
        case ("all-channels", "GET"):
            let ids = channels.withLockedValue { $0[bundle] ?? [] }.map { JSONValue.string($0.id) }
            answer.body = JSONValue.object([("channels", .array(ids))]).compactBytes
            answer.headers.append(("content-type", "application/json"))
            return answer

        case ("channels", "POST"):
            return create(bundle: bundle, body: body, answer: answer)

        case ("channels", "GET"), ("channels", "DELETE"), ("broadcast", "POST"):
            guard let id = head.channelID else { return refuse(.missingChannelId) }
            guard (try? BroadcastAPI.channelID(id, name: "apns-channel-id")) != nil else { return refuse(.badChannelId) }
            guard let channel = channels.withLockedValue({ $0[bundle]?.first { $0.id == id } }) else {
                return refuse(.channelNotRegistered)
            }
            if method == "DELETE" {
                channels.withLockedValue { $0[bundle]?.removeAll { $0.id == id } }
                answer.status = 204
                return answer
            }
            if method == "GET" {
                answer.body = JSONValue.object([("message-storage-policy", .integer(channel.storage)), ("push-type", .string("LiveActivity"))]).compactBytes
                answer.headers.append(("content-type", "application/json"))
                return answer
            }
            return broadcast(head, channel: channel, body: body, bodyByteCount: bodyByteCount, now: now, answer: answer)

        default:
            return refuse(.methodNotAllowed)
        }
    }

    /// `/1/apps/<bundle>/channels`, `/1/apps/<bundle>/all-channels`, `/4/broadcasts/apps/<bundle>`:
    /// the bundle id and the operation (`channels`, `all-channels`, `broadcast`); nil for another path.
    static func route(_ path: String) -> (bundle: String, operation: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 else { return nil }
        if parts[1] == "1", parts[2] == "apps", ["channels", "all-channels"].contains(parts[4]), !parts[3].isEmpty {
            return (parts[3], parts[4])
        }
        if parts[1] == "4", parts[2] == "broadcasts", parts[3] == "apps", !parts[4].isEmpty {
            return (parts[4], "broadcast")
        }
        return nil
    }

    /// POST /1/apps/<bundle>/channels: a new channel, within the environment's limit.
    private func create(bundle: String, body: [UInt8], answer: Answer) -> Answer {
        var answer = answer
        func refuse(_ reason: RejectionReason, _ detail: String) -> Answer {
            var refused = Answer()
            refused.reason = reason
            refused.detail = detail
            return refused
        }
        guard let json = try? JSONValue.parse(body), json.objectMembers != nil else {
            return refuse(.badRequestPayload, "the body is not a JSON object")
        }
        guard let code = json["message-storage-policy"]?.integerValue, code == 0 || code == 1,
            json["push-type"]?.stringValue == "LiveActivity"
        else {
            return refuse(.badRequestParams, "message-storage-policy must be 0 or 1 and push-type LiveActivity")
        }
        let id = nextChannelID()
        let made = channels.withLockedValue { all -> Bool in
            guard all.values.reduce(0, { $0 + $1.count }) < limit else { return false }
            all[bundle, default: []].append(Channel(id: id, storage: code))
            return true
        }
        guard made else { return refuse(.cannotCreateChannelConfig, "\(limit) channels in this environment already") }
        answer.status = 201
        answer.headers.append(("apns-channel-id", id))
        return answer
    }

    private func broadcast(_ head: RequestHead, channel: Channel, body: [UInt8], bodyByteCount: Int, now: Int64, answer: Answer) -> Answer {
        var answer = answer
        func refuse(_ reason: RejectionReason, _ detail: String? = nil) -> Answer {
            var refused = answer
            refused.reason = reason
            refused.detail = detail
            return refused
        }
        guard let type = head.pushType else { return refuse(.missingPushType) }
        guard type == PushType.liveactivity.rawValue else { return refuse(.invalidPushType, "broadcasts are liveactivity") }
        guard let text = head.priority, let value = Int(text), value == 10 || value == 5 else { return refuse(.badPriority) }
        guard let expiration = head.expiration, let seconds = Int64(expiration), seconds >= 0 else {
            return refuse(.badExpirationDate, "apns-expiration is required on a broadcast")
        }
        if channel.storage == 0 && seconds != 0 {
            return refuse(.badExpirationDate, "a channel without storage takes apns-expiration 0 only")
        }
        if bodyByteCount == 0 { return refuse(.payloadEmpty) }
        if bodyByteCount > BroadcastAPI.payloadLimit { return refuse(.payloadTooLarge) }
        // APNs answers 200 to a malformed Live Activity; the log says what a device would drop.
        if let json = try? JSONValue.parse(body) {
            let problems = LiveActivityLint.findings(json, priority: value == 10 ? .immediate : .considerate, now: now).filter(\.isError)
            if !problems.isEmpty { answer.detail = LiveActivityLint.dropped(problems.map(\.message)).text(language) }
        } else {
            answer.detail = LiveActivityLint.dropped([LiveActivityLint.payloadNotJSON]).text(language)
        }
        answer.headers.append(("apns-unique-id", nextRequestID()))
        return answer
    }

    /// A random-looking base64 id, as APNs' channel ids are.
    private func nextChannelID() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    private func nextRequestID() -> String { UUID().uuidString.lowercased() }
}
