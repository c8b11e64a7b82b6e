internal import CCurl
import PushCore
import PushSystem

/// Owns one `CURL*` easy handle and the state its callbacks fill; freed in deinit.
/// libcurl's callbacks reach it through WRITEDATA/HEADERDATA/DEBUGDATA as an unretained
/// pointer: the transport keeps every handle alive while it is in the multi handle.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// The attempt this handle is carrying, while it is in flight.
    var attemptID = 0
    var responseBody: [UInt8] = []
    var apnsID: String?
    var apnsUniqueID: String?
    var retryAfter: Int?
    var channelID: String?
    var requestID: String?
    /// The answer's `date` header (what `pushctl doctor` compares the clock with), read only
    /// when `readsDate`: pushes have no use for it, and every answer carries one.
    var date: String?
    var readsDate = false
    /// Keeps the header list this request was started with alive until it completes.
    var headers: HeaderList?
    /// CURLOPT_CONNECT_TO's list, kept as long as the handle.
    var connectTo: HeaderList?
    /// CURLOPT_ERRORBUFFER must outlive every transfer: allocated here, freed in deinit.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var trace: CurlTrace?

    /// Whether the handle is in the multi handle, carrying a request (the transport's to set).
    var inFlight = false

    init?(streams: StreamCount) {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        self.streams = streams
        let me = Unmanaged.passUnretained(self).toOpaque()
        pushctl_easy_setopt_ptr(raw, CURLOPT_PRIVATE, me)
        pushctl_easy_setopt_ptr(raw, CURLOPT_WRITEDATA, me)
        pushctl_easy_setopt_ptr(raw, CURLOPT_HEADERDATA, me)
        pushctl_easy_setopt_write(raw) { data, size, count, context in
            let length = size * count
            // Bodies are error JSON (tiny): keep the first 64 KiB and let the rest go by. Refusing
            // it (returning less than `length`) would fail a request the server already answered,
            // and it would be sent again: a notification delivered twice.
            let handle = Unmanaged<EasyHandle>.fromOpaque(context!).takeUnretainedValue()
            let room = EasyHandle.bodyLimit - handle.responseBody.count
            if room > 0 { handle.responseBody.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(length, room))) }
            return length
        }
        pushctl_easy_setopt_header(raw) { data, size, count, context in
            let length = size * count
            Unmanaged<EasyHandle>.fromOpaque(context!).takeUnretainedValue().readHeader(UnsafeRawBufferPointer(start: data, count: length))
            return length
        }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        pushctl_easy_setopt_ptr(raw, CURLOPT_ERRORBUFFER, errorBuffer)
        pushctl_easy_setopt_ptr(raw, CURLOPT_PREREQDATA, me)
        pushctl_easy_setopt_prereq(raw) { context, _, _, _, _ in
            let handle = Unmanaged<EasyHandle>.fromOpaque(context!).takeUnretainedValue()
            if !handle.started {
                handle.started = true
                handle.streams.active += 1
            }
            return CURL_PREREQFUNC_OK
        }
    }

    /// Whether libcurl has sent this request (it had a stream for it), and the transport's count
    /// of such requests, which this handle adds itself to.
    private(set) var started = false
    /// The transport's count; it owns every handle and outlives them all.
    unowned(unsafe) var streams: StreamCount

    /// The handle a `CURL*` of pushctl's belongs to (its CURLOPT_PRIVATE), unretained: whoever made
    /// it keeps it alive.
    static func owner(of raw: UnsafeMutableRawPointer) -> EasyHandle? {
        var context: UnsafeMutableRawPointer?
        guard pushctl_easy_getinfo_ptr(raw, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { return nil }
        return Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
    }

    /// Takes the handle out of the count when its transfer ends.
    func finished() {
        if started { streams.active -= 1 }
        started = false
    }

    /// How much of an answer's body is kept.
    static let bodyLimit = 64 * 1024

    deinit {
        curl_easy_cleanup(raw)
        curl_url_cleanup(location)  // after the handle that pointed at it; nil is allowed
        errorBuffer.deallocate()
    }

    /// Where requests go, as libcurl's parsed URL (CURLOPT_CURLU): made once from the base URL, and
    /// a request changes only its path. libcurl then no longer parses, normalises and prints a
    /// whole URL string for each request, a large share of a push's own work.
    private var location: OpaquePointer?

    /// Points the handle at `base` (`https://host[:port]`, no path), for ``go(to:)``.
    func locate(_ base: String) throws {
        guard let location = curl_url() else { throw CurlSetupError(description: "curl_url failed (out of memory?)") }
        self.location = location
        let code = curl_url_set(location, CURLUPART_URL, base, 0)
        guard code == CURLUE_OK else {
            throw CurlSetupError(description: "libcurl could not read the URL \(base): \(String(cString: curl_url_strerror(code)))")
        }
        try require(CURLOPT_CURLU, pointer: UnsafeRawPointer(location))
    }

    /// The next request's path (bytes then a NUL; libcurl copies it) on the base URL.
    func go(to path: [UInt8]) throws {
        precondition(path.last == 0, "a C string ends with NUL")
        guard let location else { throw CurlSetupError(description: "the handle has no base URL") }
        let code = path.withUnsafeBufferPointer { curl_url_set(location, CURLUPART_PATH, $0.baseAddress, 0) }
        guard code == CURLUE_OK else {
            throw CurlSetupError(description: "libcurl could not take the path: \(String(cString: curl_url_strerror(code)))")
        }
        // libcurl sends to the location as it is now, its retries of a refused stream included: it
        // reads it afresh for each transfer (CURLOPT_CURLU's documented contract, and
        // BatchReliabilityTests checks each token's own path was answered once). Its own URL string,
        // for messages, 7.88 remakes only when the handle has none: a trace clears it, so the trace
        // never names the handle's first request (making that string is work a push need not do).
        if trace != nil { try require(CURLOPT_URL, pointer: nil) }
    }

    func set(_ option: CURLoption, _ value: Int) { pushctl_easy_setopt_long(raw, option, value) }

    func set(_ option: CURLoption, _ value: String) {
        value.withCString { _ = pushctl_easy_setopt_ptr(raw, option, $0) }  // libcurl copies strings
    }

    /// The method and body of the request being sent; libcurl reads the body from where it
    /// is, so the handle keeps it alive until it carries another.
    private(set) var body: RequestBody?
    private var method: HTTPMethod?

    func use(method: HTTPMethod, body: RequestBody?) throws {
        if method != self.method {
            switch method {
            case .post:
                try require(CURLOPT_POST, 1)
                try require(CURLOPT_CUSTOMREQUEST, pointer: nil)
            case .get:
                try require(CURLOPT_HTTPGET, 1)
                try require(CURLOPT_CUSTOMREQUEST, pointer: nil)
            case .delete:
                try require(CURLOPT_HTTPGET, 1)
                try require(CURLOPT_CUSTOMREQUEST, "DELETE")
            }
            self.method = method
            self.body = nil
        }
        if method == .post, body !== self.body {
            let target = body ?? CurlTransport.emptyBody
            try require(CURLOPT_POSTFIELDS, pointer: target.baseAddress)
            let size = pushctl_easy_setopt_off(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(target.count))
            guard size == CURLE_OK else { throw CurlSetupError(option: CURLOPT_POSTFIELDSIZE_LARGE.rawValue, code: size) }
            self.body = body
        }
    }

    func prepare(attemptID: Int) {
        self.attemptID = attemptID
        responseBody.removeAll(keepingCapacity: true)
        apnsID = nil
        apnsUniqueID = nil
        retryAfter = nil
        channelID = nil
        requestID = nil
        date = nil
        errorBuffer[0] = 0
    }

    /// The header a name (as sent, any case) is among the few that matter: an index into the
    /// switch below, or nil. By length first, then bytes: no table, no String.
    private static func wanted(_ name: UnsafeRawBufferPointer) -> Int? {
        func named(_ wanted: StaticString) -> Bool {
            guard name.count == wanted.utf8CodeUnitCount else { return false }
            for index in 0..<name.count {
                let byte = name[index]
                if (byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte) != wanted.utf8Start[index] { return false }
            }
            return true
        }
        switch name.count {
        case 7: return named("apns-id") ? 0 : nil
        case 14: return named("apns-unique-id") ? 1 : nil
        case 11: return named("retry-after") ? 2 : nil
        case 15: return named("apns-channel-id") ? 3 : named("apns-request-id") ? 4 : nil
        case 4: return named("date") ? 5 : nil
        default: return nil
        }
    }

    /// "name: value\r\n"; only these few headers matter, matched on bytes (no String per line).
    private func readHeader(_ line: UnsafeRawBufferPointer) {
        guard let start = line.baseAddress,
            let colon = Bytes.find(UInt8(ascii: ":"), in: start, count: min(line.count, 20)),
            let which = EasyHandle.wanted(UnsafeRawBufferPointer(rebasing: line[..<colon]))
        else { return }
        if which == 5 && !readsDate { return }
        var from = colon + 1
        var to = line.count
        while from < to, line[from].isASCIIWhitespace { from += 1 }
        while to > from, line[to - 1].isASCIIWhitespace { to -= 1 }
        // Echoed in results: printable ASCII only, bounded (an apns-id is 36 characters).
        guard to - from <= 128 else { return }
        for index in from..<to where line[index] < 0x20 || line[index] >= 0x7F { return }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[from..<to]), as: UTF8.self)
        switch which {
        case 0: apnsID = text
        case 1: apnsUniqueID = text
        case 2: retryAfter = Int(text)
        case 3: channelID = text
        case 4: requestID = text
        default: date = text
        }
    }

    var status: Int {
        var code = 0
        pushctl_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    var httpVersion: Int {
        var version = 0
        pushctl_easy_getinfo_long(raw, CURLINFO_HTTP_VERSION, &version)
        return version
    }

    /// Whether the request got as far as being sent: the server was reached. (CONNECT_TIME is
    /// 0 on a reused connection, so it cannot tell.)
    var reachedServer: Bool {
        var seconds = 0.0
        pushctl_easy_getinfo_double(raw, CURLINFO_PRETRANSFER_TIME, &seconds)
        return seconds > 0
    }

    var errorDetail: String {
        OutsideText.display(String(cString: UnsafePointer(errorBuffer)), limit: Int(CURL_ERROR_SIZE))
    }
}

