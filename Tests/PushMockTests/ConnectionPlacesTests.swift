import Foundation
import PushMock
import Testing

/// A mock a whole class sends to: connections that never finish setting up are closed at a
/// deadline, and one address cannot take every place.
@Suite("Deadlines and places")
struct ConnectionPlacesTests {
    @Test("a connection that stops after TCP or after TLS is closed at the set-up deadline; one that sent its preface is served after it")
    func setUpDeadline() async throws {
        try await withHarness(configure: { $0.limits.setupTimeoutMilliseconds = 300 }) { harness in
            // Opened first, so its deadline passes before the others'.
            let ready = try await RawHTTP2Client.connect(to: harness)
            let tcp = try await RawHTTP2Client.connect(to: harness, setUp: .tcp)
            let tls = try await RawHTTP2Client.connect(to: harness, setUp: .tls)
            defer { Task { for client in [ready, tcp, tls] { await client.close() } } }
            // Nothing else closes them (no idle timeout here): by the deadline, however late this
            // test gets to look on a busy machine.
            _ = try await tcp.wait(seconds: 30) { _, closed in closed }
            let frames = try await tls.wait(seconds: 30) { _, closed in closed }
            #expect(tcp.isClosed && tls.isClosed)
            #expect(frames.allSatisfy { $0.type == WireFrame.settings || $0.type == WireFrame.windowUpdate }, "closed without a GOAWAY: \(frames)")

            var w = FrameWriter()
            w.request(stream: 1, headers: harness.standardHeaders)
            try await ready.send(&w)
            let answered = try await ready.wait { frames, closed in closed || frames.contains { $0.type == WireFrame.headers } }
            #expect(answered.first { $0.type == WireFrame.headers }?.status == "200", "\(answered)")
            #expect(!ready.isClosed)
        }
    }

    @Test("one address holds at most its share of the connections (told once); another address is served meanwhile")
    func placesPerAddress() async throws {
        let told = ReportBox()
        try await withHarness(configure: {
            $0.connectionsPerAddressLimit = 2
            $0.onAddressAtLimit = { address, limit in told.add("\(address) \(limit)") }
        }) { harness in
            var held: [RawHTTP2Client] = []
            defer { Task { [held] in for client in held { await client.close() } } }
            for _ in 0..<2 {
                let client = try await RawHTTP2Client.connect(to: harness)
                try await client.wait { frames, _ in frames.contains { $0.type == WireFrame.settings } }
                held.append(client)
            }
            for _ in 0..<2 {
                let refused = try await RawHTTP2Client.connect(to: harness)
                held.append(refused)
                let frames = try await refused.wait { _, closed in closed }
                #expect(refused.isClosed && frames.isEmpty, "closed when accepted: \(frames)")
            }
            #expect(told.lines == ["127.0.0.1 2"], "said once: \(told.lines)")

            let elsewhere = try await RawHTTP2Client.connect(to: harness, from: "127.0.0.2")
            held.append(elsewhere)
            var w = FrameWriter()
            w.request(stream: 1, headers: harness.standardHeaders)
            try await elsewhere.send(&w)
            let frames = try await elsewhere.wait { frames, closed in closed || frames.contains { $0.type == WireFrame.headers } }
            #expect(frames.first { $0.type == WireFrame.headers }?.status == "200", "\(frames)")
        }
    }

    @Test("idle connections are closed by default, after minutes, as APNs closes them")
    func idleByDefault() {
        #expect(MockProtocolLimits().idleTimeoutMilliseconds == 300_000)
        #expect(MockProtocolLimits().setupTimeoutMilliseconds == 10_000)
        #expect(MockAPNsConfiguration().connectionsPerAddressLimit == 1000)
    }
}
