internal import CCurl
import Foundation
public import PushCore

/// Where and how to connect.
public struct CurlTransportConfiguration: Sendable {
    /// `https://host[:port]`, without a path.
    public var baseURL: String
    /// Extra CA certificates (PEM file) trusted besides the system's.
    public var caCertificateFile: String?
    /// Most requests in flight at once (all connections together).
    public var concurrency: Int
    /// Connections to open to the host; streams are multiplexed on each.
    public var connections: Int
    public var connectTimeout: Double
    /// Whole-request timeout, from start to answer.
    public var timeout: Double
    /// Where libcurl's trace goes, line by line (nil: no trace), and whether it may show the JWT.
    public var trace: (@Sendable (String) -> Void)?
    public var showSecrets: Bool

    public init(baseURL: String, caCertificateFile: String? = nil, concurrency: Int = 100, connections: Int = 1,
                connectTimeout: Double = 10, timeout: Double = 30, trace: (@Sendable (String) -> Void)? = nil,
                showSecrets: Bool = false) {
        self.baseURL = baseURL
        self.caCertificateFile = caCertificateFile
        self.concurrency = concurrency
        self.connections = connections
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.trace = trace
        self.showSecrets = showSecrets
    }
}

public struct CurlSetupError: Error, CustomStringConvertible {
    public let description: String

    init(description: String) { self.description = description }

    init(option: UInt32, code: CURLcode) {
        description = "libcurl refused option \(option): \(String(cString: curl_easy_strerror(code)))"
    }
}

/// HTTP/2 to APNs through libcurl's multi interface: every request is a stream multiplexed on
/// a connection (`CURLPIPE_MULTIPLEX`, `PIPEWAIT`). Each request carries its own method, path,
/// headers and body, so one connection pool serves any mix; what requests share is not redone:
/// easy handles are reused, the header list is rebuilt only when the shape or the JWT changes,
/// and a shared body is pointed at, never copied per push.
public final class CurlTransport: PushTransport {
    private let configuration: CurlTransportConfiguration
    private let multi: MultiHandle
    private var idle: [EasyHandle] = []
    private var inFlight: [UnsafeMutableRawPointer: EasyHandle] = [:]
    /// Attempts libcurl would not start, answered at the next poll.
    private var failedStarts: [PushAttemptResult] = []
    /// The header list last built, for the shape and authorization it was built for.
    private var headerList: (list: HeaderList, shape: ObjectIdentifier, authorization: String?)?
    private let trust: (file: String, directory: String?)?

