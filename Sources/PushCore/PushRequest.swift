/// The HTTP methods APNs' APIs use: POST to send, GET and DELETE to manage broadcast channels.
public enum HTTPMethod: String, Sendable {
    case post = "POST", get = "GET", delete = "DELETE"
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

    public init(method: HTTPMethod, headers: [(String, String)], body: RequestBody?) {
        self.method = method
        self.headerLines = headers.map { "\($0.0): \($0.1)" }
        self.body = body
    }
}

/// One request: a path on the server, and its shape.
public struct PushRequest: Sendable {
    public let path: String
    public let shape: RequestShape

    public init(path: String, shape: RequestShape) {
        self.path = path
        self.shape = shape
    }
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
