/// The HTTP methods APNs' APIs use: POST to send, GET and DELETE to manage broadcast channels.
public enum HTTPMethod: String, Sendable {
    case post = "POST"
    case get = "GET"
    case delete = "DELETE"
}

/// A request body that stays at one address while a transport sends it: copied in once, then
/// shared by every request that carries it (one payload for a million tokens is one allocation).
public final class RequestBody: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer

    public init(_ bytes: [UInt8]) {
        storage = .allocate(byteCount: max(1, bytes.count), alignment: 1)
        storage.copyBytes(from: bytes)
        count = bytes.count
    }

    /// A body copied from part of a byte array (a line's payload), with no array made first.
    public init(_ bytes: ArraySlice<UInt8>) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.storage = storage
        count = bytes.count
    }

    deinit { storage.deallocate() }

    /// Bytes in the body (the storage may be one byte longer, for an empty body).
    public let count: Int
    /// Where the bytes are; valid for the body's lifetime, never written after init.
    public var baseAddress: UnsafeRawPointer { UnsafeRawPointer(storage.baseAddress!) }
    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: baseAddress, count: count)) }
}

/// What several requests share: the method, the header lines (`name: value`, lower-case names,
/// checked) and the body. A transport may keep what it builds from a shape (a header list) for
/// as long as the same shape comes back.
public final class RequestShape: Sendable {
    public let method: HTTPMethod
    public let headerLines: [String]
    public let body: RequestBody?

    public convenience init(method: HTTPMethod, headers: [(String, String)], body: RequestBody?) {
        self.init(method: method, headerLines: headers.map { $0.0 + ": " + $0.1 }, body: body)
    }

    /// Header lines already in `name: value` form (checked by whoever made them).
    public init(method: HTTPMethod, headerLines: [String], body: RequestBody?) {
        self.method = method
        self.headerLines = headerLines
        self.body = body
    }
}

/// One request: a path on the server, and its shape.
public struct PushRequest: Sendable {
    /// A device's path is kept as its token and written out when sent: a run of tokens makes no
    /// `/3/device/<token>` String a push.
    private enum Target: Sendable {
        case device(DeviceToken)
        case path(String)
    }
    private let target: Target
    public let shape: RequestShape

    public init(path: String, shape: RequestShape) {
        target = .path(path)
        self.shape = shape
    }

    /// `POST /3/device/<token>`.
    public init(deviceToken: DeviceToken, shape: RequestShape) {
        target = .device(deviceToken)
        self.shape = shape
    }

    public var path: String {
        switch target {
        case .device(let token): return PushRequest.devicePath + token.hex
        case .path(let path): return path
        }
    }

    /// Appends the path's bytes (what a transport writes after the base URL).
    public func appendPath(to bytes: inout [UInt8]) {
        switch target {
        case .device(let token):
            bytes.append(contentsOf: PushRequest.devicePathBytes)
            bytes.append(contentsOf: token.hex.utf8)
        case .path(let path):
            bytes.append(contentsOf: path.utf8)
        }
    }

    private static let devicePath = "/3/device/"
    private static let devicePathBytes = Array(devicePath.utf8)
}

/// One notification for one device: what the dispatcher sends, retries and reports on.
public struct DeviceNotification: Sendable {
    public let token: DeviceToken
    public let request: PushRequest
    /// Its place in the run's list (0 first), which its result carries: what a journal records
    /// and a resumed run skips by.
    public var position: Int

    public init(token: DeviceToken, request: PushRequest, position: Int = 0) {
        self.token = token
        self.request = request
        self.position = position
    }
}

/// What a request of a run is for, which its one final result names: a device, a broadcast's
/// channel, a channel management call, or a line of a followed input refused before anything was
/// sent (its number).
public enum RequestSubject: Sendable, Equatable {
    case device(DeviceToken)
    /// A broadcast (`POST /4/broadcasts/apps/<bundle>`) to a channel (its id).
    case channel(String)
    case channelCall(BroadcastAPI.ChannelCall)
    /// Line `number` of a followed input that is not a notification, with its own result.
    case line(Int)

    /// Which of the four, without what it carries.
    public enum Kind: Sendable {
        case device, channel, channelCall, line
    }

