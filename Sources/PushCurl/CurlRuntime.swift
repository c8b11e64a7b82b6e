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
}
