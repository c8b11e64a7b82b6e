import PushCurl
import Testing

@Suite struct CurlRuntimeTests {
    @Test("libcurl initialises and was built with HTTP/2, which APNs requires")
    func http2() {
        #expect(CurlRuntime.initialise())
        #expect(CurlRuntime.supportsHTTP2)
        #expect(CurlRuntime.version.split(separator: ".").count == 3)
    }
}