/// A `CURL*` handle options are set on: ``EasyHandle``, or the GOAWAY probe's bare handle.
protocol CurlOptionTarget {
    var raw: UnsafeMutableRawPointer { get }
}

/// A bare easy handle (the GOAWAY probe's), for setting options on it.
struct BareEasyHandle: CurlOptionTarget {
    let raw: UnsafeMutableRawPointer
}

extension EasyHandle: CurlOptionTarget {}

extension CurlOptionTarget {
    /// Sets an option, or says which one libcurl refused.
    func require(_ option: CURLoption, _ value: Int) throws {
        let code = pushctl_easy_setopt_long(raw, option, value)
        guard code == CURLE_OK else { throw CurlSetupError(option: option.rawValue, code: code) }
    }

    func require(_ option: CURLoption, _ value: String) throws {
        let code = value.withCString { pushctl_easy_setopt_ptr(raw, option, $0) }
        guard code == CURLE_OK else { throw CurlSetupError(option: option.rawValue, code: code) }
    }

    /// A blob libcurl copies at once (certificates and keys given in memory).
    func require(_ option: CURLoption, blob: [UInt8]) throws {
        let code = blob.withUnsafeBytes { pushctl_easy_setopt_blob(raw, option, $0.baseAddress, $0.count) }
        guard code == CURLE_OK else { throw CurlSetupError(option: option.rawValue, code: code) }
    }

