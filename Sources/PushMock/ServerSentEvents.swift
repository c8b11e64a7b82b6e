import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// A numbered stream of JSON events for browsers (server-sent events): the latest
/// ``retainedLimit`` are kept for viewers who join late, at most ``viewerLimit`` viewers at once.
///
/// Events may be published from any thread; they are written in batches (every
/// ``batchInterval``) on one event loop, which alone touches the retained events and the viewers,
/// so a viewer's catch-up and the live events can neither overlap nor leave a gap.
final class ServerSentEvents: Sendable {
    static let retainedLimit = 500
    static let viewerLimit = 32
    static let batchInterval = TimeAmount.milliseconds(50)
    /// A comment line this often keeps proxies from closing a quiet stream and finds dead viewers.
    static let keepAliveInterval = TimeAmount.seconds(15)

    let loop: any EventLoop
    private let incoming = NIOLockedValueBox(Incoming())
    private let state: LoopState

    /// Published, not yet written: touched under the lock from any thread.
    private struct Incoming {
        var nextID = 1
        var pending: [(id: Int, data: String)] = []
        var flushScheduled = false
    }

    /// Touched only on `loop`.
    private final class LoopState: @unchecked Sendable {
        var retained: [(id: Int, data: String)] = []
        var viewers: [ObjectIdentifier: any Channel] = [:]
        var closed = false
    }

    init(loop: any EventLoop) {
        self.loop = loop
        state = LoopState()
        loop.execute { [state] in self.scheduleKeepAlive(state) }
    }

    /// Queues one event (a JSON object on one line) for every viewer. Returns its number.
    @discardableResult
    func publish(_ json: String) -> Int {
        let (id, schedule) = incoming.withLockedValue { incoming -> (Int, Bool) in
            let id = incoming.nextID
            incoming.nextID += 1
            incoming.pending.append((id, json))
            // A burst faster than the batches: what the ring would drop anyway is dropped now.
            if incoming.pending.count > Self.retainedLimit { incoming.pending.removeFirst(incoming.pending.count - Self.retainedLimit) }
            defer { incoming.flushScheduled = true }
            return (id, !incoming.flushScheduled)
        }
        if schedule {
            loop.scheduleTask(in: Self.batchInterval) { self.flush() }
        }
        return id
    }

    /// On the loop: adds a viewer and, before any live event, calls `start` (which writes the
    /// response head) and writes the retained events numbered above `after`. False when
    /// ``viewerLimit`` viewers are watching already.
    func subscribe(_ channel: any Channel, after: Int?, start: () -> Void) -> Bool {
        loop.preconditionInEventLoop()
        guard !state.closed, state.viewers.count < Self.viewerLimit else { return false }
        state.viewers[ObjectIdentifier(channel)] = channel
        start()
        var text = "retry: 2000\n\n"
        for event in state.retained where event.id > (after ?? 0) { text += Self.frame(event) }
        write(text, to: channel)
        return true
    }

    func unsubscribe(_ channel: any Channel) {
        loop.execute { [state] in state.viewers[ObjectIdentifier(channel)] = nil }
    }

    /// Ends every viewer's stream and stops the keep-alives.
    func close() {
        loop.execute { [state] in
            state.closed = true
            for channel in state.viewers.values { channel.close(promise: nil) }
            state.viewers = [:]
        }
    }

    /// The number of viewers, read on the loop (for tests).
    func viewerCount() async -> Int {
        (try? await loop.submit { [state] in state.viewers.count }.get()) ?? 0
    }

    /// On the loop: the retained events, oldest first, including any published but not yet
    /// written (a page renders them before it opens its stream).
    func retained() -> [(id: Int, data: String)] {
        loop.preconditionInEventLoop()
        flush()
        return state.retained
    }

    private static func frame(_ event: (id: Int, data: String)) -> String {
        // JSON on one line: its strings escape every control character, so no CR or LF ends the field early.
        "id: \(event.id)\ndata: \(event.data)\n\n"
    }

    private func flush() {
        let batch = incoming.withLockedValue { incoming -> [(id: Int, data: String)] in
            defer {
                incoming.pending.removeAll(keepingCapacity: true)
                incoming.flushScheduled = false
            }
            return incoming.pending
        }
        guard !batch.isEmpty, !state.closed else { return }
        var text = ""
        for event in batch {
            text += Self.frame(event)
            state.retained.append(event)
        }
        if state.retained.count > Self.retainedLimit { state.retained.removeFirst(state.retained.count - Self.retainedLimit) }
        for channel in Array(state.viewers.values) {
            // A viewer 16 MB behind is dropped; its browser reconnects with Last-Event-ID and catches up.
            if channel.isWritable { write(text, to: channel) } else { channel.close(promise: nil) }
        }
    }

    private func scheduleKeepAlive(_ state: LoopState) {
        loop.scheduleTask(in: Self.keepAliveInterval) {
            guard !state.closed else { return }
            for channel in Array(state.viewers.values) { self.write(": still here\n\n", to: channel) }
            self.scheduleKeepAlive(state)
        }
    }

    private func write(_ text: String, to channel: any Channel) {
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))), promise: nil)
    }
}
