public import PushCore
import PushFiles
import PushSystem
import PushWords

/// `--follow`: a tokens or requests file (standard input, a pipe, a FIFO) read line by line as the
/// lines arrive, each checked and sent on arrival, with no spool and nothing read ahead: the run
/// reads when it has room, and waits on the descriptor (with its transfers) when no line has come.
///
/// A line that is not a notification gets its own result (a refused line, "line N") and the stream
/// goes on. Results are written in input order as they become final (`InputOrder`); at most
/// `window` lines are between the first not yet written and the last read, so memory stays flat
/// over an endless stream. A token given twice is sent twice (no set of the tokens seen grows).
public final class FollowInput: ArrivingRequests {
    public let displayName: String
    private let fd: Int32
    private let template: PushTemplate?
    private var requestReader: RequestLine.Reader?
    public let shard: Shard?
    private let lineLimit: Int
    /// Where results go in input order; the window is measured from what it has written.
    public let order = InputOrder()
    /// Lines read but not yet taken apart.
    private var buffer: [UInt8] = []
    private var start = 0
    private var discarding = false
    private var lineNumber = 0
    private var refused: [PushResult] = []
    public private(set) var ended = false
    /// The input's own end was read (not a stop): a last line without its line end is a line.
    private var endOfInput = false
    /// Places handed out: notifications and refused lines (what `count` reports).
    public private(set) var count = 0

    /// Lines at most between the first result not yet written and the last line read.
    public static let window = 4096

    /// One template to the tokens of each line.
    public convenience init(_ path: String, template: PushTemplate, shard: Shard?) throws(InputError) {
        try self.init(path, what: .tokensFile, template: template, requests: nil, shard: shard, lineLimit: DeviceTokenFile.lineLimit)
    }

    /// A notification on each line, the run's header values its defaults.
    public convenience init(_ path: String, requests defaults: PushSpec, shard: Shard?) throws(InputError) {
        try self.init(
            path, what: .requestsFile, template: nil, requests: RequestLine.Reader(defaults: defaults), shard: shard,
            lineLimit: RequestLine.lengthLimit)
    }

    private init(_ path: String, what: FileRole, template: PushTemplate?, requests: RequestLine.Reader?, shard: Shard?, lineLimit: Int) throws(InputError) {
        displayName = path
        fd = path == "-" ? Descriptors.standardInput : try InputFiles.open(path, what: what)
        self.template = template
        requestReader = requests
        self.shard = shard
        self.lineLimit = lineLimit
    }

    deinit { if fd != Descriptors.standardInput { Descriptors.close(fd) } }

    /// The one notification every token gets (nil for requests, whose lines carry their own).
    public var sharedTemplate: PushTemplate? { template }

    public var waitDescriptor: Int32? { ended || windowFull ? nil : fd }

    private var windowFull: Bool { count - order.written >= FollowInput.window }

    public func takeRefused() -> PushResult? { refused.isEmpty ? nil : refused.removeFirst() }

    public func stopReading() { ended = true }

    /// The next notification that has come, or nil: none yet, the window full, or the end.
    public func next() -> RunRequest? {
        while !windowFull {
            if let line = takeLine() {
                if let request = take(line) { return request }
                continue
            }
            guard !ended, readAvailable() else { return nil }
        }
        return nil
    }

    /// One line: its notification, or its refusal recorded (nil also for blank lines, comments,
    /// and lines of other shards).
    private func take(_ line: ArraySlice<UInt8>) -> RunRequest? {
        lineNumber += 1
        do throws(InputError) {
            if let template {
                let text = line.withUnsafeBufferPointer { DeviceTokenFile.tokenText($0).map { Array($0) } }
                guard let text else { return nil }
                let token = try text.withUnsafeBufferPointer { bytes throws(InputError) in try DeviceToken(parsingUTF8: bytes) }
                if let shard, !shard.contains(token) { return nil }
                count += 1
                return RunRequest(device: token, shape: template.shape, position: count - 1)
            }
            guard !RequestsFile.isBlank(line) else { return nil }
            guard line.count <= lineLimit else {
                throw InputError(RunInputProblem.followedLineTooLong(limit: lineLimit))
            }
            let notification = try requestReader!.parse(Array(line))
            if let shard, !shard.contains(notification.token) { return nil }
            count += 1
            var request = RunRequest(notification)
            request.position = count - 1
            return request
        } catch {
            refuse(error)
            return nil
        }
    }

