import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import PushMock

@Suite struct PlaceSharingTests {
    @Test(
        "the admission rule: a share per address, the last places kept for loopback",
        arguments: [
            // (total, fromAddress, isLoopback, decision) under 32 places, 8 per address, 2 kept
            (0, 0, false, PlaceSharing.Decision.admitted),
            (29, 7, false, .admitted),
            (10, 8, false, .addressShareUsed),
            (10, 8, true, .addressShareUsed),
            (30, 0, false, .full),
            (30, 0, true, .admitted),
            (31, 7, true, .admitted),
            (32, 0, true, .full),
            (32, 8, true, .addressShareUsed),
        ])
    func decisions(_ total: Int, _ fromAddress: Int, _ isLoopback: Bool, _ expected: PlaceSharing.Decision) {
        #expect(PlaceSharing.viewers.decide(total: total, fromAddress: fromAddress, isLoopback: isLoopback) == expected)
    }

    @Test("who an address counts as: IPv4 itself, IPv4-mapped as IPv4, IPv6 by its /64; loopback is 127.0.0.0/8 and ::1")
    func groups() {
        let cases: [(String, String, Bool)] = [
            ("127.0.0.1", "127.0.0.1", true),
            ("127.0.0.3", "127.0.0.3", true),
            ("192.168.1.20", "192.168.1.20", false),
            ("::1", "::1", true),
            ("::ffff:127.0.0.2", "127.0.0.2", true),
            ("::ffff:10.0.0.7", "10.0.0.7", false),
            ("fd00:1:2:3:aaaa::1", "fd00:1:2:3::/64", false),
            ("fd00:1:2:3:bbbb:cccc:dddd:eeee", "fd00:1:2:3::/64", false),
            ("fe80::1", "fe80:0:0:0::/64", false),
            ("?", "?", false),
        ]
        for (address, key, loopback) in cases {
            let group = PlaceSharing.group(of: address)
            #expect(group.key == key && group.isLoopback == loopback, "\(address): \(group)")
        }
    }

    @Test("a refused viewer is told why in English and Spanish, in lines of 80 columns at most")
    func refusalWords() {
        let share = ServerSentEvents.refusal(.addressShareUsed)
        let full = ServerSentEvents.refusal(.full)
        #expect(share.contains("8 live views open already") && share.contains("ya tiene 8 vistas en directo"), "\(share)")
        #expect(full.contains("32 viewers are watching already") && full.contains("ya hay 32 personas mirando"), "\(full)")
        for text in [share, full] {
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(text)")
        }
    }

    @Test("two addresses taking all they can leave the teacher's loopback places; four leave loopback only")
    func starvation() {
        let sharing = PlaceSharing.viewers
        var count = PlaceCount()
        for address in ["192.168.1.20", "192.168.1.21"] {
            while count.take(PlaceSharing.group(of: address), under: sharing) == .admitted {}
        }
        #expect(count.total == 2 * sharing.perAddress)
        #expect(count.take(PlaceSharing.group(of: "127.0.0.1"), under: sharing) == .admitted)
        for address in ["192.168.1.22", "192.168.1.23", "192.168.1.24"] {
            while count.take(PlaceSharing.group(of: address), under: sharing) == .admitted {}
        }
        #expect(count.take(PlaceSharing.group(of: "192.168.1.25"), under: sharing) == .full)
        #expect(count.take(PlaceSharing.group(of: "::1"), under: sharing) == .admitted)
        count.release("192.168.1.20")
        count.release("192.168.1.20")
        #expect(count.held(by: "192.168.1.20") == sharing.perAddress - 2)
        #expect(count.take(PlaceSharing.group(of: "192.168.1.25"), under: sharing) == .admitted)
    }
}

