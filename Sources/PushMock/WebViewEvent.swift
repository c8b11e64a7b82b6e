import Foundation
import PushCore
import PushWords

/// What the live view shows of one request: the record as the log has it, plus what a page needs
/// to draw it (the kind of card, the app's name, the provider token's header and claims, the
/// payload as JSON, the explanation of a refusal). Never the token itself: the record keeps only
/// its header and claims.
enum WebViewEvent {
    /// The card a request gets.
    enum Kind: String {
        /// An alert a device would show as a banner.
        case alert
        /// `content-available` only: the app wakes, nothing is shown.
        case background
        /// A Live Activity start, update or end, to a device.
        case liveActivity = "liveactivity"
        /// A Live Activity update to a broadcast channel.
        case broadcast
        /// The channel management API (create, read, delete, list).
        case channel
        /// Other push types (voip, widgets, location…), accepted.
        case other
        /// Answered with an error, refused or dropped.
        case rejected
        /// Refused by pushctl before sending: nothing reached the server (the demo's too-big payload).
        case notSent = "notsent"
    }

    /// A notification pushctl refused before sending, as the page shows it: no request, the
    /// refusal's words in the mock's language, the payload's size against its limit.
    static func notSent(topic: String, deviceToken: String?, payloadBytes: Int, limit: Int, message: String, time: Date) -> String {
        var members: [(String, JSONValue)] = [
            ("time", .string(MockRequestRecord.iso8601(time))),
            ("kind", .string(Kind.notSent.rawValue)),
            ("topic", .string(bounded(topic))),
            ("app", .string(appName(topic: topic))),
            ("message", .string(bounded(message, limit: 600))),
            ("bodyBytes", .integer(Int64(payloadBytes))),
            ("limit", .integer(Int64(limit))),
        ]
        if let deviceToken { members.append(("deviceToken", .string(bounded(deviceToken)))) }
        return JSONValue.object(members).compact
    }

    static func json(_ record: MockRequestRecord, language: Language, lens: PhoneLens? = nil) -> String {
        let topic = record.header(APNsHeader.topic)
        let payload = try? JSONValue.parse(Array(record.body.utf8))
        let kind = kind(of: record, payload: payload)
        var members: [(String, JSONValue)] = [
            ("time", .string(MockRequestRecord.iso8601(record.time))),
            ("kind", .string(kind.rawValue)),
            ("method", .string(bounded(record.method))),
            ("path", .string(bounded(record.path, limit: 300))),
            ("status", .integer(Int64(record.status))),
            ("connection", .integer(Int64(record.connectionID))),
            ("stream", .integer(Int64(record.streamID))),
        ]
        if let token = deviceToken(inPath: record.path) { members.append(("deviceToken", .string(token))) }
        if let topic {
            members.append(("topic", .string(bounded(topic))))
            members.append(("app", .string(lens?.appName.map { bounded($0, limit: 40) } ?? appName(topic: topic))))
        }
        for (key, header) in [("pushType", APNsHeader.pushType), ("priority", APNsHeader.priority), ("channelID", "apns-channel-id")] {
            if let value = record.header(header) { members.append((key, .string(bounded(value)))) }
        }
        if let reason = record.reason {
            members.append(("reason", .string(bounded(reason))))
            members.append(("explanation", .string(RejectionReason(apnsName: reason).explanation.text(language))))
        }
        if let apnsID = record.apnsID { members.append(("apnsID", .string(apnsID))) }
        if let fault = record.fault { members.append(("fault", .string(bounded(fault)))) }
        if let detail = record.detail { members.append(("detail", .string(bounded(detail, limit: 400)))) }
        if let authorization = record.header(APNsHeader.authorization), let token = providerToken(authorization) {
            members.append(("jwt", .object([("header", shown(token.header)), ("claims", shown(token.claims))])))
        }
        if let certificate = record.header("tls-client-certificate") {
            members.append(("certificate", .string(bounded(certificate, limit: 400))))
        }
        members.append(("headers", .array(record.headers.map { .array([.string(bounded($0.name)), .string(bounded($0.value, limit: 1000))]) })))
        members.append(("bodyBytes", .integer(Int64(record.bodyByteCount))))
        let shownName = lens?.appName ?? topic.map { appName(topic: $0) }
        if kind == .alert, let payload,
            let preview = NotificationPreview(payload: payload, appName: shownName, localized: lens?.localized ?? { _, _ in nil })
        {
            members.append(("phone", phone(preview)))
        }
        if let lens, let payload, (200...299).contains(record.status), record.path.hasPrefix("/3/device/") || record.path.hasPrefix("/4/broadcasts/") {
            let findings = lens.findings(payload, record.header(APNsHeader.pushType).flatMap(PushType.init(rawValue:)))
            if !findings.isEmpty { members.append(("findings", .array(findings.prefix(12).map { finding($0, language: language) }))) }
        }
        if let payload {
            members.append(("payload", shown(payload)))
        } else if !record.body.isEmpty {
            members.append(("body", .string(bounded(record.body, limit: 2000))))
        }
        return JSONValue.object(members).compact
    }

