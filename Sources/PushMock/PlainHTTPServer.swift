import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import PushCore
import PushWords

/// A small HTTP/1.1 server without TLS, for what a class fetches with a browser or curl: the mock's
/// CA certificate (``MockCAFileServer``) and the live view (``MockWebView``). GET and HEAD only,
/// a bounded number of connections, no request bodies kept.
final class PlainHTTPServer: Sendable {
    /// What the server was asked.
    struct Request: Sendable {
        let method: NIOHTTP1.HTTPMethod
        /// The path without its query.
        let path: String
        /// `name=value` pairs after `?`, as sent (not percent-decoded).
        let query: [String: String]
        let headers: HTTPHeaders
    }

    /// What a route answers.
    enum Answer: Sendable {
        case content(status: HTTPResponseStatus, type: String, body: [UInt8], headers: [(String, String)] = [])
        /// Keep the connection for server-sent events, after the event numbered `after` (the
        /// browser's `Last-Event-ID` when it reconnects).
        case eventStream(ServerSentEvents, after: Int?)

        static func text(_ status: HTTPResponseStatus, _ text: String) -> Answer {
            .content(status: status, type: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
        }
    }

    /// Connections served at once, shared among addresses (``PlaceSharing/connections``); more
    /// are closed as they arrive: one student's script cannot take every place, nor a few scripts
    /// the teacher's.
    static let connectionSharing = PlaceSharing.connections
    /// A request's head must arrive whole within this (a connection that dribbles headers, or idles
    /// between requests, is closed): half-open connections cannot hold the places for long.
    static let requestDeadline: TimeAmount = .seconds(10)

    let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    /// Binds `host:port` (0 picks a free port) on `group` and answers each request with `route`.
    /// `listener` says which server it is in an error (the CA file server, the web view).
    static func start(
        host: String, port: Int, group: any EventLoopGroup, listener: MockListener,
        route: @escaping @Sendable (Request) -> Answer
    ) async throws(InputError) -> PlainHTTPServer {
        let open = NIOLockedValueBox(PlaceCount())
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // The retained events are written at once to a new viewer: allow them to queue.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 1 << 20, high: 16 << 20))
            .childChannelInitializer { channel in
                let group = PlaceSharing.group(of: channel.remoteAddress?.ipAddress ?? "?")
                let admitted = open.withLockedValue { $0.take(group, under: connectionSharing) } == .admitted
                guard admitted else { return channel.close() }
                channel.closeFuture.whenComplete { _ in open.withLockedValue { $0.release(group.key) } }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(PlainHTTPHandler(route: route))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            return PlainHTTPServer(port: channel.localAddress?.port ?? port, channel: channel)
        } catch {
            throw ListenFailure.error(listener, host: host, port: port, error)
        }
    }

    func close() async {
        try? await channel.close()
    }
}

/// Answers one request at a time on a connection (NIOHTTP1 holds pipelined ones back).
private final class PlainHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let route: @Sendable (PlainHTTPServer.Request) -> PlainHTTPServer.Answer
    private var head: HTTPRequestHead?
    private var stream: ServerSentEvents?
    /// Closes the connection unless a whole request arrives in time.
    private var deadline: Scheduled<Void>?

    init(route: @escaping @Sendable (PlainHTTPServer.Request) -> PlainHTTPServer.Answer) {
        self.route = route
    }

    func handlerAdded(context: ChannelHandlerContext) { armDeadline(context) }

    func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

