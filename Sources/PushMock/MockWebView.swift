import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import PushCore
public import PushWords

/// A live page of what the mock received (`pushctl mock --web PORT`): each request as the device
/// would show it (a banner, a silent push, a Live Activity) or as APNs refused it, with its
/// provider token's header and claims, its headers and its payload. Plain HTTP, one page whose
/// HTML, CSS and script are inside this binary, and server-sent events at `GET /events`.
///
/// ```swift
/// let web = MockWebView()
/// configuration.onRecord = web.publish
/// let mock = try await MockAPNsServer.start(configuration)
/// let port = try await web.listen(host: "127.0.0.1", port: 0, caCertificatePEM: mock.caCertificatePEM)
/// ```
public final class MockWebView: Sendable {
    /// Requests kept for a viewer who opens the page late.
    public static let retainedLimit = ServerSentEvents.retainedLimit
    /// Viewers at once; more get 503.
    public static let viewerLimit = ServerSentEvents.sharing.limit
    /// Viewers one address may have (an IPv6 address's /64): two students cannot take them all.
    public static let viewersPerAddress = ServerSentEvents.sharing.perAddress
    /// Viewers' places only this machine (loopback) may take: the teacher's projector.
    public static let viewersKeptForLoopback = ServerSentEvents.sharing.keptForLoopback
    /// A viewer that takes nothing for this long is dropped.
    public static let stalledViewerSeconds = ServerSentEvents.StreamTiming.standard.stallLimit.nanoseconds / 1_000_000_000
    /// A stream ends after this many minutes; a browser reconnects at once, missing nothing.
    public static let streamMinutes = ServerSentEvents.StreamTiming.standard.lifetime.nanoseconds / 60_000_000_000

    private let group: MultiThreadedEventLoopGroup
    private let events: ServerSentEvents
    private let server = ListeningServer()
    private let lens: PhoneLens?
    /// The language of the page and of its explanations.
    private let language: Language

    /// Ready to take records at once; ``listen(host:port:caCertificatePEM:allowedHosts:)`` starts
    /// serving. With a `lens`, each card shows the app's words and what the phone will do.
    public convenience init(language: Language = .en, lens: PhoneLens? = nil) { self.init(timing: .standard, language: language, lens: lens) }

    /// With other deadlines (tests).
    init(timing: ServerSentEvents.StreamTiming, language: Language = .en, lens: PhoneLens? = nil) {
        self.language = language
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        events = ServerSentEvents(loop: group.next(), timing: timing)
        self.lens = lens
    }

    /// Shows `record` to every viewer (and keeps it for the next ones). Any thread.
    @Sendable public func publish(_ record: MockRequestRecord) {
        events.publish(WebViewEvent.json(record, language: language, lens: lens))
    }

    /// Shows a notification that pushctl refused before sending (nothing reached the server) as
    /// a card of its own: "refused by pushctl, never sent", with `message`, the refusal's words.
    public func publishNotSent(topic: String, deviceToken: String?, payloadBytes: Int, limit: Int, message: String) {
        events.publish(
            WebViewEvent.notSent(
                topic: topic, deviceToken: deviceToken, payloadBytes: payloadBytes, limit: limit,
                message: message, time: Date()))
    }

    /// Serves the page on `host:port` (0 picks a free port) and returns the port. `GET
    /// /mock-ca.pem` serves `caCertificatePEM` too, when given. `allowedHosts` are the names the
    /// page may be asked for by (the `Host` header) besides IP addresses and `localhost`: a page
    /// asked for by another name is refused, so that a web site renamed to this address (DNS
    /// rebinding) cannot read it.
    public func listen(host: String, port: Int, caCertificatePEM: String? = nil, allowedHosts: [String] = []) async throws -> Int {
        let events = self.events
        let language = self.language
        let names = Set(allowedHosts.map { $0.lowercased() } + ["localhost"])
        let ca = caCertificatePEM.map { Array($0.utf8) }
        let listening = try await PlainHTTPServer.start(
            host: host, port: port, group: group, listener: .webView
        ) { request in
            guard Self.isAllowed(host: request.headers.first(name: "host"), names: names) else {
                return .text(.misdirectedRequest, "this page answers to its IP address, localhost or the mock's certificate names only")
            }
            switch request.path {
            case "/", "/index.html":
                // The retained requests come inside the page, drawn before its stream opens.
                return .content(
                    status: .ok, type: "text/html; charset=utf-8", body: WebViewPage.html(retained: events.retained(), language: language),
                    headers: WebViewPage.securityHeaders)
            case "/web-view.css": return .content(status: .ok, type: "text/css; charset=utf-8", body: WebViewPage.css)
            case "/web-view.js": return .content(status: .ok, type: "text/javascript; charset=utf-8", body: WebViewPage.script)
            case "/events":
                // A reconnecting browser says where it was; the page's first connection, with ?after=.
                let last = (request.headers.first(name: "last-event-id") ?? request.query["after"]).flatMap { Int($0.prefix(12)) }
                return .eventStream(events, after: last)
            case MockCAFileServer.path:
                if let ca { return .content(status: .ok, type: "application/x-pem-file", body: ca) }
                return .text(.notFound, "no CA certificate here")
            case "/favicon.ico": return .content(status: .noContent, type: "image/x-icon", body: [])
            default: return .text(.notFound, "not here: the live view is at /")
            }
        }
        server.set(listening)
        return listening.port
    }

    /// Ends the viewers' streams and stops serving.
    public func shutdown() async {
        events.close()
        await server.get()?.close()
        try? await group.shutdownGracefully()
    }

    /// `Host: 127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`, or a name in `names`.
    static func isAllowed(host header: String?, names: Set<String>) -> Bool {
        guard let header else { return true }  // HTTP/1.0 clients such as a quick script
        var host = header.lowercased()
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return MockNetwork.addressBytes(host) != nil || names.contains(host)
    }
}

/// The listening server, set once `listen` has bound.
private final class ListeningServer: Sendable {
    private let box = NIOLockedValueBox<PlainHTTPServer?>(nil)
    func set(_ server: PlainHTTPServer) { box.withLockedValue { $0 = server } }
    func get() -> PlainHTTPServer? { box.withLockedValue { $0 } }
}
