public import Foundation
import NIOConcurrencyHelpers
import PushCore
import PushFiles
import PushSystem
import PushWords

/// One request the mock received and what it did about it: what `--log` writes, one JSON line each.
public struct MockRequestRecord: Sendable {
    public let time: Date
    /// Connections are numbered from 1 in the order they were accepted.
    public let connectionID: Int
    public let streamID: Int
    public let method: String
    public let path: String
    /// As received, in order; `authorization` is reduced to `bearer <header JSON> <claims JSON>`
    /// (the signature is never kept).
    public let headers: [(name: String, value: String)]
    /// The body as UTF-8 text, cut after ``MockRequestRecord/bodyKeptLimit`` bytes.
    public let body: String
    public let bodyByteCount: Int
    /// The HTTP status answered, or 0 when the stream was refused or the connection dropped.
    public let status: Int
    /// The APNs reason answered, if any.
    public let reason: String?
    /// The `apns-id` answered.
    public let apnsID: String?
    /// The simulated fault applied to this request, if any (see ``MockFaults``).
    public let fault: String?
    /// Which check failed, when the reason does not say it (a provider token's: its kid, its
    /// signature, its iat…).
    public let detail: String?

    /// Bodies are kept up to this many bytes: enough for any valid payload and then some.
    public static let bodyKeptLimit = 8192

    /// The first value of a header (names are lower-case in HTTP/2).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The JSON object `--log` writes.
    public var json: String {
        var members: [(String, JSONValue)] = [
            ("time", .string(Self.iso8601(time))),
            ("connection", .integer(Int64(connectionID))),
            ("stream", .integer(Int64(streamID))),
            ("method", .string(method)),
            ("path", .string(path)),
            ("headers", .object(headers.map { ($0.name, .string($0.value)) })),
            ("body", .string(body)),
            ("bodyBytes", .integer(Int64(bodyByteCount))),
            ("status", .integer(Int64(status))),
            ("reason", reason.map(JSONValue.string) ?? .null),
            ("apnsID", apnsID.map(JSONValue.string) ?? .null),
        ]
        if let fault { members.append(("fault", .string(fault))) }
        if let detail { members.append(("detail", .string(detail))) }
        return Self.terminalSafe(JSONValue.object(members).compact)
    }

    /// JSON escapes C0 controls but leaves DEL, the C1 controls and Unicode's separators and
    /// bidi overrides raw in its strings; a log is read on terminals (`tail -f`), so those are
    /// written as `\u` escapes too (``OutsideText/isControl(_:)`` decides): the same JSON value,
    /// nothing a terminal acts on. Every such character is in the BMP.
    static func terminalSafe(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 >= 0x7F }) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F && OutsideText.isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `2025-11-21T15:04:05.123Z`
    static func iso8601(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = millis - seconds * 1000
        // UTCDate prints "2025-11-21 15:04:05 UTC".
        let text = UTCDate.format(unixSeconds: seconds)
        let day = text.prefix(10)
        let clock = text.dropFirst(11).prefix(8)
        let ms = String(fraction)
        return "\(day)T\(clock).\(String(repeating: "0", count: 3 - ms.count))\(ms)Z"
    }
}

/// Keeps the latest records in memory and appends each to the log file, batched off the event loops.
final class RequestJournal: Sendable {
    private struct Ring {
        var items: [MockRequestRecord] = []
        var next = 0
    }

    private let limit: Int
    private let ring = NIOLockedValueBox(Ring())
    private let log: LogFile?
    private let subscriber: (@Sendable (MockRequestRecord) -> Void)?

    init(recordLimit: Int, log: LogFile?, subscriber: (@Sendable (MockRequestRecord) -> Void)? = nil) {
        limit = max(0, recordLimit)
        self.log = log
        self.subscriber = subscriber
    }

    /// Whether anyone reads records; when not, the server does not build them.
    var isActive: Bool { limit > 0 || log != nil || subscriber != nil }

    func append(_ record: MockRequestRecord) {
        if limit > 0 {
            ring.withLockedValue { ring in
                if ring.items.count < limit {
                    ring.items.append(record)
                } else {
                    ring.items[ring.next] = record
                    ring.next = (ring.next + 1) % limit
                }
            }
        }
        log?.append(record.json)
        subscriber?(record)
    }