/// A raw viewer of the web view's stream: it asks for `/events` and, unless `reading`, never reads
/// what comes; `smallWindow` keeps its receive buffer small, so that a viewer that stops reading
/// fills soon.
final class RawViewer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    let channel: any Channel
    private let received: NIOLockedValueBox<[UInt8]>

    init(port: Int, from source: String = "127.0.0.1", reading: Bool, smallWindow: Bool = false) async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let received = NIOLockedValueBox<[UInt8]>([])
        self.received = received
        var bootstrap = ClientBootstrap(group: group)
            .channelOption(.autoRead, value: reading)
            .channelOption(.socketOption(.so_rcvbuf), value: smallWindow || !reading ? 4096 : 1 << 20)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(received: received)) }
            }
        bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0))
        // The request is written on the connection's own loop as it opens, not after this task
        // resumes: a loaded suite may hold a task back past the server's request deadline (10 s),
        // which would close the connection with nothing said. A connection over its address's
        // share is closed as it arrives: the request is then lost.
        channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
    }

    var text: String { String(decoding: received.withLockedValue { $0 }, as: UTF8.self) }

    /// From now on reads nothing more: what comes waits in the socket's buffers.
    func stopReading() async throws {
        try await channel.setOption(.autoRead, value: false).get()
    }

    func close() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<[UInt8]>
        init(received: NIOLockedValueBox<[UInt8]>) { self.received = received }
        func channelActive(context: ChannelHandlerContext) {
            let request = context.channel.allocator.buffer(string: "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            context.writeAndFlush(NIOAny(request), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { $0 += buffer.readableBytesView }
        }
    }
}

@Suite struct ViewerStreamTests {
    static func events(of web: MockWebView) throws -> ServerSentEvents {
        try #require(Mirror(reflecting: web).children.first { $0.label == "events" }?.value as? ServerSentEvents)
    }

    /// Asks again every 20 ms until `done`, at most `seconds`.
    static func eventually(within seconds: Double, _ done: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await done() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return await done()
    }