    func require(_ option: CURLoption, pointer: UnsafeRawPointer?) throws {
        let code = pushctl_easy_setopt_ptr(raw, option, pointer)
        guard code == CURLE_OK else { throw CurlSetupError(option: option.rawValue, code: code) }
    }
}

/// Owns one `curl_slist` of request headers; freed in deinit.
final class HeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) {
        for line in lines { raw = curl_slist_append(raw, line) }
    }

    deinit { curl_slist_free_all(raw) }
}

/// Owns one `CURLM*` multi handle; freed in deinit.
final class MultiHandle {
    let raw: UnsafeMutableRawPointer

    init?() {
        guard let raw = curl_multi_init() else { return nil }
        self.raw = raw
    }

    deinit { curl_multi_cleanup(raw) }

    func require(_ option: CURLMoption, pointer: UnsafeMutableRawPointer?) throws {
        let code = pushctl_multi_setopt_ptr(raw, option, pointer)
        guard code == CURLM_OK else {
            throw CurlSetupError(description: "libcurl refused multi option \(option.rawValue): \(String(cString: curl_multi_strerror(code)))")
        }
    }

    func require(_ option: CURLMoption, _ value: Int) throws {
        let code = pushctl_multi_setopt_long(raw, option, value)
        guard code == CURLM_OK else {
            throw CurlSetupError(description: "libcurl refused multi option \(option.rawValue): \(String(cString: curl_multi_strerror(code)))")
        }
    }
}

/// How many requests libcurl has actually sent and not yet seen finish: the streams the server
/// lets us have, however many transfers wait behind them.
final class StreamCount {
    var active = 0
}