    /// Oldest first.
    var records: [MockRequestRecord] {
        ring.withLockedValue { ring in Array(ring.items[ring.next...] + ring.items[..<ring.next]) }
    }

    func clear() {
        ring.withLockedValue { $0 = Ring() }
    }

    func close() {
        log?.close()
    }
}

/// An append-only file written from a serial queue: event loops only copy the line into a buffer.
/// It is rotated at `sizeLimit`: renamed to `PATH.1` (rename(2) replaces that name, never what a
/// link there points at) and a new file opened as the first was, no link followed.
final class LogFile: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var flushScheduled = false
        var descriptor: Int32
        /// Bytes in the current file.
        var size: Int64
    }

    let path: String
    let sizeLimit: Int64
    private let state: NIOLockedValueBox<State>
    private let queue = DispatchQueue(label: "pushctl.mock.log")
    private let onProblem: (@Sendable (Words) -> Void)?

    init(path: String, sizeLimit: Int64 = MockAPNsConfiguration.defaultLogSizeLimit, onProblem: (@Sendable (Words) -> Void)? = nil) throws(InputError) {
        let fd = try Self.open(path)
        self.path = path
        self.sizeLimit = max(1, sizeLimit)
        self.onProblem = onProblem
        state = NIOLockedValueBox(State(descriptor: fd, size: FileSystem.status(of: fd)?.size ?? 0))
    }

    private static func open(_ path: String) throws(InputError) -> Descriptor {
        let shown = OutsideText.display(path, limit: 200)
        return try MockOutputFiles.openForAppending(path, what: Words("the log file", es: "el archivo de registro")) { code in
            let reason = SystemError.reason(code)
            return InputError(
                Words("cannot open the log file '\(shown)': \(reason)", es: "no se puede abrir el archivo de registro '\(shown)': \(reason)"),
                hint: Words("check that its folder exists and is writable", es: "comprueba que su carpeta existe y se puede escribir"),
                kind: .cannotCreateOutput)
        }
    }

    func append(_ line: String) {
        let scheduleFlush = state.withLockedValue { state -> Bool in
            state.pending.append(contentsOf: line.utf8)
            state.pending.append(0x0A)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if scheduleFlush {
            queue.asyncAfter(deadline: .now() + .milliseconds(20)) { self.flush() }
        }
    }

    /// Writes what is pending now (tests).
    func flushNow() { queue.sync { flush() } }

    /// On the queue.
    private func flush() {
        let (bytes, fd, size) = state.withLockedValue { state -> ([UInt8], Int32, Int64) in
            defer {
                state.pending.removeAll(keepingCapacity: true)
                state.flushScheduled = false
            }
            return (state.pending, state.descriptor, state.size)
        }
        guard fd >= 0, !bytes.isEmpty else { return }
        let target = size >= sizeLimit ? rotate(fd) : fd
        guard target >= 0 else { return }
        // A full disk must not stop the mock: what could not be written is dropped.
        let written = bytes.withUnsafeBytes { Descriptors.writeAll(target, $0) }
        state.withLockedValue { $0.size += Int64(written) }
    }

    /// On the queue: the full file becomes `PATH.1` and a new one starts; its descriptor, or -1
    /// when the new one cannot be opened (then the log stops, said once through `onProblem`).
    private func rotate(_ fd: Int32) -> Int32 {
        Descriptors.close(fd)
        var next: Int32 = -1
        if FileSystem.rename(path, to: path + ".1") {
            do { next = try Self.open(path) } catch { onProblem?(error.words + Words("; the mock logs no more", es: "; el mock ya no registra nada")) }
        } else {
            let reason = SystemError.reason(Errno.current)
            let shown = OutsideText.display(path, limit: 200)
            onProblem?(
                Words(
                    "the log '\(shown)' could not be rotated (\(reason)); the mock logs no more",
                    es: "no se pudo rotar el registro '\(shown)' (\(reason)); el mock ya no registra nada"))
        }
        state.withLockedValue { state in
            state.descriptor = next
            state.size = 0
        }
        return next
    }

    /// Writes what is pending and closes the file.
    func close() {
        queue.sync {
            flush()
            let fd = state.withLockedValue { state -> Int32 in
                defer { state.descriptor = -1 }
                return state.descriptor
            }
            if fd >= 0 { Descriptors.close(fd) }
        }
    }
}
