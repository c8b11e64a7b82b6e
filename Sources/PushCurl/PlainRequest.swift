internal import CCurl
import PushCore

/// One plain HTTP/1.1 request, start to answer within a bounded time, on a connection of its own:
/// what pushctl sends besides its pushes (a run's metrics to a Prometheus Pushgateway). libcurl's
/// easy interface, each option's result checked; http and https only, no redirect followed.
public enum PlainRequest {
    /// What the server answered.
    public struct Answer: Sendable, Equatable {
        public let status: Int
        /// The start of the body (at most 4 KiB), for a message.
        public let body: String
    }

    /// Why there is no answer: libcurl's own words.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Sends `body` with `method` (PUT, POST) to `url`; at most `timeout` seconds in all.
    public static func send(
        _ method: String, to url: String, body: [UInt8], contentType: String,
        timeout: Double
    ) -> Result<Answer, Failure> {
        guard CurlRuntime.initialise(), let handle = OneShotHandle() else { return .failure(Failure(description: "libcurl could not be initialised")) }
        let milliseconds = max(1, Int(timeout * 1000))
        let headers = HeaderList(["Content-Type: " + contentType, "Expect:"])
        do {
            let target = BareEasyHandle(raw: handle.raw)
            try target.require(CURLOPT_URL, url)
            try target.require(CURLOPT_PROTOCOLS_STR, "http,https")
            try target.require(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            try target.require(CURLOPT_CUSTOMREQUEST, method)
            try target.require(CURLOPT_POSTFIELDSIZE, body.count)
            // Copied by libcurl at once (POSTFIELDSIZE bytes): the bytes need not outlive the setup.
            let copied = body.isEmpty ? [0] : body
            try copied.withUnsafeBytes { bytes in try target.require(CURLOPT_COPYPOSTFIELDS, pointer: bytes.baseAddress) }
            try target.require(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(headers.raw))
            try target.require(CURLOPT_TIMEOUT_MS, milliseconds)
            try target.require(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            try target.require(CURLOPT_NOSIGNAL, 1)
            try target.require(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(handle.errorBuffer))
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
        let code = withExtendedLifetime(headers) { curl_easy_perform(handle.raw) }
        guard code == CURLE_OK else {
            let detail = String(cString: handle.errorBuffer)
            return .failure(Failure(description: OutsideText.display(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail, limit: 300)))
        }
        var status = 0
        pushctl_easy_getinfo_long(handle.raw, CURLINFO_RESPONSE_CODE, &status)
        return .success(Answer(status: status, body: OutsideText.display(String(decoding: handle.body, as: UTF8.self), limit: 300)))
    }
}

/// One easy handle for one request, and the start of its answer's body; freed in deinit.
private final class OneShotHandle {
    let raw: UnsafeMutableRawPointer
    var body: [UInt8] = []
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init?() {
        guard let raw = curl_easy_init() else {
            errorBuffer.deallocate()
            return nil
        }
        self.raw = raw
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        pushctl_easy_setopt_ptr(raw, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        pushctl_easy_setopt_write(raw) { data, size, count, context in
            let length = size * count
            let handle = Unmanaged<OneShotHandle>.fromOpaque(context!).takeUnretainedValue()
            let room = 4096 - handle.body.count
            if room > 0 { handle.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(length, room))) }
            return length
        }
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }
}
