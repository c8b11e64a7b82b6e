import Foundation
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import PushCore

/// A strict local APNs: HTTP/2 over TLS on loopback, checking each request as Apple documents
/// and answering with Apple's statuses and reasons.
///
/// ```swift
/// let mock = try await MockAPNsServer.start(MockAPNsConfiguration(providerKeys: [key]))
/// // POST to mock.url + "/3/device/<token>", trusting mock.caCertificatePEM
/// try await mock.shutdown()
/// ```
public final class MockAPNsServer: Sendable {
    /// The port it listens on (the real one when the configuration asked for 0).
    public let port: Int
    public let host: String
    /// `https://127.0.0.1:PORT`, the endpoint to give a client.
    public let url: String
    /// The throwaway CA that signed the server's certificate; clients trust it (`--cacert`).
    public let caCertificatePEM: String
    /// Key ids whose signatures are verified; empty when only the token's shape is checked.
    public let verifiedKeyIDs: [String]

    private let core: MockServerCore
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    private init(
        host: String, port: Int, caPEM: String, keyIDs: [String], core: MockServerCore,
        group: MultiThreadedEventLoopGroup, channel: any Channel
    ) {
        self.host = host
        self.port = port
        self.url = host.contains(":") ? "https://[\(host)]:\(port)" : "https://\(host):\(port)"
        self.caCertificatePEM = caPEM
        self.verifiedKeyIDs = keyIDs
        self.core = core
        self.group = group
        self.channel = channel
    }

