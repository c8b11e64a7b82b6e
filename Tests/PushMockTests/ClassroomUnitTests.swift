import ChildProcess
import Foundation
import PushCore
import PushWords
import Testing

@testable import PushMock

@Suite struct MockNetworkTests {
    typealias Address = MockNetwork.InterfaceAddress
    let addresses = [
        Address(interface: "lo", address: "127.0.0.1", isIPv6: false, isLoopback: true, isLinkLocal: false),
        Address(interface: "lo", address: "::1", isIPv6: true, isLoopback: true, isLinkLocal: false),
        Address(interface: "eth0", address: "fe80::1", isIPv6: true, isLoopback: false, isLinkLocal: true),
        Address(interface: "eth0", address: "fd00::2", isIPv6: true, isLoopback: false, isLinkLocal: false),
        Address(interface: "wlan0", address: "192.168.1.20", isIPv6: false, isLoopback: false, isLinkLocal: false),
    ]

    @Test("loopback and wildcard hosts")
    func hosts() {
        for host in ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"] { #expect(MockNetwork.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "::", "192.168.1.20", "classroom.local"] { #expect(!MockNetwork.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "::", "[::]"] { #expect(MockNetwork.isWildcard(host), "\(host)") }
        #expect(!MockNetwork.isWildcard("127.0.0.1"))
    }

    @Test("the address to print: the host itself, else IPv4 beyond loopback, never link-local; nil when there is none")
    func reachable() {
        #expect(MockNetwork.reachableAddress(listeningOn: "0.0.0.0", addresses: addresses) == "192.168.1.20")
        #expect(MockNetwork.reachableAddress(listeningOn: "::", addresses: addresses) == "192.168.1.20")
        #expect(MockNetwork.reachableAddress(listeningOn: "::", addresses: Array(addresses.prefix(4))) == "fd00::2")
        #expect(MockNetwork.reachableAddress(listeningOn: "0.0.0.0", addresses: Array(addresses.prefix(4))) == nil)
        #expect(MockNetwork.reachableAddress(listeningOn: "0.0.0.0", addresses: Array(addresses.prefix(2))) == nil)
        #expect(MockNetwork.reachableAddress(listeningOn: "10.1.2.3", addresses: addresses) == "10.1.2.3")
        #expect(MockNetwork.url(scheme: "https", host: "fd00::2", port: 8443) == "https://[fd00::2]:8443")
        #expect(MockNetwork.url(scheme: "http", host: "192.168.1.20", port: 80) == "http://192.168.1.20:80")
    }

    @Test("certificate names: beyond loopback the host name and every address, then --san; on loopback only --san")
    func names() {
        let lan = MockNetwork.certificateNames(listeningOn: "0.0.0.0", extra: ["classroom.local", "192.168.1.20"], addresses: addresses, hostName: "teacher")
        #expect(lan == ["teacher", "fe80::1", "fd00::2", "192.168.1.20", "classroom.local"])
        let one = MockNetwork.certificateNames(listeningOn: "10.0.0.5", extra: [], addresses: [], hostName: nil)
        #expect(one == ["10.0.0.5"])
        #expect(MockNetwork.certificateNames(listeningOn: "127.0.0.1", extra: ["x.test"], addresses: addresses, hostName: "teacher") == ["x.test"])
        // This machine: getifaddrs always finds loopback.
        #expect(MockNetwork.interfaceAddresses().contains { $0.address == "127.0.0.1" && $0.isLoopback })
    }

    @Test("--san takes addresses and host names, nothing else")
    func sanValues() {
        for good in ["192.168.1.20", "fd00::2", "[fd00::2]", "teacher", "classroom.local", "*.classroom.local", "a-b.c"] {
            #expect(throws: Never.self, "\(good)") { try MockNetwork.checkCertificateName(good) }
        }
        for bad in ["", "two words", "-lead.example", "trail-.example", "a..b", "x/y", String(repeating: "a", count: 64) + ".example"] {
            #expect(throws: InputError.self, "\(bad)") { try MockNetwork.checkCertificateName(bad) }
        }
    }

    @Test("the server certificate names the extra hosts and addresses")
    func certificateCarriesNames() throws {
        let made = try MockCertificates.make(names: ["teacher", "192.168.1.20", "fd00::2"])
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("server.pem")
        try Data(made.serverCertificatePEM.utf8).write(to: file)
        let text = try runTool(Tool.path("openssl"), ["x509", "-in", file.path, "-noout", "-ext", "subjectAltName"]).text
        for name in ["DNS:localhost", "IP Address:127.0.0.1", "DNS:teacher", "IP Address:192.168.1.20", "IP Address:FD00:0:0:0:0:0:0:2"] {
            #expect(text.contains(name), "\(name) in \(text)")
        }
        let ca = folder.appendingPathComponent("ca.pem")
        try Data(made.caPEM.utf8).write(to: ca)
        let openssl = try runTool(Tool.path("openssl"), ["x509", "-in", ca.path, "-noout", "-fingerprint", "-sha256"]).text
        #expect(openssl.contains("=" + (MockCertificateFingerprint.sha256(pem: made.caPEM) ?? "none")), "\(openssl)")
        #expect(MockCertificateFingerprint.sha256(pem: "no certificate") == nil)
    }
}