    public init(configuration: CurlTransportConfiguration) throws {
        guard CurlRuntime.initialise() else { throw CurlSetupError(description: "libcurl could not be initialised") }
        guard CurlRuntime.supportsHTTP2 else {
            throw CurlSetupError(description: "this libcurl (\(CurlRuntime.version)) was built without HTTP/2, which APNs requires; install a libcurl with nghttp2 (Debian: libcurl4-openssl-dev)")
        }
        guard let multi = MultiHandle() else { throw CurlSetupError(description: "curl_multi_init failed") }
        self.configuration = configuration
        self.multi = multi
        try multi.require(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        // Each connection carries its share of the requests in flight: with PIPEWAIT, libcurl
        // opens another connection only when the ones it has are full. libcurl also obeys the
        // server's SETTINGS_MAX_CONCURRENT_STREAMS (APNs starts at 1 and raises it).
        let connections = min(max(1, configuration.connections), 1024)
        let concurrency = min(max(1, configuration.concurrency), 1 << 20)
        try multi.require(CURLMOPT_MAX_HOST_CONNECTIONS, connections)
        try multi.require(CURLMOPT_MAX_CONCURRENT_STREAMS, max(1, (concurrency + connections - 1) / connections))
        trust = try configuration.caCertificateFile.map(CurlTransport.trust(adding:))
    }

    deinit {
        for handle in inFlight.values { curl_multi_remove_handle(multi.raw, handle.raw) }
        inFlight.removeAll()
        idle.removeAll()
    }

    public var availableSlots: Int { max(0, configuration.concurrency - inFlight.count - failedStarts.count) }

    public func start(_ attempt: PushAttempt) {
        do {
            let handle = try idle.popLast() ?? makeHandle()
            let request = attempt.request
            handle.prepare(attemptID: attempt.id)
            try handle.use(method: request.shape.method, body: request.shape.body)
            handle.headers = headers(for: request.shape, authorization: attempt.authorization)
            try handle.require(CURLOPT_URL, configuration.baseURL + request.path)
            try handle.require(CURLOPT_HTTPHEADER, pointer: handle.headers?.raw)
            let code = curl_multi_add_handle(multi.raw, handle.raw)
            guard code == CURLM_OK else {
                idle.append(handle)
                throw CurlSetupError(description: "libcurl could not start the request: \(String(cString: curl_multi_strerror(code)))")
            }
            inFlight[handle.raw] = handle
        } catch {
            // Never left in flight without a transfer: the failure is the attempt's result.
            failedStarts.append(PushAttemptResult(attemptID: attempt.id, outcome: .failure(.other("\(error)"))))
        }
    }

    public func poll(timeout: Double) -> [PushAttemptResult] {
        var running: Int32 = 0
        curl_multi_perform(multi.raw, &running)
        var results = collect()
        if !failedStarts.isEmpty {
            results += failedStarts
            failedStarts.removeAll()
        }
        if results.isEmpty && !inFlight.isEmpty {
            curl_multi_poll(multi.raw, nil, 0, Int32(max(0, min(timeout, 60)) * 1000), nil)
            curl_multi_perform(multi.raw, &running)
            results = collect()
        } else if results.isEmpty && timeout > 0 {
            usleep(UInt32(min(timeout, 1) * 1_000_000))
        }
        return results
    }

    private func collect() -> [PushAttemptResult] {
        var results: [PushAttemptResult] = []
        var message = pushctl_multi_message()
        while pushctl_multi_info_read(multi.raw, &message) != 0 {
            guard message.msg == CURLMSG_DONE, let raw = message.easy, let handle = inFlight.removeValue(forKey: raw) else { continue }
            curl_multi_remove_handle(multi.raw, raw)
            results.append(PushAttemptResult(attemptID: handle.attemptID, outcome: outcome(of: handle, code: message.result)))
            handle.headers = nil
            idle.append(handle)
        }
        return results
    }

    private func outcome(of handle: EasyHandle, code: CURLcode) -> Result<PushResponse, TransportFailure> {
        // A status means the server answered: the request was processed, whatever happened to
        // the rest of the body. It is never sent again as if it had been lost.
        let status = handle.status
        if code == CURLE_OK || (100...599).contains(status) {
            guard handle.httpVersion == Int(CURL_HTTP_VERSION_2_0) else {
                return .failure(.unreachable("\(configuration.baseURL) answered over HTTP/1.x; APNs speaks only HTTP/2"))
            }
            return .success(PushResponse(status: status, apnsID: handle.apnsID, apnsUniqueID: handle.apnsUniqueID,
                                         retryAfterSeconds: handle.retryAfter, body: handle.responseBody))
        }
        let detail = handle.errorDetail.isEmpty ? String(cString: curl_easy_strerror(code)) : handle.errorDetail
        if detail.contains("times before giving up") {
            // libcurl already opened new connections for this request, and each died before the
            // request could start: the server takes connections but no streams.
            return .failure(.refused("libcurl opened new connections for a request and each died before the request could start (its HTTP/2 SETTINGS may allow 0 concurrent streams); stopped so as not to hammer it"))
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR,
             CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_UNSUPPORTED_PROTOCOL,
             CURLE_URL_MALFORMAT:
            return .failure(.unreachable(detail))
        case CURLE_OPERATION_TIMEDOUT:
            return handle.reachedServer ? .failure(.timedOut(detail)) : .failure(.unreachable(detail))
        case CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE:
            return .failure(.connectionLost(detail))
        default:
            return .failure(.other(detail))
        }
    }

    /// The request's header list: the one built last when the shape and the JWT are the same
    /// (every push of a batch), else a new one. libcurl adds "Content-Type:
    /// application/x-www-form-urlencoded" and "Accept: */*" to a POST of raw fields; an empty
    /// value removes each. APNs needs neither.
    private func headers(for shape: RequestShape, authorization: String?) -> HeaderList {
        let id = ObjectIdentifier(shape)
        if let cached = headerList, cached.shape == id, cached.authorization == authorization { return cached.list }
        let list = HeaderList(shape.headerLines + ["content-type:", "accept:"] + (authorization.map { ["authorization: \($0)"] } ?? []))
        headerList = (list, id, authorization)
        return list
    }

    private func makeHandle() throws -> EasyHandle {
        guard let handle = EasyHandle() else { throw CurlSetupError(description: "curl_easy_init failed (out of memory?)") }
        try handle.require(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        try handle.require(CURLOPT_PIPEWAIT, 1)
        try handle.require(CURLOPT_NOSIGNAL, 1)
        try handle.require(CURLOPT_CONNECTTIMEOUT_MS, CurlTransport.milliseconds(configuration.connectTimeout))
        try handle.require(CURLOPT_TIMEOUT_MS, CurlTransport.milliseconds(configuration.timeout))
        try handle.require(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.require(CURLOPT_SSL_VERIFYHOST, 2)
        if let trust {
            try handle.require(CURLOPT_CAINFO, trust.file)
            if let directory = trust.directory { try handle.require(CURLOPT_CAPATH, directory) }
        }
        if let sink = configuration.trace {
            let trace = CurlTrace(showSecrets: configuration.showSecrets, sink: sink)
            try trace.attach(to: handle)
            handle.trace = trace
        }
        return handle
    }

    static let emptyBody = RequestBody([])

    /// Seconds as libcurl's milliseconds, whatever the number (a day at most; at least 1 ms).
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 86_400_000 }
        return Int(min(max(seconds, 0.001), 86_400) * 1000)
    }

    /// `--cacert` adds a CA rather than replacing the system's: the file becomes CAINFO, and the
    /// system's certificate directory stays as CAPATH, which OpenSSL reads only for the issuer
    /// it needs. (A combined PEM bundle as a blob would be copied and parsed on every transfer.)
    static func trust(adding file: String) throws -> (file: String, directory: String?) {
        var directory: String?
        if let probe = curl_easy_init() {
            defer { curl_easy_cleanup(probe) }
            var path: UnsafePointer<CChar>? = nil
            if pushctl_easy_getinfo_string(probe, CURLINFO_CAPATH, &path) == CURLE_OK, let path { directory = String(cString: path) }
        }
        if directory == nil, FileManager.default.fileExists(atPath: "/etc/ssl/certs") { directory = "/etc/ssl/certs" }
        return (file, directory)
    }
}
