internal import CCurl
internal import CLibcrypto
public import PushCore
import PushFiles

/// How far one request to a server got, stage by stage: what `pushctl doctor` reports for each
/// APNs host. Made by `ConnectionProbe.run`.
public struct ConnectionProbeReport: Sendable {
    /// The stages of reaching an HTTP/2 server, in order.
    public enum Stage: String, Sendable, CaseIterable {
        /// The host name resolved (through the proxy's own lookup when one resolves for us).
        case dns
        /// A TCP connection (or, with a proxy, a tunnel through it).
        case tcp
        /// The TLS handshake, with the server's certificate verified against the trusted roots.
        case tls
        /// The server answered over HTTP/2 (ALPN h2).
        case http2
    }

    /// The first stage that failed (every stage before it passed); nil when all passed.
    public var failedStage: Stage?
    /// Why it failed, in the transport's words; nil when all passed.
    public var cause: UnreachableCause?
    /// libcurl's own words for the failure (empty when all passed).
    public var detail = ""
    /// The address connected to (the proxy's, when one is used).
    public var address: String?
    /// Milliseconds from the start until each stage was done.
    public var milliseconds: [Stage: Int] = [:]
    /// The HTTP status of the answer, when there was one.
    public var status: Int?
    /// Whether the answer came over HTTP/2.
    public var spokeHTTP2 = false
    /// The answer's `date` header, as sent (printable ASCII, at most 128 characters).
    public var serverDate: String?
    /// OpenSSL's reason the server's certificate did not verify, when it did not.
    public var certificateProblem: String?
    /// The proxy's answer to CONNECT (200 when it opened the tunnel), when an HTTP proxy was used.
    public var proxyConnectStatus: Int?
    /// This machine's clock (UNIX seconds) when the answer came, to compare with `serverDate`.
    public var localDate: Int64?

    /// A report with nothing found yet (a probe fills it in; a test double too).
    public init() {}

    public var passed: Bool { failedStage == nil }
}

/// One request per server, to see how far each connection gets: name lookup, TCP, TLS
/// (certificate verified), HTTP/2. The requests run side by side on libcurl's multi interface,
/// each on a fresh connection, so the whole is bounded by the slowest configuration's timeout.
public enum ConnectionProbe {
    /// Sends `GET path` to each configuration's `baseURL` (through its proxy and trust settings)
    /// and reports in the same order. APNs answers such a request with an error status, which is
    /// enough: it came over HTTP/2, and dated.
    public static func run(_ configurations: [CurlTransportConfiguration], path: String = "/") -> [ConnectionProbeReport] {
        var reports = [ConnectionProbeReport](repeating: ConnectionProbeReport(), count: configurations.count)
        guard CurlRuntime.initialise(), let multi = MultiHandle() else {
            for index in reports.indices { reports[index].fail(.dns, .other, "libcurl could not be initialised") }
            return reports
        }
        let streams = StreamCount()
        var handles: [UnsafeMutableRawPointer: (index: Int, handle: EasyHandle)] = [:]
        for (index, configuration) in configurations.enumerated() {
            do {
                let trust = try configuration.caCertificateFile.map(CurlTransport.trust(adding:))
                let handle = try CurlTransport.makeHandle(configuration, trust: trust, streams: streams)
                handle.prepare(attemptID: index)
                handle.readsDate = true
                try handle.use(method: .get, body: nil)
                try handle.require(CURLOPT_URL, configuration.baseURL + path)
                try handle.require(CURLOPT_FRESH_CONNECT, 1)
                guard curl_multi_add_handle(multi.raw, handle.raw) == CURLM_OK else {
                    reports[index].fail(.dns, .other, "libcurl could not start the request")
                    continue
                }
                handles[handle.raw] = (index, handle)
            } catch {
                reports[index].fail(.dns, .other, "\(error)")
            }
        }
        var running: Int32 = Int32(handles.count)
        var message = pushctl_multi_message()
        while !handles.isEmpty {
            if curl_multi_perform(multi.raw, &running) != CURLM_OK { break }
            while pushctl_multi_info_read(multi.raw, &message) != 0 {
                guard message.msg == CURLMSG_DONE, let raw = message.easy, let (index, handle) = handles.removeValue(forKey: raw) else { continue }
                reports[index] = report(handle, code: message.result, configuration: configurations[index])
                curl_multi_remove_handle(multi.raw, raw)
            }
            if !handles.isEmpty && running > 0 { curl_multi_wait(multi.raw, nil, 0, 200, nil) }
        }
        for (raw, item) in handles {
            reports[item.index].fail(.dns, .other, "libcurl stopped before the request finished")
            curl_multi_remove_handle(multi.raw, raw)
        }
        return reports
    }