    @Test("a viewer that reads nothing is dropped once its writes wait past the limit; one that reads stays")
    func stalledViewerDropped() async throws {
        // A limit a busy machine's reader never reaches, a sleeper soon does. Nothing here depends
        // on how soon this test's own steps run (a loaded suite may hold them back for many
        // seconds): the sleeper reads, as the reader does, until the flood begins; the reader's
        // window is wide, so a write of 200 KB needs no more than a few of its turns to be taken.
        let web = MockWebView(timing: .init(keepAlive: .milliseconds(200), stallLimit: .seconds(5), lifetime: .seconds(600)))
        defer { Task { await web.shutdown() } }
        let port = try await web.listen(host: "127.0.0.1", port: 0)
        let events = try Self.events(of: web)
        let reader = try await RawViewer(port: port, reading: true)
        let sleeper = try await RawViewer(port: port, reading: true, smallWindow: true)
        #expect(await Self.eventually(within: 30) { await events.viewerCount() == 2 })
        try await sleeper.stopReading()
        // About 6 MB of events, in batches: far more than the sleeper's socket buffers hold.
        let filler = String(repeating: "x", count: 20_000)
        for round in 0..<30 {
            for n in 0..<10 { events.publish(#"{"n":\#(round * 10 + n),"fill":"\#(filler)"}"#) }
            try await Task.sleep(nanoseconds: 60_000_000)
        }
        #expect(await Self.eventually(within: 60) { await events.viewerCount() == 1 }, "the sleeper was dropped")
        #expect(reader.channel.isActive, "the reader still watches")
        #expect(await Self.eventually(within: 60) { reader.text.contains(#"{"n":299,"#) }, "the reader got every event")
        await reader.close()
        await sleeper.close()
    }

    @Test("a stream ends at its lifetime with a short retry, so a browser comes back at once; a quiet one gets heartbeats")
    func streamLifetime() async throws {
        let web = MockWebView(timing: .init(keepAlive: .milliseconds(100), stallLimit: .seconds(30), lifetime: .milliseconds(700)))
        defer { Task { await web.shutdown() } }
        let port = try await web.listen(host: "127.0.0.1", port: 0)
        let events = try Self.events(of: web)
        let viewer = try await RawViewer(port: port, reading: true)
        // The client has no deadline of its own: a closed connection after the stream's proper end
        // is the mock ending it.
        #expect(await Self.eventually(within: 60) { !viewer.channel.isActive }, "the mock ended the stream")
        let text = viewer.text
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
        #expect(text.contains(": still here\n\n"), "\(text)")
        #expect(text.hasSuffix("retry: 250\n\n\r\n0\r\n\r\n"), "the stream ends properly, after a short retry: \(text)")
        #expect(await Self.eventually(within: 30) { await events.viewerCount() == 0 })
        await viewer.close()
    }

    @Test("streams ending while events and heartbeats keep coming: nothing is written after a stream's end, and the mock lives on")
    func nothingAfterTheEnd() async throws {
        // Heartbeats every millisecond and a 40 ms life: an event or a heartbeat often falls between
        // a stream's end and its channel's close (NIOHTTP1 traps on a body part after the end).
        let web = MockWebView(timing: .init(keepAlive: .milliseconds(1), stallLimit: .seconds(30), lifetime: .milliseconds(40)))
        defer { Task { await web.shutdown() } }
        let port = try await web.listen(host: "127.0.0.1", port: 0)
        let events = try Self.events(of: web)
        var viewers: [RawViewer] = []
        for round in 0..<6 {
            for _ in 0..<4 { viewers.append(try await RawViewer(port: port, reading: true)) }
            for n in 0..<40 {
                events.publish(#"{"n":\#(round * 40 + n)}"#)
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        #expect(await Self.eventually(within: 60) { viewers.allSatisfy { !$0.channel.isActive } }, "every stream was ended by the mock")
        for viewer in viewers where viewer.text.hasPrefix("HTTP/1.1 200 ") {
            #expect(viewer.text.hasSuffix("\r\n0\r\n\r\n"), "the end is the last thing written: \(viewer.text.suffix(80))")
        }
        #expect(await Self.eventually(within: 30) { await events.viewerCount() == 0 })
        for viewer in viewers { await viewer.close() }
    }

    @Test(
        "the teacher's loopback view is served while 127.0.0.2 and 127.0.0.3 hold all the streams they can; a refused one is told why",
        .enabled(if: SecondLoopbackAddresses.present))
    func teacherServed() async throws {
        let web = MockWebView()
        defer { Task { await web.shutdown() } }
        let port = try await web.listen(host: "127.0.0.1", port: 0)
        let events = try Self.events(of: web)
        var students: [RawViewer] = []
        for source in ["127.0.0.2", "127.0.0.3"] {
            for _ in 0..<(MockWebView.viewerLimit + 4) { students.append(try await RawViewer(port: port, from: source, reading: true)) }
        }
        #expect(await Self.eventually(within: 60) { students.allSatisfy { $0.text.contains("\r\n\r\n") || !$0.channel.isActive } })
        let admitted = students.filter { $0.text.hasPrefix("HTTP/1.1 200 ") }
        #expect(admitted.count == 2 * MockWebView.viewersPerAddress, "\(admitted.count) streams admitted")
        #expect(await events.viewerCount() == 2 * MockWebView.viewersPerAddress)
        let refused = try #require(students.first { $0.text.hasPrefix("HTTP/1.1 503 ") })
        #expect(refused.text.contains("this address has 8 live views open already"), "\(refused.text)")
        #expect(refused.text.contains("esta dirección ya tiene 8 vistas en directo abiertas"), "\(refused.text)")

        let teacher = try await RawViewer(port: port, reading: true)
        #expect(await Self.eventually(within: 30) { teacher.text.contains("retry: 2000") }, "\(teacher.text)")
        #expect(teacher.text.hasPrefix("HTTP/1.1 200 "))
        for viewer in students + [teacher] { await viewer.close() }
    }
}

/// 127.0.0.2 and 127.0.0.3 play other machines: all of 127/8 is loopback on Linux; macOS answers
/// only 127.0.0.1 until they are aliased on lo0 (CI's macOS job does).
enum SecondLoopbackAddresses {
    static var present: Bool {
        #if os(Linux)
            return true
        #else
            let up = MockNetwork.interfaceAddresses().map(\.address)
            return up.contains("127.0.0.2") && up.contains("127.0.0.3")
        #endif
    }
}