    public var kind: Kind {
        switch self {
        case .device: .device
        case .channel: .channel
        case .channelCall: .channelCall
        case .line: .line
        }
    }

    /// The token's hex, the channel id, the call as results name it ("create", "read ID"), or the
    /// line's number.
    public var name: String {
        switch self {
        case .device(let token): token.hex
        case .channel(let id): id
        case .channelCall(let call): call.label
        case .line(let number): String(number)
        }
    }

    /// The device, for a device's request.
    public var token: DeviceToken? {
        if case .device(let token) = self { return token }
        return nil
    }

    // What a result object names first (`jsonFields`) and how a line for people names it
    // (`label`: "channel ID") are the catalog's, with the rest of a result's rendering.
}

/// One request of a run, what it is for, and its place in the run's list: what the dispatcher
/// sends, retries and reports on, one final result each — a notification to a device, a
/// broadcast to a channel, a channel management call alike.
public struct RunRequest: Sendable {
    public let subject: RequestSubject
    public let request: PushRequest
    /// Its place in the run's list (0 first), as a device notification's.
    public var position: Int

    public init(subject: RequestSubject, request: PushRequest, position: Int = 0) {
        self.subject = subject
        self.request = request
        self.position = position
    }

    /// A device's notification: `POST /3/device/<token>` with `shape`.
    public init(device token: DeviceToken, shape: RequestShape, position: Int) {
        subject = .device(token)
        request = PushRequest(deviceToken: token, shape: shape)
        self.position = position
    }

    /// A device's notification as a request of a run.
    public init(_ notification: DeviceNotification) {
        subject = .device(notification.token)
        request = notification.request
        position = notification.position
    }
}

/// A checked device notification as one line of bytes, read back without checking or parsing
/// again: what a requests file's first pass keeps on disk, so that no line is parsed twice.
/// The fields are the token's hex, each header line, then the body, separated by 0x1F (the
/// unit separator). None can hold a control byte — header values are refused with one, and the
/// body is compact JSON, which escapes them — so a record is one line and splits one way.
public enum SpooledNotification {
    static let separator: UInt8 = 0x1F

    /// Appends `notification`'s record and a line feed to `out`.
    public static func append(_ notification: DeviceNotification, to out: inout [UInt8]) {
        out.append(contentsOf: notification.token.hex.utf8)
        for line in notification.request.shape.headerLines {
            out.append(separator)
            out.append(contentsOf: line.utf8)
        }
        out.append(separator)
        if let body = notification.request.shape.body {
            out.append(contentsOf: UnsafeRawBufferPointer(start: body.baseAddress, count: body.count))
        }
        out.append(0x0A)
    }

    /// The notification a record (without its line feed) holds; nil for bytes no record has.
    public static func read(_ record: ArraySlice<UInt8>) -> DeviceNotification? {
        var reader = Reader()
        return reader.read(record)
    }

    /// Whether `a` and `b` hold the same bytes, compared eight at a time.
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var offset = 0
        while offset + 8 <= a.count {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < a.count {
            guard a[offset] == b[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Reads records one after another. A record whose header lines are the record before's (most
    /// records of most files) shares that record's lines: no string is made for them again.
    public struct Reader {
        private var headerBytes: [UInt8] = []
        private var headerLines: [String] = []

        public init() {}

        /// The notification a record (without its line feed) holds; nil for bytes no record has.
        public mutating func read(_ record: ArraySlice<UInt8>) -> DeviceNotification? {
            guard let tokenEnd = record.firstIndex(of: separator), let bodyStart = record.lastIndex(of: separator).map({ $0 + 1 }),
                let token = try? DeviceToken(parsingUTF8: record[..<tokenEnd])
            else { return nil }
            // The header lines, each after a separator: empty when the body's separator is the token's.
            let headers = record[(tokenEnd + 1)..<bodyStart]
            let same = headers.withUnsafeBytes { new in headerBytes.withUnsafeBytes { SpooledNotification.same(new, $0) } }
            if !same {
                headerLines =
                    headers.isEmpty
                    ? []
                    : headers.dropLast().split(separator: separator, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                headerBytes = Array(headers)
            }
            return PushTemplate.notification(to: token, shape: RequestShape(method: .post, headerLines: headerLines, body: RequestBody(record[bodyStart...])))
        }
    }
}
