internal import CCurl
internal import CLibcrypto

/// libcurl's process-wide state: initialised once, before the first handle.
public enum CurlRuntime {
    /// OpenSSL first, told not to register its atexit cleanup (it would race Swift's own
    /// teardown of threads still holding handles), then libcurl's global init.
    private static let initialised: Bool = {
        _ = pushctl_openssl_init()
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    /// Initialises libcurl once; false if it could not be.
    @discardableResult
    public static func initialise() -> Bool { initialised }

    /// The libcurl version on this machine, e.g. "7.88.1".
    public static var version: String { String(cString: pushctl_curl_version()) }

    /// Whether this libcurl was built with HTTP/2 (nghttp2); APNs refuses HTTP/1.1.
    public static var supportsHTTP2: Bool { pushctl_curl_has_http2() != 0 }

    /// The TLS library libcurl was built on, as `curl_version_info` names it ("OpenSSL/3.0.13").
    public static var tlsLibrary: String { String(cString: pushctl_curl_ssl_version()) }
}

/// What the libcurl pushctl runs with was built with: its version, its TLS library and whether it
/// speaks HTTP/2. A value, so that the rule below is tested with libcurls this machine does not have.
public struct CurlBuild: Sendable, Equatable {
    public var version: String
    /// `curl_version_info`'s `ssl_version`: "OpenSSL/3.0.13", "LibreSSL/3.3.6", "(SecureTransport)
    /// LibreSSL/3.3.6" (a build with several names those not in use in parentheses), "" for none.
    public var tlsLibrary: String
    public var http2: Bool

    public init(version: String, tlsLibrary: String, http2: Bool) {
        self.version = version
        self.tlsLibrary = tlsLibrary
        self.http2 = http2
    }

    /// The libcurl this process loaded.
    public static var current: CurlBuild {
        CurlBuild(version: CurlRuntime.version, tlsLibrary: CurlRuntime.tlsLibrary, http2: CurlRuntime.supportsHTTP2)
    }

    /// The TLS library in use: the first name not in parentheses ("" when there is none).
    public var activeTLSLibrary: String {
        tlsLibrary.split(separator: " ").first { !$0.hasPrefix("(") }.map(String.init) ?? ""
    }

    /// Why pushctl cannot send with this libcurl, or nil. APNs speaks only HTTP/2; the client key
    /// from memory (`CURLOPT_SSLKEY_BLOB`) and the ALPN hook on libcurl's TLS context are OpenSSL 3
    /// calls, so a libcurl on LibreSSL, Secure Transport, GnuTLS or an OpenSSL 1.x fails at run time.
    public var problem: CurlBuildProblem? {
        guard http2 else { return .noHTTP2 }
        guard activeTLSLibrary.hasPrefix("OpenSSL/3.") else { return .notOpenSSL3(activeTLSLibrary) }
        return nil
    }
}

/// Why a libcurl cannot carry pushctl's requests.
public enum CurlBuildProblem: Sendable, Equatable {
    /// Built without nghttp2.
    case noHTTP2
    /// Built on another TLS library (its name as libcurl gives it; "" for none).
    case notOpenSSL3(String)
}
