import NIOCore
import PushCore
import Testing

@testable import PushMock

/// The mock's deadlines, in process (``EmbeddedMock``) on a clock the test moves: set-up, idle
/// requests and connections, delayed answers. (The rest of its HTTP/2 in process: ProtocolFidelityTests,
/// HostileHTTP2Tests.)
@Suite("Deadlines in process")
struct DeadlineTests {
    func answers(_ frames: [WireFrame]) -> [UInt32: String] {
        var statuses: [UInt32: String] = [:]
        for frame in frames where frame.type == WireFrame.headers {
            if let status = frame.status, !status.hasPrefix("1") { statuses[frame.streamID] = status }
        }
        return statuses
    }

    func goAway(_ frames: [WireFrame]) -> WireFrame? { frames.first { $0.type == WireFrame.goAway } }

    // MARK: - Deadlines, on the test's clock

    @Test func aConnectionThatNeverSendsItsPrefaceIsClosedAtTheSetUpDeadline() throws {
        let mock = try EmbeddedMock(preface: false)
        defer { _ = try? mock.channel.finish(acceptAlreadyClosed: true) }
        mock.advance(by: .milliseconds(9_999))
        #expect(!mock.isClosed)
        mock.advance(by: .milliseconds(1))
        #expect(mock.isClosed)
    }

    @Test func aConnectionSetUpInTimeStaysOpen() throws {
        let mock = try EmbeddedMock()
        defer { _ = try? mock.channel.finish(acceptAlreadyClosed: true) }
        mock.advance(by: .seconds(60))
        #expect(!mock.isClosed)
    }

    @Test func aStalledBodyIsAnsweredIdleTimeoutThenTheIdleConnectionGetsGoAway() async throws {
        try await withEmbeddedMock(configure: { $0.limits.idleTimeoutMilliseconds = 5_000 }) { mock in
            var w = FrameWriter()
            w.headers(stream: 1, ProtocolFidelityTests.request + mock.standardHeaders, endStream: false)
            w.data(stream: 1, Array(#"{"aps":"#.utf8), endStream: false)
            try await mock.send(&w)
            mock.advance(by: .milliseconds(4_900))
            #expect(answers(mock.frames).isEmpty)
            mock.advance(by: .milliseconds(200))
            #expect(answers(mock.frames) == [1: "400"])
            #expect(mock.frames.contains { $0.type == WireFrame.rstStream && $0.streamID == 1 && $0.errorCode == 0 })
            #expect(mock.records.first?.reason == "IdleTimeout")
            // Its stream gone, the connection has nothing to do and its last frame is as old: it ends.
            let end = try #require(goAway(mock.frames))
            #expect(end.debugData == #"{"reason":"IdleTimeout"}"#)
            #expect(end.lastStreamID == 1)
        }
    }

    @Test func anIdleConnectionGetsGoAwayAfterTheIdleTimeout() async throws {
        try await withEmbeddedMock(configure: { $0.limits.idleTimeoutMilliseconds = 5_000 }) { mock in
            var w = FrameWriter()
            w.request(stream: 1, headers: mock.standardHeaders)
            try await mock.send(&w)
            mock.advance(by: .milliseconds(4_000))
            #expect(goAway(mock.frames) == nil)
            mock.advance(by: .milliseconds(1_100))
            let end = try #require(goAway(mock.frames))
            #expect(end.debugData == #"{"reason":"IdleTimeout"}"#)
            #expect(end.lastStreamID == 1)
        }
    }

    @Test func aDelayedAnswerWaitsForTheClock() async throws {
        try await withEmbeddedMock(configure: { $0.faults.responseDelayMilliseconds = 250 }) { mock in
            var w = FrameWriter()
            w.request(stream: 1, headers: mock.standardHeaders)
            try await mock.send(&w)
            mock.advance(by: .milliseconds(249))
            #expect(answers(mock.frames).isEmpty)
            mock.advance(by: .milliseconds(1))
            #expect(answers(mock.frames) == [1: "200"])
        }
    }
}
