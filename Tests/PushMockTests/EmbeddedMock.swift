import Crypto
import Foundation
import NIOCore
import NIOEmbedded
import PushCore

@testable import PushMock

/// Runs `body` against one in-process connection of a fresh mock.
func withEmbeddedMock<T>(configure: (inout MockAPNsConfiguration) -> Void = { _ in }, _ body: (EmbeddedMock) async throws -> T) async throws -> T {
    let mock = try EmbeddedMock(configure: configure)
    defer { _ = try? mock.channel.finish(acceptAlreadyClosed: true) }
    return try await body(mock)
}

/// The frames a test sends to one connection of the mock and what it reads back: over TLS
/// (``RawHTTP2Client``) or in process (``EmbeddedMock``).
protocol FrameConnection {
    func send(_ writer: inout FrameWriter) async throws
    /// The frames received once `condition` holds (or the connection closed), waiting at most `seconds`.
    @discardableResult
    func wait(seconds: Double, until condition: ([WireFrame], Bool) -> Bool) async throws -> [WireFrame]
    var frames: [WireFrame] { get }
    var isClosed: Bool { get }
}

extension RawHTTP2Client: FrameConnection {}

extension FrameConnection {
    /// Sends what `writer` holds and a PING after it, then waits until the PING is answered or the
    /// connection closes: either way the mock has read everything before the PING.
    func sendThenSettle(_ writer: inout FrameWriter, seconds: Double = 10) async throws -> [WireFrame] {
        let barrier: UInt64 = 0x5E77_1ED0_5E77_1ED0
        writer.ping(barrier)
        try? await send(&writer)
        let payload = FrameWriter.bigEndian(UInt32(barrier >> 32)) + FrameWriter.bigEndian(UInt32(barrier & 0xFFFF_FFFF))
        return try await wait(seconds: seconds) { frames, closed in
            closed || frames.contains { $0.type == WireFrame.ping && $0.isAck && $0.payload == payload }
        }
    }
}

/// One connection of the mock in process: its HTTP/2 pipeline (as the server builds it after TLS)
/// on an `EmbeddedChannel`, with no socket and a clock the test moves (``advance(by:)``). The
/// client's preface and empty SETTINGS go first; the mock's SETTINGS are acknowledged as they come.
final class EmbeddedMock: FrameConnection {
    let channel: EmbeddedChannel
    private let core: MockServerCore
    private var reader = WireFrameReader()
    private(set) var frames: [WireFrame] = []
    let token: String
    private let acknowledgeSettings: Bool

    static let keyPEM = P256.Signing.PrivateKey().pemRepresentation
    static let keyID = "EMB3DD3D01"

    /// A connection to a fresh mock, or another connection to the mock of `sharing`.
    init(
        acknowledgeSettings: Bool = true, preface: Bool = true, sharing other: EmbeddedMock? = nil,
        configure: (inout MockAPNsConfiguration) -> Void = { _ in }
    ) throws {
        if let other {
            core = other.core
            token = other.token
        } else {
            var configuration = MockAPNsConfiguration(
                providerKeys: [try MockProviderKey(keyID: Self.keyID, pem: Self.keyPEM)], teamID: sampleTeam)
            configure(&configuration)
            configuration = try configuration.validated()
            core = MockServerCore(configuration: configuration, journal: RequestJournal(recordLimit: configuration.recordLimit, log: nil))
            token = try Self.token(issuedAt: now())
        }
        self.acknowledgeSettings = acknowledgeSettings
        channel = EmbeddedChannel(loop: EmbeddedEventLoop())
        try MockAPNsServer.addHTTP2Handlers(to: channel.pipeline.syncOperations, core: core, now: channel.embeddedEventLoop.now)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        if preface {
            var hello = ByteBuffer(bytes: FrameWriter.preface)
            hello.writeBytes([0, 0, 0, WireFrame.settings, 0, 0, 0, 0, 0])
            try deliver(hello)
        }
        collect()
    }

    /// A provider token of the mock's key, issued at `issuedAt`.
    static func token(issuedAt: Int64) throws -> String {
        let input = signingInput(keyID: keyID, team: sampleTeam, issuedAt: issuedAt)
        let key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        return input + "." + Base64URL.encode(Array(try key.signature(for: Data(input.utf8)).rawRepresentation))
    }

    func token(issuedAt: Int64) throws -> String { try Self.token(issuedAt: issuedAt) }

    /// The headers pushctl sends for an alert.
    var standardHeaders: [(String, String)] {
        [("authorization", "bearer \(token)"), ("apns-topic", sampleTopic), ("apns-push-type", "alert"), ("apns-priority", "10")]
    }

    var records: [MockRequestRecord] { core.journal.records }
    var isClosed: Bool { !channel.isActive }

    func send(_ writer: inout FrameWriter) async throws { try deliver(writer.take()) }

    /// Everything is done by the time `send` returns: no waiting, only the look at what came back.
    @discardableResult
    func wait(seconds: Double = 10, until condition: ([WireFrame], Bool) -> Bool) async throws -> [WireFrame] {
        collect()
        return frames
    }

    /// Moves the connection's clock: its timers (deadlines, delayed answers, the idle check) run.
    func advance(by time: TimeAmount) {
        channel.embeddedEventLoop.advanceTime(by: time)
        collect()
    }

    private func deliver(_ bytes: ByteBuffer) throws {
        guard channel.isActive else { return }
        try channel.writeInbound(bytes)
        collect()
    }

    /// Reads what the mock wrote; answers its SETTINGS with an ACK when asked to.
    private func collect() {
        var more = true
        while more {
            channel.embeddedEventLoop.run()
            more = false
            while let bytes = try? channel.readOutbound(as: IOData.self) {
                more = true
                guard case .byteBuffer(let buffer) = bytes else { continue }
                let received = reader.read(buffer)
                frames += received
                for frame in received where acknowledgeSettings && frame.type == WireFrame.settings && !frame.isAck && channel.isActive {
                    _ = try? channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, WireFrame.settings, 1, 0, 0, 0, 0]))
                }
            }
        }
    }

    func close() async { _ = try? channel.finish(acceptAlreadyClosed: true) }
}
