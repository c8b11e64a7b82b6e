import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import PushCore
import PushWords

/// A numbered stream of JSON events for browsers (server-sent events): the latest
/// ``retainedLimit`` are kept for viewers who join late; the viewers' places are shared among
/// addresses (``sharing``), a viewer that reads nothing is dropped, and every stream ends after
/// ``StreamTiming/lifetime`` (a browser comes back at once and misses nothing).
///
/// Events may be published from any thread; they are written in batches (every
/// ``batchInterval``) on one event loop, which alone touches the retained events and the viewers,
/// so a viewer's catch-up and the live events can neither overlap nor leave a gap.
final class ServerSentEvents: Sendable {
    static let retainedLimit = 500
    static let sharing = PlaceSharing.viewers
    static let batchInterval = TimeAmount.milliseconds(50)

    /// How long streams and their silences may last.
    struct StreamTiming: Sendable {
        /// A comment line this often keeps proxies from closing a quiet stream, and is when
        /// stalled viewers are looked for. None is written to a viewer still behind.
        var keepAlive: TimeAmount = .seconds(15)
        /// A viewer whose writes have waited this long with none of them taken reads nothing
        /// (a script holding a place, a laptop gone to sleep): it is dropped.
        var stallLimit: TimeAmount = .seconds(30)
        /// A stream ends after this, with `retry` set short: a browser reconnects at once with
        /// `Last-Event-ID`, a forgotten stream gives its place back.
        var lifetime: TimeAmount = .minutes(10)

        static let standard = StreamTiming()
    }

    let loop: any EventLoop
    let timing: StreamTiming
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
        var viewers: [ObjectIdentifier: Viewer] = [:]
        var places = PlaceCount()
        var closed = false
    }

    /// One viewer's stream. Touched only on `loop`.
    private final class Viewer: @unchecked Sendable {
        let channel: any Channel
        let group: String
        /// Writes handed to the channel, not yet taken by the socket.
        var unwritten = 0
        /// Since when writes have waited with none taken; nil when none waits.
        var waitingSince: NIODeadline?
        var ending: Scheduled<Void>?
        /// Its response's end is written: nothing more may follow it (HTTP/1.1 allows no body part
        /// after the end), though the channel has not closed yet.
        var ended = false

        init(channel: any Channel, group: String) {
            self.channel = channel
            self.group = group
        }
    }

    init(loop: any EventLoop, timing: StreamTiming = .standard) {
        self.loop = loop
        self.timing = timing
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

    /// On the loop: adds a viewer when ``sharing`` gives its address a place and, before any live
    /// event, calls `start` (which writes the response head) and writes the retained events
    /// numbered above `after`. Otherwise says why not (the viewer is not added).
    func subscribe(_ channel: any Channel, after: Int?, start: () -> Void) -> PlaceSharing.Decision {
        loop.preconditionInEventLoop()
        guard !state.closed else { return .full }
        let group = PlaceSharing.group(of: channel.remoteAddress?.ipAddress ?? "?")
        let decision = state.places.take(group, under: Self.sharing)
        guard decision == .admitted else { return decision }
        let viewer = Viewer(channel: channel, group: group.key)
        state.viewers[ObjectIdentifier(channel)] = viewer
        viewer.ending = loop.scheduleTask(in: timing.lifetime) { self.end(viewer) }
        start()
        var text = "retry: 2000\n\n"
        for event in state.retained where event.id > (after ?? 0) { text += Self.frame(event) }
        write(text, to: viewer)
        return .admitted
    }

    func unsubscribe(_ channel: any Channel) {
        loop.execute { [state] in
            guard let viewer = state.viewers.removeValue(forKey: ObjectIdentifier(channel)) else { return }
            state.places.release(viewer.group)
            viewer.ending?.cancel()
        }
    }

    /// What a refused viewer reads (the body of a 503), in English and Spanish.
    static func refusal(_ decision: PlaceSharing.Decision) -> String {
        let (limit, share) = (sharing.limit, sharing.perAddress)
        let words: Words
        switch decision {
        case .addressShareUsed:
            words = Words(
                "this address has \(share) live views open already (each address may have \(share) of the \(limit), so that the whole class can watch); close one and reload",
                es:
                    "esta dirección ya tiene \(share) vistas en directo abiertas (cada dirección puede tener \(share) de las \(limit), para que toda la clase pueda mirar); cierra una y recarga"
            )
        case .full, .admitted:
            words = Words(
                "\(limit) viewers are watching already; close one and reload",
                es: "ya hay \(limit) personas mirando; cierra una vista y recarga")
        }
        // Read in a terminal as often as in a browser (curl): 80 columns.
        return TextLayout.wrapped(words.en, width: 80) + "\n" + TextLayout.wrapped(words.es, width: 80) + "\n"
    }

    /// Ends every viewer's stream and stops the keep-alives.
    func close() {
        loop.execute { [state] in
            state.closed = true
            for viewer in state.viewers.values {
                viewer.ending?.cancel()
                viewer.channel.close(promise: nil)
            }
            state.viewers = [:]
            state.places = PlaceCount()
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
        for viewer in Array(state.viewers.values) {
            // A viewer 16 MB behind is dropped; its browser reconnects with Last-Event-ID and catches up.
            if viewer.channel.isWritable { write(text, to: viewer) } else { viewer.channel.close(promise: nil) }
        }
    }

    private func scheduleKeepAlive(_ state: LoopState) {
        loop.scheduleTask(in: timing.keepAlive) {
            guard !state.closed else { return }
            let now = NIODeadline.now()
            for viewer in Array(state.viewers.values) {
                if let since = viewer.waitingSince {
                    // Behind: no heartbeat piles up after what it has not read, and past the
                    // limit it gives its place back.
                    if now - since >= self.timing.stallLimit { viewer.channel.close(promise: nil) }
                } else {
                    self.write(": still here\n\n", to: viewer)
                }
            }
            self.scheduleKeepAlive(state)
        }
    }

    /// At the end of its lifetime: the stream ends properly, with a short `retry`, so a browser
    /// comes back at once; one that is behind is closed.
    private func end(_ viewer: Viewer) {
        let channel = viewer.channel
        guard state.viewers[ObjectIdentifier(channel)] != nil, !viewer.ended else { return }
        guard viewer.unwritten == 0 else { return channel.close(promise: nil) }
        write("retry: 250\n\n", to: viewer)
        viewer.ended = true
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Writes to one viewer, counting what the socket has not taken yet.
    private func write(_ text: String, to viewer: Viewer) {
        // An event or a heartbeat that comes between the end and the close is not this stream's.
        guard !viewer.ended else { return }
        if viewer.unwritten == 0 { viewer.waitingSince = .now() }
        viewer.unwritten += 1
        let channel = viewer.channel
        let written = channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))))
        written.hop(to: loop).whenComplete { _ in
            viewer.unwritten -= 1
            // Something was taken: the wait, if any is left, starts again.
            viewer.waitingSince = viewer.unwritten == 0 ? nil : .now()
        }
    }
}