    /// A bad line's result: not sent, final (it would be as bad again), in its place.
    private func refuse(_ error: InputError) {
        count += 1
        let problem = error.at(.line(displayName, lineNumber))
        refused.append(
            PushResult(
                subject: .line(lineNumber), position: count - 1, outcome: .rejected, status: nil, apnsID: nil, apnsUniqueID: nil,
                reason: nil, timestamp: nil, attempts: 0,
                explanation: .failed(.abandoned(.notSent(problem)), attempts: 0, limit: nil), stopped: nil, inDoubt: false))
    }

    /// The next whole line in the buffer (the rest at the end of the input); an overlong one is
    /// passed over and refused.
    private func takeLine() -> ArraySlice<UInt8>? {
        while true {
            if let lf = buffer[start...].firstIndex(of: 0x0A) {
                var end = lf
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[start..<end]
                start = lf + 1
                if discarding {
                    discarding = false
                    refuseOverlong()
                    continue
                }
                return line
            }
            if buffer.count - start > lineLimit {
                // No line end within the limit: what came of it is dropped, its end still to come.
                discarding = true
                start = buffer.count
            }
            guard endOfInput else { return nil }
            if discarding {
                // An overlong last line without its line end: refused like any other.
                discarding = false
                refuseOverlong()
                continue
            }
            guard start < buffer.count else { return nil }
            let line = buffer[start...]
            start = buffer.count
            return line
        }
    }

    /// A line over the limit: passed over (never held whole) and refused in its place.
    private func refuseOverlong() {
        lineNumber += 1
        count += 1
        let problem = InputError(RunInputProblem.followedLineTooLong(limit: lineLimit)).at(.line(displayName, lineNumber))
        refused.append(
            PushResult(
                subject: .line(lineNumber), position: count - 1, outcome: .rejected, status: nil, apnsID: nil, apnsUniqueID: nil,
                reason: nil, timestamp: nil, attempts: 0, explanation: .failed(.abandoned(.notSent(problem)), attempts: 0, limit: nil),
                stopped: nil, inDoubt: false))
    }

    /// Reads what has come, if anything has (a poll that does not wait, then one read): false
    /// when nothing had.
    private func readAvailable() -> Bool {
        guard Polling.wait(for: fd, .readable, milliseconds: 0) != nil else { return false }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 64 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let n = buffer.withUnsafeMutableBytes { Descriptors.read(fd, into: $0.baseAddress! + old, count: chunk) }
        buffer.removeLast(chunk - max(0, n))
        if n == 0 || (n < 0 && Errno.current != Errno.interrupted) {
            // The end, or an input that cannot be read on: what came is sent, the run ends.
            ended = true
            endOfInput = true
        }
        return n != 0 || ended
    }
}

/// Results in input order as they become final: a result waits only for those of earlier lines
/// (at most `FollowInput.window` of them).
public final class InputOrder: ResultObserver {
    var forward: (any ResultObserver)?
    /// Results written so far: the place of the next one to write.
    public private(set) var written = 0
    private var held: [Int: PushResult] = [:]

    public func record(_ result: PushResult) {
        guard result.position == written else {
            held[result.position] = result
            return
        }
        forward?.record(result)
        written += 1
        while let next = held.removeValue(forKey: written) {
            forward?.record(next)
            written += 1
        }
    }

    public func pause() { forward?.pause() }
}
