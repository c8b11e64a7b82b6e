import PushCurl
import Testing

@Suite struct CurlRuntimeTests {
    @Test("libcurl initialises and was built with HTTP/2 on OpenSSL 3, as pushctl requires")
    func http2() {
        #expect(CurlRuntime.initialise())
        #expect(CurlRuntime.supportsHTTP2)
        #expect(CurlRuntime.version.split(separator: ".").count == 3)
        #expect(CurlRuntime.tlsLibrary.hasPrefix("OpenSSL/3."), "\(CurlRuntime.tlsLibrary)")
        #expect(CurlBuild.current.problem == nil)
    }

    /// libcurls this machine does not have, as `curl_version_info` describes them: Debian's, Homebrew's,
    /// macOS's own (LibreSSL, Secure Transport, both at once), GnuTLS, an OpenSSL 1.1, none.
    @Test(
        "a libcurl without HTTP/2, or on anything but OpenSSL 3, cannot carry pushctl's requests",
        arguments: [
            (CurlBuild(version: "7.88.1", tlsLibrary: "OpenSSL/3.0.15", http2: true), nil),
            (CurlBuild(version: "8.17.0", tlsLibrary: "OpenSSL/3.6.0", http2: true), nil),
            (CurlBuild(version: "8.17.0", tlsLibrary: "(SecureTransport) OpenSSL/3.6.0", http2: true), nil),
            (CurlBuild(version: "7.88.1", tlsLibrary: "OpenSSL/3.0.15", http2: false), .noHTTP2),
            (CurlBuild(version: "8.7.1", tlsLibrary: "(SecureTransport) LibreSSL/3.3.6", http2: true), .notOpenSSL3("LibreSSL/3.3.6")),
            (CurlBuild(version: "8.4.0", tlsLibrary: "SecureTransport", http2: true), .notOpenSSL3("SecureTransport")),
            (CurlBuild(version: "8.7.1", tlsLibrary: "LibreSSL/3.3.6 (SecureTransport)", http2: true), .notOpenSSL3("LibreSSL/3.3.6")),
            (CurlBuild(version: "7.88.1", tlsLibrary: "GnuTLS/3.7.9", http2: true), .notOpenSSL3("GnuTLS/3.7.9")),
            (CurlBuild(version: "7.68.0", tlsLibrary: "OpenSSL/1.1.1f", http2: true), .notOpenSSL3("OpenSSL/1.1.1f")),
            (CurlBuild(version: "8.5.0", tlsLibrary: "", http2: true), .notOpenSSL3("")),
            (CurlBuild(version: "8.5.0", tlsLibrary: "LibreSSL/3.3.6", http2: false), .noHTTP2),
        ] as [(CurlBuild, CurlBuildProblem?)])
    func refused(build: CurlBuild, problem: CurlBuildProblem?) {
        #expect(build.problem == problem, "\(build)")
    }
}