    /// Makes a fresh CA and server certificate, binds, and starts answering.
    /// Throws ``InputError`` for a bad configuration (its `status` is the exit status to use).
    public static func start(_ configuration: MockAPNsConfiguration) async throws -> MockAPNsServer {
        let configuration = try configuration.validated()
        let certificates = try MockCertificates.make(names: configuration.certificateNames)
        let sslContext = try Self.tlsContext(certificates, clientCAPEMs: configuration.clientCAPEMs)

        let log = try configuration.logPath.map { path throws(InputError) in
            try LogFile(path: path, sizeLimit: configuration.logSizeLimit, onProblem: configuration.onLogProblem)
        }
        let journal = RequestJournal(recordLimit: configuration.recordLimit, log: log, subscriber: configuration.onRecord)
        let core = MockServerCore(configuration: configuration, journal: journal)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads ?? System.coreCount))

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let address = channel.remoteAddress?.ipAddress ?? "?"
                guard core.connectionOpened(from: address) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in core.connectionClosed(from: address) }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                    try pipeline.addHandler(ALPNGate())
                    try Self.addHTTP2Handlers(to: pipeline, core: core, now: channel.eventLoop.now)
                }
            }

        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            try? await group.shutdownGracefully()
            journal.close()
            throw ListenFailure.error(.apns, host: configuration.host, port: configuration.port, error)
        }
        return MockAPNsServer(
            host: configuration.host,
            port: channel.localAddress?.port ?? configuration.port,
            caPEM: certificates.caPEM,
            keyIDs: configuration.providerKeys.map(\.keyID),
            core: core, group: group, channel: channel)
    }

    /// One connection's HTTP/2 and APNs, after TLS: the server's pipeline, or a test's
    /// EmbeddedChannel (with no socket and a clock of its own).
    static func addHTTP2Handlers(to pipeline: ChannelPipeline.SynchronousOperations, core: MockServerCore, now: NIODeadline) throws {
        let wire = ConnectionWire(advertisedStreamLimit: UInt32(core.initialConcurrentStreams))
        try pipeline.addHandler(WireAmender(wire: wire))
        try pipeline.addHandler(
            NIOHTTP2Handler(mode: .server, frameDelegate: wire, connectionConfiguration: connectionSettings, streamConfiguration: streamSettings))
        try pipeline.addHandler(APNsConnectionHandler(id: core.nextConnectionID(), core: core, wire: wire, now: now))
    }

    /// TLS 1.2 or later, ALPN h2; a client certificate asked for, never required (token clients
    /// send none), and verified when given: the mock's own CA and --client-ca.
    private static func tlsContext(_ certificates: MockCertificates, clientCAPEMs: [String]) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificates.serverCertificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificates.serverKeyPEM.utf8), format: .pem))
        )
        tls.minimumTLSVersion = .tlsv12
        // Certificate-based authentication: a client certificate is asked for, never required
        // (token clients send none), and verified when given: the mock's own CA and --client-ca.
        tls.certificateVerification = .optionalVerification
        tls.trustRoots = .certificates(
            try ([certificates.caPEM] + clientCAPEMs).flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) })
        tls.applicationProtocols = ["h2"]
        return try NIOSSLContext(configuration: tls)

    }

    /// NIOHTTP2's configuration: the SETTINGS APNs has been seen to send, and its guards against
    /// floods, tuned where APNs' behaviour needs it.
    private static let connectionSettings = {
        var settings = NIOHTTP2Handler.ConnectionConfiguration()
        // The stream limit NIOHTTP2 is told is one it never reaches: the client is told the real
        // one (1 until a valid token, unless configured otherwise) by the ConnectionWire, and the
        // connection handler refuses the excess with REFUSED_STREAM, as APNs does.
        settings.initialSettings = [
            HTTP2Setting(parameter: .headerTableSize, value: 4096),
            HTTP2Setting(parameter: .maxConcurrentStreams, value: ConnectionWire.streamCeiling),
            HTTP2Setting(parameter: .initialWindowSize, value: APNsConnectionHandler.streamWindow),
            HTTP2Setting(parameter: .maxFrameSize, value: 16_384),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
        ]
        // NIOHTTP2 allows 200 PING, PRIORITY and SETTINGS frames in 30 s: a client that sends a
        // PRIORITY or a PING with each request would be cut off after about 200 requests. APNs
        // ignores PRIORITY; the connection handler's allowance, which grows with the requests,
        // stops floods instead (WINDOW_UPDATE frames too), and NIOHTTP2's limit stays as a
        // backstop for bursts of more than 400,000 a second (see rateLimitCount).
        settings.controlFrameRateLimit.maximumCount = rateLimitCount
        settings.controlFrameRateLimit.windowLength = rateLimitWindow
        // Streams the mock reset (refused, or answered 413 before the end of their body) whose
        // frames are still in flight are ignored while NIOHTTP2 remembers them: 32 by default, fewer
        // than a client's burst over the stream limit.
        settings.maximumRecentlyResetStreams = 128
        return settings
    }()

    private static let streamSettings = {
        var settings = NIOHTTP2Handler.StreamConfiguration()
        // curl 7.88 (Debian 12; pushctl's libcurl too) sends RST_STREAM after every answered
        // request. NIOHTTP2's guard against rapid-reset floods (200 in 30 s) would drop such a
        // client's connection after 200 requests; APNs does not, so neither may the mock. The
        // connection handler counts only resets of streams not yet answered. (Resets the client
        // makes the mock send, for malformed requests, keep NIOHTTP2's limits: 200.)
        settings.streamResetFrameRateLimit.maximumCount = rateLimitCount
        settings.streamResetFrameRateLimit.windowLength = rateLimitWindow
        return settings
    }()

    /// NIOHTTP2's rate limits keep a timestamp per event in a deque made for `maximumCount` of them
    /// at once, on every connection. A count of a million (to switch the limit off) cost 8 MB of
    /// address space per connection, filled as the events came: RSS grew by tens of MB with every
    /// burst of 2,000 connections and glibc kept it. A short window with a small count has the
    /// same effect on any real client for 32 KB.
    static let rateLimitCount = 4096
    static let rateLimitWindow = TimeAmount.milliseconds(10)

    /// The latest requests, oldest first (up to the configuration's `recordLimit`).
    public var records: [MockRequestRecord] { core.journal.records }

    /// Forgets the records kept so far (the log file is untouched).
    public func clearRecords() { core.journal.clear() }

    /// The faults in force. Setting them also restarts their counters (refused streams, attempts).
    public var faults: MockFaults {
        get { core.faults }
        set { core.faults = newValue }
    }

    /// Stops listening, drops every connection and writes what is left of the log.
    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
        core.journal.close()
    }
}
