internal import CCurl
public import PushCore
import PushSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// A proxy URL (http, https, socks5, socks5h) and its credentials (`user:password`); without
    /// one, libcurl follows the `https_proxy`/`no_proxy` environment variables.
    public var proxy: String?
    public var proxyCredentials: String?
    /// A TLS client certificate (certificate-based authentication to APNs), given to libcurl in
    /// memory.
    public var clientCertificate: TLSClientCertificate?
    /// libcurl's CONNECT_TO: `HOST:PORT:CONNECT-HOST:CONNECT-PORT` entries that send the
    /// connection for HOST:PORT elsewhere while TLS still checks HOST's certificate.
    public var connectTo: [String] = []
    /// A descriptor that becomes readable when the run should look up from waiting (a stop signal's
    /// pipe): a poll returns as soon as it is, even with nothing of libcurl's ready.
    public var wakeDescriptor: Int32?
    /// Where libcurl's trace goes, line by line (nil: no trace), and whether it may show the JWT.
    public var trace: (@Sendable (String) -> Void)?
    public var showSecrets: Bool
    /// How the program names its settings: the trace's redaction says how to show the secret.
    public var naming = SettingNaming.plain

    public init(
        baseURL: String, caCertificateFile: String? = nil, concurrency: Int = 100, connections: Int = 1,
        connectTimeout: Double = 10, timeout: Double = 30, trace: (@Sendable (String) -> Void)? = nil,
        showSecrets: Bool = false
    ) {
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

extension CurlTransportConfiguration {
    /// The parts of every proxy's credentials this run may use (the one given, its `user:password`,
    /// the ones in libcurl's variables), which libcurl's trace and errors may name: each is masked
    /// there wherever it stands.
    var proxySecrets: [String] {
        var urls = ProxyVariables.read.compactMap { ProcessEnvironment.value($0) }
        if let proxy { urls.append(proxy) }
        var secrets: [String] = []
        for url in urls { secrets += Redaction.credentials(in: url) }
        if let proxyCredentials {
            secrets.append(proxyCredentials)
            secrets += proxyCredentials.split(separator: ":", maxSplits: 1).map(String.init)
        }
        return secrets.filter { $0.count >= Redaction.minimumSecretLength }
    }

    /// Whether requests go through a proxy: the one given, or one libcurl takes from the
    /// environment for this host (a connection that fails is then the proxy's, not the server's).
    var throughProxy: Bool {
        if proxy != nil { return true }
        let authority = baseURL.drop { $0 != "/" }.drop { $0 == "/" }.prefix { $0 != "/" }
        let host = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.prefix { $0 != ":" })
        return ProxyVariables.proxy(forHost: host, environment: ProcessEnvironment.value) != nil
    }
}

/// A client certificate (then its chain) and its private key, both PEM, for libcurl's
/// `CURLOPT_SSLCERT_BLOB`/`CURLOPT_SSLKEY_BLOB`: copied by libcurl, never written to disk.
public struct TLSClientCertificate: Sendable {
    public var certificatePEM: [UInt8]
    public var privateKeyPEM: [UInt8]

    public init(certificatePEM: [UInt8], privateKeyPEM: [UInt8]) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
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
    /// Handles carrying no request, reused before a new one is made.
    private var idle: [EasyHandle] = []
    /// Every handle made, idle or carrying a request: the transport owns them all. A finished
    /// transfer names its handle through CURLOPT_PRIVATE, so no table of those in flight is looked
    /// up (no hashing); each handle knows whether it is in flight.
    private var handles: [EasyHandle] = []
    private var inFlightCount = 0
    /// Attempts libcurl would not start, answered at the next poll.
    private var failedStarts: [PushAttemptResult] = []
    /// The path of the request being started, NUL-terminated.
    private var path: [UInt8] = []
    /// The header list last built, for the header lines and authorization it was built for.
    private var headerList: (list: HeaderList, lines: [String], authorization: String?)?
    private let trust: (file: String, directory: String?)?
    /// What libcurl asked to be told about: the sockets to watch and its next timeout.
    private let events = SocketEvents()
    private let streams = StreamCount()
    private let queueLength: Int