@Suite struct WebViewEventTests {
    func record(
        path: String = "/3/device/" + String(repeating: "ab", count: 32), status: Int = 200, reason: String? = nil,
        headers: [(String, String)], body: String
    ) -> MockRequestRecord {
        MockRequestRecord(
            time: Date(timeIntervalSince1970: 1_800_000_000), connectionID: 1, streamID: 1, method: "POST", path: path,
            headers: headers.map { (name: $0.0, value: $0.1) }, body: body, bodyByteCount: body.utf8.count, status: status,
            reason: reason, apnsID: nil, fault: nil, detail: nil)
    }

    @Test("each request gets its card: alert, background, Live Activity, broadcast, channel, other, rejected")
    func kinds() throws {
        let cases: [(MockRequestRecord, WebViewEvent.Kind)] = [
            (record(headers: [("apns-push-type", "alert")], body: #"{"aps":{"alert":"hi"}}"#), .alert),
            (record(headers: [], body: #"{"aps":{"badge":1}}"#), .alert),
            (record(headers: [("apns-push-type", "background")], body: #"{"aps":{"content-available":1}}"#), .background),
            (record(headers: [], body: #"{"aps":{"content-available":1}}"#), .background),
            (record(headers: [("apns-push-type", "liveactivity")], body: #"{"aps":{"event":"update"}}"#), .liveActivity),
            (record(path: "/4/broadcasts/apps/com.example.demo", headers: [], body: "{}"), .broadcast),
            (record(path: "/1/apps/com.example.demo/channels", status: 201, headers: [], body: "{}"), .channel),
            (record(headers: [("apns-push-type", "voip")], body: "{}"), .other),
            (record(status: 400, reason: "BadDeviceToken", headers: [], body: "{}"), .rejected),
            (record(status: 0, headers: [], body: "{}"), .rejected),
        ]
        for (record, kind) in cases {
            #expect(WebViewEvent.kind(of: record, payload: try? JSONValue.parse(Array(record.body.utf8))) == kind, "\(record.path) \(record.body)")
        }
    }

    @Test("the app's name comes from the topic, without a push type's suffix")
    func appNames() {
        #expect(WebViewEvent.appName(topic: "com.example.demo") == "Demo")
        #expect(WebViewEvent.appName(topic: "com.example.demo.push-type.liveactivity") == "Demo")
        #expect(WebViewEvent.appName(topic: "com.example.chat.voip") == "Chat")
        #expect(WebViewEvent.appName(topic: "single") == "Single")
    }

    @Test("the provider token's header and claims, from the record's reduced form; nothing else")
    func providerToken() throws {
        let token = try #require(WebViewEvent.providerToken(#"bearer {"alg":"ES256","kid":"A} {B"} {"iss":"DEF123GHIJ","iat":1}"#))
        #expect(token.header["kid"]?.stringValue == "A} {B")
        #expect(token.claims["iss"]?.stringValue == "DEF123GHIJ")
        #expect(WebViewEvent.providerToken("<not a bearer token: 12 bytes>") == nil)
        #expect(WebViewEvent.providerToken("bearer <not a JWT: no dots>") == nil)
    }

    @Test("the event: a refusal's explanation, the token reduced, outside text without control characters")
    func eventJSON() throws {
        let json = WebViewEvent.json(
            record(
                status: 410, reason: "Unregistered",
                headers: [
                    ("apns-topic", "com.example.demo"), ("authorization", #"bearer {"alg":"ES256","kid":"ABC123DEFG"} {"iss":"DEF123GHIJ","iat":1}"#),
                    ("x-odd", "a\u{1B}[31mb"),
                ],
                body: #"{"aps":{"alert":"hi"}}"#), language: .en)
        let event = try JSONValue.parse(Array(json.utf8))
        #expect(event["kind"]?.stringValue == "rejected")
        #expect(event["explanation"]?.stringValue == RejectionReason.unregistered.explanation.en)
        #expect(event["jwt"]?["header"]?["kid"]?.stringValue == "ABC123DEFG")
        #expect(event["payload"]?["aps"]?["alert"]?.stringValue == "hi")
        #expect(!json.contains("\u{1B}"), "\(json)")
        #expect(event["deviceToken"]?.stringValue == String(repeating: "ab", count: 32))
    }

    @Test("an alert's card carries the banner as the phone lays it out: the app's name for a missing title, four lines of body, the rest cut")
    func bannerAsThePhoneShowsIt() throws {
        let long = (1...20).map { "palabra\($0)" }.joined(separator: " ")
        let json = WebViewEvent.json(record(headers: [("apns-topic", "com.example.cafe")], body: #"{"aps":{"alert":{"body":"\#(long)"}}}"#), language: .en)
        let phone = try #require(try JSONValue.parse(Array(json.utf8))["phone"])
        #expect(phone["headerIsApp"] == .bool(true))
        #expect(phone["header"] == .array([.string("Cafe")]))
        guard case .array(let body)? = phone["body"], case .array(let hidden)? = phone["hidden"] else {
            Issue.record("no body or hidden lines: \(phone.compact)")
            return
        }
        #expect(body.count == 4)
        #expect(body.last?.stringValue?.hasSuffix("…") == true)
        #expect(hidden.first?.stringValue?.hasSuffix("palabra20") == true)
        // A silent push and a rejected alert get no banner.
        let silent = WebViewEvent.json(record(headers: [("apns-topic", "com.example.cafe")], body: #"{"aps":{"content-available":1}}"#), language: .en)
        #expect(try JSONValue.parse(Array(silent.utf8))["phone"] == nil)
        let rejected = WebViewEvent.json(record(status: 400, reason: "BadTopic", headers: [], body: #"{"aps":{"alert":"hi"}}"#), language: .en)
        #expect(try JSONValue.parse(Array(rejected.utf8))["phone"] == nil)
    }

    @Test("what a client sent reaches the log and the page with no raw control character: the log keeps the value as JSON escapes")
    func clientTextIsDisplayText() throws {
        let hostile = "a\u{1B}[31mb\u{7F}c\u{9B}2Jd\u{202E}e\u{2028}f\u{FEFF}g"
        let claims = #"{"iss":"DEF\#u{9B}123","iat":1}"#
        let sent = record(
            headers: [("apns-topic", "com.example.demo"), ("authorization", #"bearer {"alg":"ES256","kid":"K\#u{202E}1"} "# + claims), ("x-odd", hostile)],
            body: #"{"aps":{"alert":{"title":"T\#u{202E}t","body":"B\u001b]0;x\u0007b"}}}"#)
        func hasRawControl(_ text: String) -> Bool { text.unicodeScalars.contains(where: OutsideText.isControl) }

        let log = sent.json
        #expect(!hasRawControl(log), "\(log.debugDescription)")
        #expect(log.contains(#"a\u001b[31mb\u007fc\u009b2Jd\u202ee\u2028f\ufeffg"#), "\(log)")
        // The same value for a program reading the log.
        let parsed = try JSONValue.parse(Array(log.utf8))
        #expect(parsed["headers"]?["x-odd"]?.stringValue == hostile)

        let page = WebViewEvent.json(sent, language: .en)
        #expect(!hasRawControl(page), "\(page.debugDescription)")
        let event = try JSONValue.parse(Array(page.utf8))
        #expect(event["payload"]?["aps"]?["alert"]?["title"]?.stringValue == #"T\u{202E}t"#)
        #expect(event["jwt"]?["header"]?["kid"]?.stringValue == #"K\u{202E}1"#)
        #expect(event["jwt"]?["claims"]?["iss"]?.stringValue == #"DEF\u{9B}123"#)
        // Decoded as the browser decodes it, nothing a page or a terminal would act on either.
        for text in [event["payload"]?["aps"]?["alert"]?["body"]?.stringValue, event["headers"]?.compact].compactMap({ $0 }) {
            #expect(!hasRawControl(text), "\(text.debugDescription)")
        }
    }

    @Test("the page answers to addresses, localhost and the mock's names only (DNS rebinding)")
    func hostCheck() {
        let names: Set<String> = ["localhost", "teacher"]
        for host in ["127.0.0.1:8080", "[::1]:8080", "192.168.1.20", "localhost:1", "Teacher:80", nil] {
            #expect(MockWebView.isAllowed(host: host, names: names), "\(host ?? "nil")")
        }
        for host in ["attacker.example", "attacker.example:8080", "127.0.0.1.attacker.example"] {
            #expect(!MockWebView.isAllowed(host: host, names: names), "\(host)")
        }
    }
}

@Suite struct ServerSentEventsTests {
    @Test("at most 500 kept for late viewers, oldest dropped; numbered in order")
    func retained() async throws {
        let web = MockWebView()
        let events = try #require(Mirror(reflecting: web).children.first { $0.label == "events" }?.value as? ServerSentEvents)
        for n in 1...(ServerSentEvents.retainedLimit + 20) { events.publish(#"{"n":\#(n)}"#) }
        let kept = try await events.loop.submit { events.retained() }.get()
        #expect(kept.count == ServerSentEvents.retainedLimit)
        #expect(kept.first?.id == 21 && kept.last?.id == ServerSentEvents.retainedLimit + 20)
        #expect(kept.map(\.id) == Array(21...(ServerSentEvents.retainedLimit + 20)))
        await web.shutdown()
    }
}