    static func report(_ handle: EasyHandle, code: CURLcode, configuration: CurlTransportConfiguration) -> ConnectionProbeReport {
        var report = ConnectionProbeReport()
        report.localDate = WallClock.now()
        report.status = (100...599).contains(handle.status) ? handle.status : nil
        report.spokeHTTP2 = handle.httpVersion == Int(CURL_HTTP_VERSION_2_0)
        report.serverDate = handle.date
        report.address = handle.string(CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : OutsideText.display($0, limit: 64) }
        let connectStatus = handle.long(CURLINFO_HTTP_CONNECTCODE)
        report.proxyConnectStatus = connectStatus > 0 ? connectStatus : nil
        let times: [(ConnectionProbeReport.Stage, CURLINFO)] = [
            (.dns, CURLINFO_NAMELOOKUP_TIME), (.tcp, CURLINFO_CONNECT_TIME), (.tls, CURLINFO_APPCONNECT_TIME), (.http2, CURLINFO_TOTAL_TIME),
        ]
        for (stage, info) in times {
            let seconds = handle.double(info)
            if seconds > 0 { report.milliseconds[stage] = max(1, Int((seconds * 1000).rounded())) }
        }

        if code == CURLE_OK || report.status != nil {
            report.milliseconds[.dns] = report.milliseconds[.dns] ?? 0
            if !report.spokeHTTP2 {
                report.milliseconds[.http2] = nil
                report.fail(.http2, .protocolMismatch, "the server answered over HTTP/1.x, not HTTP/2")
            }
            return report
        }
        let detail = Redaction.scrub(
            handle.errorDetail.isEmpty ? String(cString: curl_easy_strerror(code)) : handle.errorDetail, secrets: configuration.proxySecrets)
        let verify = handle.long(CURLINFO_SSL_VERIFYRESULT)
        if verify != 0, let reason = X509_verify_cert_error_string(verify) {
            report.certificateProblem = OutsideText.display(String(cString: reason), limit: 120)
        }
        // The stage that did not finish, for failures libcurl does not name by stage.
        let unfinished = times.first { report.milliseconds[$0.0] == nil }?.0 ?? .http2
        switch CurlFailure(code: code.rawValue, detail: detail, throughProxy: configuration.throughProxy) {
        case .proxy: report.fail(.tcp, .proxy, detail)
        case .dns: report.fail(.dns, .dns, detail)
        case .connection: report.fail(.tcp, .connection, detail)
        case .certificate: report.fail(.tls, .certificate, detail)
        case .tls: report.fail(.tls, report.certificateProblem == nil ? .tls : .certificate, detail)
        case .timeout: report.fail(unfinished, .timeout, detail)
        case .connectionLost: report.fail(unfinished == .tls ? .tls : .http2, unfinished == .tls ? .tls : .protocolMismatch, detail)
        case .address, .other: report.fail(unfinished, .other, detail)
        }
        return report
    }
}

extension ConnectionProbeReport {
    mutating func fail(_ stage: Stage, _ cause: UnreachableCause, _ detail: String) {
        failedStage = stage
        self.cause = cause
        self.detail = detail
        // Stages from the failed one on did not finish.
        for later in Stage.allCases.drop(while: { $0 != stage }) { milliseconds[later] = nil }
    }
}

extension EasyHandle {
    func long(_ info: CURLINFO) -> Int {
        var value = 0
        return pushctl_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    func double(_ info: CURLINFO) -> Double {
        var value = 0.0
        return pushctl_easy_getinfo_double(raw, info, &value) == CURLE_OK ? value : 0
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>? = nil
        guard pushctl_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