    static func kind(of record: MockRequestRecord, payload: JSONValue?) -> Kind {
        guard (200...299).contains(record.status) else { return .rejected }
        if record.path.hasPrefix("/4/broadcasts/") { return .broadcast }
        if record.path.hasPrefix("/1/apps/") { return .channel }
        let aps = payload?["aps"]
        switch record.header(APNsHeader.pushType).flatMap(PushType.init(rawValue:)) {
        case .liveactivity: return .liveActivity
        case .background: return .background
        case .alert, nil:
            if aps?["alert"] != nil { return .alert }
            if aps?["content-available"] != nil { return .background }
            return .alert  // a badge or a sound alone
        default:
            return .other
        }
    }

    /// The banner as the phone lays it out (`NotificationPreview`): the lines of each part, what
    /// the phone cuts, and the screen assumed; every line `bounded`.
    static func phone(_ preview: NotificationPreview) -> JSONValue {
        func lines(_ part: NotificationPreview.Part?) -> JSONValue { .array((part?.lines ?? []).map { .string(bounded($0, limit: 400)) }) }
        let hidden = [preview.header, preview.subtitle, preview.body].compactMap { $0?.isCut == true ? $0?.hidden : nil }
        return .object([
            ("header", lines(preview.header)),
            ("headerIsApp", .bool(preview.headerIsAppName)),
            ("subtitle", lines(preview.subtitle)),
            ("body", lines(preview.body)),
            ("hidden", .array(hidden.map { .string(bounded($0, limit: 400)) })),
            ("screen", .string("\(preview.screen.device), \(preview.screen.points) pt")),
        ])
    }

    /// A finding as the page shows it: its severity (the card's colour), the field, and its words
    /// in the mock's language.
    static func finding(_ finding: AppFinding, language: Language) -> JSONValue {
        .object([
            ("severity", .string(finding.severity.rawValue)),
            ("field", .string(bounded(finding.field))),
            ("text", .string(bounded(finding.text.text(language), limit: 600))),
        ])
    }

    /// The device token of `/3/device/<token>`, bounded (the page shows it and filters on it).
    static func deviceToken(inPath path: String) -> String? {
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return nil }
        return bounded(String(path.dropFirst(prefix.count)), limit: 200)
    }

    /// What a banner calls the app: the bundle id's last part, without a push type's suffix,
    /// capitalised (`com.example.demo.push-type.liveactivity` is "Demo"). iOS shows the display
    /// name, which only the app knows.
    static func appName(topic: String) -> String {
        var bundle = topic
        if let suffix = PushType.allCases.compactMap(\.topicSuffix).first(where: { topic.hasSuffix($0) && topic.count > $0.count }) {
            bundle = String(topic.dropLast(suffix.count))
        }
        let last = bundle.split(separator: ".").last.map(String.init) ?? bundle
        return bounded(last.prefix(1).uppercased() + last.dropFirst(), limit: 40)
    }

    /// The header and claims of `bearer <header JSON> <claims JSON>` (the record's form of the
    /// authorization), nil for anything else.
    static func providerToken(_ loggable: String) -> (header: JSONValue, claims: JSONValue)? {
        guard loggable.hasPrefix("bearer {") else { return nil }
        let text = Substring(loggable.dropFirst("bearer ".count))
        // The header's JSON ends at one of the "} {" in the text: try the first few.
        var searchStart = text.startIndex
        for _ in 0..<8 {
            guard let gap = text.range(of: "} {", range: searchStart..<text.endIndex) else { return nil }
            let headerEnd = text.index(after: gap.lowerBound)
            if let header = try? JSONValue.parse(String(text[..<headerEnd])),
                let claims = try? JSONValue.parse(String(text[text.index(before: gap.upperBound)...]))
            {
                return (header, claims)
            }
            searchStart = gap.upperBound
        }
        return nil
    }

    /// A JSON value from a request as the page may show it: every string and key `bounded`, so
    /// that a payload's title or a token's claim can neither reorder the page's text (bidi
    /// overrides) nor carry a control character into it.
    static func shown(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(bounded(text, limit: 2000))
        case .array(let items): return .array(items.map(shown))
        case .object(let members): return .object(members.map { (bounded($0.0), shown($0.1)) })
        case .null, .bool, .integer, .number: return value
        }
    }

    /// Outside text as the page may show it: no control characters, bounded.
    private static func bounded(_ text: some StringProtocol, limit: Int = 200) -> String {
        OutsideText.display(text, limit: limit)
    }
}