    private func armDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: PlainHTTPServer.requestDeadline) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            head = received
        case .body:
            break  // GET and HEAD carry none worth reading
        case .end:
            guard let request = head, stream == nil else { return }
            head = nil
            deadline?.cancel()
            answer(request, context: context)
            // The next request on a kept connection has its own deadline; an event stream has none.
            if stream == nil && context.channel.isActive { armDeadline(context) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stream?.unsubscribe(context.channel)
        context.fireChannelInactive()
    }

    private func answer(_ request: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = String(request.uri.prefix { $0 != "?" && $0 != "#" })
        var query: [String: String] = [:]
        if let mark = request.uri.firstIndex(of: "?") {
            for pair in request.uri[request.uri.index(after: mark)...].prefix(while: { $0 != "#" }).split(separator: "&").prefix(16) {
                let parts = pair.split(separator: "=", maxSplits: 1)
                query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
        }
        let answer: PlainHTTPServer.Answer
        if request.method == .GET || request.method == .HEAD {
            answer = route(PlainHTTPServer.Request(method: request.method, path: path, query: query, headers: request.headers))
        } else {
            answer = .text(.methodNotAllowed, "only GET and HEAD are answered here")
        }
        switch answer {
        case .content(let status, let type, let body, let extra):
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: type)
            headers.add(name: "content-length", value: String(body.count))
            headers.add(name: "cache-control", value: "no-store")
            headers.add(name: "x-content-type-options", value: "nosniff")
            for (name, value) in extra { headers.add(name: name, value: value) }
            if status == .methodNotAllowed { headers.add(name: "allow", value: "GET, HEAD") }
            let keepAlive = request.isKeepAlive
            if !keepAlive { headers.add(name: "connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
            if request.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        case .eventStream(let events, let after):
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "text/event-stream; charset=utf-8")
            headers.add(name: "cache-control", value: "no-store")
            headers.add(name: "x-content-type-options", value: "nosniff")
            let head = HTTPResponseHead(version: request.version, status: .ok, headers: headers)
            let channel = context.channel
            let accepted = events.subscribe(channel, after: after) {
                // No content-length: NIOHTTP1 sends the stream chunked, for as long as it lasts.
                context.writeAndFlush(self.wrapOutboundOut(.head(head)), promise: nil)
            }
            if accepted == .admitted {
                stream = events
            } else {
                var busy = HTTPHeaders()
                let body = Array(ServerSentEvents.refusal(accepted).utf8)
                busy.add(name: "content-type", value: "text/plain; charset=utf-8")
                busy.add(name: "content-length", value: String(body.count))
                busy.add(name: "retry-after", value: "10")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .serviceUnavailable, headers: busy))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

/// Serves the mock's CA certificate over plain HTTP at `GET /mock-ca.pem`, for a class to fetch
/// with `curl -o mock-ca.pem http://ADDRESS:PORT/mock-ca.pem`. Plain HTTP is fine for a public
/// certificate; the fingerprint printed beside the URL lets a student check what arrived.
public final class MockCAFileServer: Sendable {
    /// The path it answers at.
    public static let path = "/mock-ca.pem"

    public let port: Int
    private let server: PlainHTTPServer
    private let group: MultiThreadedEventLoopGroup

    private init(port: Int, server: PlainHTTPServer, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.server = server
        self.group = group
    }

    /// Listens on `host:port` (0 picks a free port). Throws ``InputError`` (unavailable) when it cannot.
    public static func start(host: String, port: Int, caCertificatePEM: String) async throws -> MockCAFileServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let body = Array(caCertificatePEM.utf8)
        do {
            let server = try await PlainHTTPServer.start(
                host: host, port: port, group: group, listener: .caCertificate
            ) {
                request in
                request.path == path
                    ? .content(
                        status: .ok, type: "application/x-pem-file", body: body,
                        headers: [("content-disposition", "attachment; filename=\"mock-ca.pem\"")])
                    : .text(.notFound, "not here: the mock's CA certificate is at \(path)")
            }
            return MockCAFileServer(port: server.port, server: server, group: group)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    public func shutdown() async {
        await server.close()
        try? await group.shutdownGracefully()
    }
}

/// Why a port could not be listened on, as a code: in use (another mock?), a privileged port, an
/// address this machine does not have; otherwise the system's words.
enum ListenFailure {
    static func error(_ listener: MockListener, host: String, port: Int, _ error: any Error) -> InputError {
        let text = "\(error)"
        let refusal: ListenRefusal
        if text.contains("Address already in use") {
            refusal = .inUse
        } else if text.contains("Permission denied") {
            refusal = .privileged
        } else if text.contains("Cannot assign requested address") {
            refusal = .noSuchAddress
        } else {
            refusal = .other(text)
        }
        return InputError(MockServerProblem.cannotListen(listener, host: host, port: port, refusal), kind: .unavailable)
    }
}
