internal import CCurl

/// What a libcurl error code says went wrong on the way to the server: read once, here, for the
/// transport (a notification's failure) and the connection probe (doctor's stage that failed).
enum CurlFailure: Equatable {
    /// The proxy could not be reached or would not open the tunnel.
    case proxy
    case dns
    case connection
    /// The server's certificate did not verify (or the CA file could not be read).
    case certificate
    /// The TLS handshake failed otherwise.
    case tls
    /// The URL itself: a scheme libcurl does not speak, or a malformed address.
    case address
    case timeout
    /// The connection died or the HTTP/2 layer failed after it was up.
    case connectionLost
    case other

    /// `code` is the CURLcode's raw value; `detail` libcurl's error text; `throughProxy` whether
    /// a proxy was set (a connection that fails is then the proxy's).
    init(code: UInt32, detail: String, throughProxy: Bool) {
        func isCode(_ known: CURLcode) -> Bool { code == known.rawValue }
        if isCode(CURLE_PROXY) || isCode(CURLE_COULDNT_RESOLVE_PROXY) || detail.contains("CONNECT tunnel failed")
            || (throughProxy && isCode(CURLE_COULDNT_CONNECT))
        {
            self = .proxy
        } else if isCode(CURLE_COULDNT_RESOLVE_HOST) {
            self = .dns
        } else if isCode(CURLE_COULDNT_CONNECT) {
            self = .connection
        } else if isCode(CURLE_PEER_FAILED_VERIFICATION) || isCode(CURLE_SSL_CACERT_BADFILE) {
            self = .certificate
        } else if isCode(CURLE_SSL_CONNECT_ERROR) || isCode(CURLE_SSL_CERTPROBLEM) {
            self = .tls
        } else if isCode(CURLE_UNSUPPORTED_PROTOCOL) || isCode(CURLE_URL_MALFORMAT) {
            self = .address
        } else if isCode(CURLE_OPERATION_TIMEDOUT) {
            self = .timeout
        } else if [CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE].contains(where: isCode) {
            self = .connectionLost
        } else {
            self = .other
        }
    }
}
