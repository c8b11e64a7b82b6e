import Testing

@testable import PushCurl

/// libcurl's error codes, read one way for the transport and doctor's connection probe alike.
@Suite struct CurlFailureTests {
    // Raw CURLcode values (curl.h), so that the table reads without the C module.
    @Test(
        "each libcurl error code names what went wrong",
        arguments: [
            (UInt32(6), "Could not resolve host: api.push.apple.com", false, CurlFailure.dns),
            (7, "Failed to connect to 127.0.0.1 port 1", false, .connection),
            (7, "Failed to connect to proxy.local port 3128", true, .proxy),  // through a proxy: the proxy's
            (5, "Could not resolve proxy: proxy.local", false, .proxy),
            (97, "Proxy CONNECT aborted", true, .proxy),
            (56, "CONNECT tunnel failed, response 403", true, .proxy),
            (60, "SSL certificate problem: unable to get local issuer certificate", false, .certificate),
            (77, "error setting certificate file", false, .certificate),
            (35, "OpenSSL SSL_connect: Connection reset by peer", false, .tls),
            (58, "could not load PEM client certificate", false, .tls),
            (1, "Protocol \"htp\" not supported", false, .address),
            (3, "URL using bad/illegal format", false, .address),
            (28, "Operation timed out after 10001 milliseconds", false, .timeout),
            (16, "Error in the HTTP2 framing layer", false, .connectionLost),
            (92, "Stream error in the HTTP/2 framing layer", false, .connectionLost),
            (52, "Empty reply from server", false, .connectionLost),
            (55, "Send failure: Broken pipe", false, .connectionLost),
            (56, "Recv failure: Connection reset by peer", false, .connectionLost),
            (18, "transfer closed with 10 bytes remaining to read", false, .connectionLost),
            (27, "Out of memory", false, .other),
        ])
    func classifies(code: UInt32, detail: String, throughProxy: Bool, expected: CurlFailure) {
        #expect(CurlFailure(code: code, detail: detail, throughProxy: throughProxy) == expected)
    }
}