    public init(configuration: CurlTransportConfiguration) throws {
        guard CurlRuntime.initialise() else { throw CurlSetupError(description: "libcurl could not be initialised") }
        // PushEngine refuses such a libcurl first, in the reader's language; this is for other callers.
        switch CurlBuild.current.problem {
        case nil: break
        case .noHTTP2:
            throw CurlSetupError(
                description:
                    "this libcurl (\(CurlRuntime.version)) was built without HTTP/2, which APNs requires; install a libcurl with nghttp2 (Debian: libcurl4-openssl-dev)"
            )
        case .notOpenSSL3(let library):
            throw CurlSetupError(
                description:
                    "this libcurl (\(CurlRuntime.version)) is built on \(library.isEmpty ? "no TLS library" : library), not OpenSSL 3, which pushctl needs")
        }
        guard let multi = MultiHandle() else { throw CurlSetupError(description: "curl_multi_init failed") }
        self.configuration = configuration
        self.multi = multi
        try multi.require(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        try events.attach(to: multi)
        // Each connection carries its share of the requests in flight: with PIPEWAIT, libcurl
        // opens another connection only when the ones it has are full. libcurl also obeys the
        // server's SETTINGS_MAX_CONCURRENT_STREAMS (APNs starts at 1 and raises it).
        let connections = min(max(1, configuration.connections), 1024)
        let concurrency = min(max(1, configuration.concurrency), 1 << 20)
        try multi.require(CURLMOPT_MAX_HOST_CONNECTIONS, connections)
        try multi.require(CURLMOPT_MAX_CONCURRENT_STREAMS, max(1, (concurrency + connections - 1) / connections))
        queueLength = CurlTransport.queuePerConnection * connections
        trust = try configuration.caCertificateFile.map(CurlTransport.trust(adding:))
    }

    deinit {
        for handle in handles where handle.inFlight { curl_multi_remove_handle(multi.raw, handle.raw) }
        idle.removeAll()
        handles.removeAll()
    }

    /// In flight follows the server: libcurl sends as many requests as the server's SETTINGS allow
    /// (APNs: 1 until a request succeeds, then about 1,000) and keeps the rest waiting. pushctl keeps
    /// only a small queue of those waiting ones — enough to fill a raise at once — and adds more
    /// as streams free up, up to `concurrency`, the user's cap.
    public var availableSlots: Int {
        let waiting = inFlightCount - streams.active
        let room = configuration.concurrency - inFlightCount - failedStarts.count
        return max(0, min(room, queueLength - waiting))
    }

    /// Requests kept waiting for a stream, per connection.
    static let queuePerConnection = 64

    public func start(_ attempt: PushAttempt) {
        do {
            let handle = try idle.popLast() ?? makeHandle()
            let request = attempt.request
            handle.prepare(attemptID: attempt.id)
            try handle.use(method: request.shape.method, body: request.shape.body)
            handle.headers = headers(for: request.shape, authorization: attempt.authorization)
            // The path in one reused buffer (libcurl copies it): no String made and freed a push.
            path.removeAll(keepingCapacity: true)
            request.appendPath(to: &path)
            path.append(0)
            try handle.go(to: path)
            try handle.require(CURLOPT_HTTPHEADER, pointer: handle.headers?.raw)
            let code = curl_multi_add_handle(multi.raw, handle.raw)
            guard code == CURLM_OK else {
                handle.finished()
                idle.append(handle)
                throw CurlSetupError(description: "libcurl could not start the request: \(String(cString: curl_multi_strerror(code)))")
            }
            handle.inFlight = true
            inFlightCount += 1
        } catch {
            // Never left in flight without a transfer: the failure is the attempt's result.
            failedStarts.append(PushAttemptResult(attemptID: attempt.id, outcome: .failure(.other("\(error)"))))
        }
    }

    /// Waits up to `timeout` for progress, event-driven: `poll(2)` on exactly the sockets libcurl
    /// asked to watch, until libcurl's own next timeout; then `curl_multi_socket_action` for each
    /// socket that is ready (and for the timeout when it is due). Unlike `curl_multi_perform`, this
    /// does not walk every transfer on every wake-up, which halves the CPU a request costs with a
    /// thousand streams in flight; and waiting costs none.
    public func poll(timeout: Double) -> [PushAttemptResult] { poll(timeout: timeout, waking: nil) }

    /// As `poll(timeout:)`; a readable `input` (a followed input's next line) ends the wait too.
    public func poll(timeout: Double, waking input: Int32?) -> [PushAttemptResult] {
        let notStarted = failedStarts
        failedStarts.removeAll()
        runTimeoutIfDue()
        var results = collect()
        // Prepended only when there are any: appending the collected answers to another array
        // copied each one (a retain of each of its strings).
        if !notStarted.isEmpty { results.insert(contentsOf: notStarted, at: 0) }
        guard results.isEmpty else { return results }
        guard inFlightCount > 0 else {
            // Nothing to wait for but time (a retry's back-off) or the wake descriptor.
            var wake = [PolledDescriptor(configuration.wakeDescriptor ?? -1, .readable)]
            if let input { wake.append(PolledDescriptor(input, .readable)) }
            if timeout > 0 { _ = Polling.poll(&wake, milliseconds: Int32(min(timeout, 1) * 1000)) }
            return []
        }
        var wait = Int32(max(0, min(timeout, 60)) * 1000)
        if let due = events.timerDue {
            let now = Clocks.monotonicNanoseconds()
            wait = due <= now ? 0 : min(wait, Int32(min((due - now + 999_999) / 1_000_000, 60_000)))
        }
        var fds = events.sockets
        if let wake = configuration.wakeDescriptor { fds.append(PolledDescriptor(wake, .readable)) }
        if let input { fds.append(PolledDescriptor(input, .readable)) }
        let ready = Polling.poll(&fds, milliseconds: wait)
        if ready > 0 {
            var running: Int32 = 0
            for fd in fds where !fd.returned.isEmpty && fd.descriptor != configuration.wakeDescriptor && fd.descriptor != input {
                var mask: Int32 = 0
                if fd.returned.contains(.readable) { mask |= CURL_CSELECT_IN }
                if fd.returned.contains(.writable) { mask |= CURL_CSELECT_OUT }
                if !fd.returned.isDisjoint(with: [.error, .hangUp, .invalid]) { mask |= CURL_CSELECT_ERR }
                curl_multi_socket_action(multi.raw, fd.descriptor, mask, &running)
            }
        }
        runTimeoutIfDue()
        return collect()
    }

    private func runTimeoutIfDue() {
        guard let due = events.timerDue, due <= Clocks.monotonicNanoseconds() else { return }
        events.timerDue = nil
        var running: Int32 = 0
        pushctl_multi_socket_timeout(multi.raw, &running)
    }

    private func collect() -> [PushAttemptResult] {
        var results: [PushAttemptResult] = []
        var message = pushctl_multi_message()
        while pushctl_multi_info_read(multi.raw, &message) != 0 {
            guard message.msg == CURLMSG_DONE, let raw = message.easy, let handle = EasyHandle.owner(of: raw), handle.inFlight else { continue }
            handle.inFlight = false
            inFlightCount -= 1
            curl_multi_remove_handle(multi.raw, raw)
            handle.finished()
            results.append(PushAttemptResult(attemptID: handle.attemptID, outcome: outcome(of: handle, code: message.result)))
            handle.headers = nil
            idle.append(handle)
        }
        return results
    }

    private func outcome(of handle: EasyHandle, code: CURLcode) -> AttemptOutcome {
        // A status means the server answered: the request was processed, whatever happened to
        // the rest of the body. It is never sent again as if it had been lost.
        let status = handle.status
        if code == CURLE_OK || (100...599).contains(status) {
            guard handle.httpVersion == Int(CURL_HTTP_VERSION_2_0) else {
                return .failure(.unreachable("\(configuration.baseURL) answered over HTTP/1.x; APNs speaks only HTTP/2", cause: .protocolMismatch))
            }
            var response = PushResponse(
                status: status, apnsID: handle.apnsID, apnsUniqueID: handle.apnsUniqueID,
                retryAfterSeconds: handle.retryAfter, body: handle.responseBody)
            response.channelID = handle.channelID
            response.requestID = handle.requestID
            return .success(response)
        }
        let detail = Redaction.scrub(
            handle.errorDetail.isEmpty ? String(cString: curl_easy_strerror(code)) : handle.errorDetail, secrets: configuration.proxySecrets)
        let failure = CurlFailure(code: code.rawValue, detail: detail, throughProxy: configuration.throughProxy)
        if failure != .proxy && detail.contains("times before giving up") {
            // libcurl already opened new connections for this request, and each died before the
            // request could start: the server takes connections but no streams.
            return .failure(
                .refused(
                    "libcurl tried the request on several new connections and each closed before it could start (a server whose HTTP/2 SETTINGS allow 0 streams does this); stopped so as not to hammer it"
                ))
        }
        switch failure {
        // With a proxy, a connection that fails is the proxy's; a tunnel it refuses is too.
        case .proxy: return .failure(.unreachable(detail, cause: .proxy))
        case .dns: return .failure(.unreachable(detail, cause: .dns))
        case .connection: return .failure(.unreachable(detail, cause: .connection))
        case .certificate: return .failure(.unreachable(detail, cause: .certificate))
        case .tls: return .failure(.unreachable(detail, cause: .tls))
        case .address: return .failure(.unreachable(detail))
        case .timeout: return handle.reachedServer ? .failure(.timedOut(detail)) : .failure(.unreachable(detail, cause: .timeout))
        case .connectionLost: return .failure(.connectionLost(detail))
        case .other: return .failure(.other(detail))
        }
    }

    /// The request's header list: the one built last when the shape and the JWT are the same
    /// (every push of a batch), else a new one. libcurl adds "Content-Type:
    /// application/x-www-form-urlencoded" and "Accept: */*" to a POST of raw fields; an empty
    /// value removes each. APNs needs neither.
    /// Compared by content, never by the shape's identity (a freed shape's address can come back
    /// with other headers): for a batch's one shape the arrays share storage and compare at once;
    /// a requests file's lines, each its own shape, mostly carry the same headers and reuse it too.
    private func headers(for shape: RequestShape, authorization: String?) -> HeaderList {
        if let cached = headerList, cached.authorization == authorization, cached.lines == shape.headerLines { return cached.list }
        let list = HeaderList(shape.headerLines + ["content-type:", "accept:"] + (authorization.map { ["authorization: \($0)"] } ?? []))
        headerList = (list, shape.headerLines, authorization)
        return list
    }

    private func makeHandle() throws -> EasyHandle {
        let handle = try CurlTransport.makeHandle(configuration, trust: trust, streams: streams)
        try handle.locate(configuration.baseURL)
        handles.append(handle)
        return handle
    }

    /// How every handle pushctl makes reaches the server, the same for the transport, the
    /// connection probe and the GOAWAY probe: no signals, the connect timeout, certificates
    /// always verified (with the added CA), the client certificate from memory, CONNECT_TO, and
    /// the proxy (which wins over no_proxy) with its credentials. Returns the CONNECT_TO list,
    /// which must live as long as the handle.
    static func connection(
        _ handle: some CurlOptionTarget, _ configuration: CurlTransportConfiguration,
        trust: (file: String, directory: String?)?, connectTimeout: Double
    ) throws -> HeaderList? {
        try handle.require(CURLOPT_NOSIGNAL, 1)
        try handle.require(CURLOPT_CONNECTTIMEOUT_MS, CurlTransport.milliseconds(connectTimeout))
        try handle.require(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.require(CURLOPT_SSL_VERIFYHOST, 2)
        if let trust {
            try handle.require(CURLOPT_CAINFO, trust.file)
            if let directory = trust.directory { try handle.require(CURLOPT_CAPATH, directory) }
        }
        if let client = configuration.clientCertificate {
            try handle.require(CURLOPT_SSLCERTTYPE, "PEM")
            try handle.require(CURLOPT_SSLCERT_BLOB, blob: client.certificatePEM)
            try handle.require(CURLOPT_SSLKEYTYPE, "PEM")
            try handle.require(CURLOPT_SSLKEY_BLOB, blob: client.privateKeyPEM)
        }
        var connectTo: HeaderList?
        if !configuration.connectTo.isEmpty {
            let list = HeaderList(configuration.connectTo)
            connectTo = list
            try handle.require(CURLOPT_CONNECT_TO, pointer: list.raw)
        }
        if let proxy = configuration.proxy {
            try handle.require(CURLOPT_PROXY, proxy)
            // The proxy given wins over no_proxy too (libcurl would otherwise still read it).
            try handle.require(CURLOPT_NOPROXY, "")
            if let credentials = configuration.proxyCredentials { try handle.require(CURLOPT_PROXYUSERPWD, credentials) }
        } else if !CurlTransport.environmentNamesAProxy {
            // No variable names a proxy, so libcurl would connect directly: say so once, rather
            // than have it read six variables for each request.
            try handle.require(CURLOPT_PROXY, "")
            try handle.require(CURLOPT_NOPROXY, "")
        }
        return connectTo
    }

    /// Whether any variable libcurl takes a proxy from is set, even empty (`ProxyVariables.read`).
    /// When none is, libcurl connects directly whatever `no_proxy` says.
    static let environmentNamesAProxy = ProxyVariables.read.contains { (name: String) in ProcessEnvironment.value(name) != nil }

    /// A handle set up for `configuration`: HTTP/2 over TLS, certificates always verified, its
    /// timeouts, proxy and trace. (The connection probe makes its one handle here too.)
    static func makeHandle(
        _ configuration: CurlTransportConfiguration, trust: (file: String, directory: String?)?,
        streams: StreamCount
    ) throws -> EasyHandle {
        guard let handle = EasyHandle(streams: streams) else { throw CurlSetupError(description: "curl_easy_init failed (out of memory?)") }
        try handle.require(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        try handle.require(CURLOPT_PIPEWAIT, 1)
        try handle.require(CURLOPT_TIMEOUT_MS, CurlTransport.milliseconds(configuration.timeout))
        handle.connectTo = try connection(handle, configuration, trust: trust, connectTimeout: configuration.connectTimeout)
        if let sink = configuration.trace {
            let trace = CurlTrace(showSecrets: configuration.showSecrets, secrets: configuration.proxySecrets, naming: configuration.naming, sink: sink)
            try trace.attach(to: handle)
            handle.trace = trace
        }
        return handle
    }

    /// The GOAWAY reason of a server that closes connections before answering (see
    /// ``GoAwayProbe``); costs one extra connection, so the dispatcher asks once a run.
    public func goAwayReason() -> String? {
        GoAwayProbe.run(configuration: configuration, trust: trust)?.reason.map { OutsideText.display($0, limit: 100) }
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

/// The state libcurl's socket and timer callbacks keep (reached through SOCKETDATA/TIMERDATA as
/// an unretained pointer; the transport keeps it alive as long as the multi handle).
final class SocketEvents {
    /// The sockets libcurl wants watched, each with the poll(2) events it wants (a few at most).
    var sockets: [PolledDescriptor] = []
    /// When libcurl wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)` (monotonic ns), if at all.
    var timerDue: UInt64?

    /// Watches `socket` for `wanted` (0: known, nothing to wait for), or forgets it (nil).
    func watch(_ socket: Int32, _ wanted: PollEvents?) {
        let index = sockets.firstIndex { $0.descriptor == socket }
        switch (index, wanted) {
        case (let index?, let wanted?): sockets[index].events = wanted
        case (let index?, nil): sockets.remove(at: index)
        case (nil, let wanted?): sockets.append(PolledDescriptor(socket, wanted))
        case (nil, nil): break
        }
    }

    func attach(to multi: MultiHandle) throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try multi.require(CURLMOPT_SOCKETDATA, pointer: me)
        try multi.require(CURLMOPT_TIMERDATA, pointer: me)
        var code = pushctl_multi_setopt_socketfunction(multi.raw) { _, socket, what, context, _ in
            let wanted: PollEvents?
            switch what {
            case CURL_POLL_REMOVE: wanted = nil
            case CURL_POLL_IN: wanted = .readable
            case CURL_POLL_OUT: wanted = .writable
            case CURL_POLL_INOUT: wanted = [.readable, .writable]
            default: wanted = []  // CURL_POLL_NONE: known, nothing to wait for
            }
            Unmanaged<SocketEvents>.fromOpaque(context!).takeUnretainedValue().watch(socket, wanted)
            return 0
        }
        guard code == CURLM_OK else { throw CurlSetupError(description: "libcurl refused the socket callback: \(String(cString: curl_multi_strerror(code)))") }
        code = pushctl_multi_setopt_timerfunction(multi.raw) { _, milliseconds, context in
            let due = milliseconds < 0 ? nil : Clocks.monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000
            Unmanaged<SocketEvents>.fromOpaque(context!).takeUnretainedValue().timerDue = due
            return 0
        }
        guard code == CURLM_OK else { throw CurlSetupError(description: "libcurl refused the timer callback: \(String(cString: curl_multi_strerror(code)))") }
    }
}

/// The variables libcurl takes a proxy from when none is given, in the order it reads them for
/// an https:// URL (`https_proxy`, then `HTTPS_PROXY`, then `all_proxy`, `ALL_PROXY`), and
/// `no_proxy`/`NO_PROXY`, the hosts it then reaches directly. `http_proxy` (lower case only) is
/// read for http:// URLs.
public enum ProxyVariables {
    public static let forHTTPS = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    public static let read = forHTTPS + ["http_proxy"]
    public static let noProxy = ["no_proxy", "NO_PROXY"]

    /// The proxy libcurl takes from the environment for an https:// URL to `host`, if one applies:
    /// the first of `forHTTPS` set and not empty, unless `no_proxy` names the host (`*`, the host
    /// itself, or a domain it is in), as libcurl reads them.
    public static func proxy(forHost host: String, environment: (String) -> String?) -> String? {
        guard let proxy = forHTTPS.compactMap({ environment($0) }).first(where: { !$0.isEmpty }) else { return nil }
        let excluded = noProxy.compactMap { environment($0) }.first(where: { !$0.isEmpty }) ?? ""
        let name = host.lowercased().trimmingBrackets()
        for entry in excluded.split(separator: ",") {
            let domain = entry.trimmingWhitespace().lowercased()
            if domain == "*" { return nil }
            if let slash = domain.firstIndex(of: "/") {
                // An IPv4 range (libcurl 7.86 reads CIDR): the host inside it goes direct.
                if let network = ipv4(domain[..<slash]), let bits = Int(domain[domain.index(after: slash)...]), (0...32).contains(bits),
                    let address = ipv4(Substring(name))
                {
                    let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
                    if address & mask == network & mask { return nil }
                }
                continue
            }
            let bare = domain.hasPrefix(".") ? String(domain.dropFirst()) : domain
            if !bare.isEmpty, name == bare || name.hasSuffix("." + bare) { return nil }
        }
        return proxy
    }

    /// A dotted IPv4 address as a number, or nil.
    static func ipv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0 >= "0" && $0 <= "9" }), let byte = UInt32(part), byte <= 255 else { return nil }
            value = value << 8 | byte
        }
        return value
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    fileprivate func trimmingBrackets() -> String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : String(self)
    }
}
