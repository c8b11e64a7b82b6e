import Foundation
import NIOCore
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

        let journal = try RequestJournal(recordLimit: configuration.recordLimit, logPath: configuration.logPath, subscriber: configuration.onRecord)
        let core = MockServerCore(configuration: configuration, journal: journal)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads ?? System.coreCount))

        let initialSettings = Self.initialSettings(streams: configuration.initialConcurrentStreams)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard core.connectionOpened() else { return channel.close() }
                channel.closeFuture.whenComplete { _ in core.connectionClosed() }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                    try pipeline.addHandler(ALPNGate())
                    let wire = ConnectionWire()
                    try pipeline.addHandler(HTTP2ServerCodec(wire: wire, initialSettings: initialSettings, allocator: channel.allocator))
                    try pipeline.addHandler(APNsConnectionHandler(id: core.nextConnectionID(), core: core, wire: wire))
                }
            }

        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            try? await group.shutdownGracefully()
            journal.close()
            throw ListenFailure.error(host: configuration.host, port: configuration.port, purpose: nil, option: .mockPort, error)
        }
        return MockAPNsServer(
            host: configuration.host,
            port: channel.localAddress?.port ?? configuration.port,
            caPEM: certificates.caPEM,
            keyIDs: configuration.providerKeys.map(\.keyID),
            core: core, group: group, channel: channel)
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

    /// The SETTINGS APNs has been seen to send. The stream limit is one until a valid token (unless
    /// the configuration says otherwise), raised by a later SETTINGS frame.
    private static func initialSettings(streams: Int) -> [(parameter: UInt16, value: UInt32)] {
        [
            (0x1, 4096),  // SETTINGS_HEADER_TABLE_SIZE
            (0x3, UInt32(streams)),  // SETTINGS_MAX_CONCURRENT_STREAMS
            (0x4, UInt32(HTTP2ServerCodec.streamWindow)),  // SETTINGS_INITIAL_WINDOW_SIZE
            (0x5, UInt32(HTTP2ServerCodec.maxFrameSize)),  // SETTINGS_MAX_FRAME_SIZE
            (0x6, UInt32(HTTP2ServerCodec.maxHeaderListSize)),  // SETTINGS_MAX_HEADER_LIST_SIZE
        ]
    }

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
