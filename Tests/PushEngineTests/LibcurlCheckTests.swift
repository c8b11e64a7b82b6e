import PushCore
import PushCurl
import PushEngine
import PushWords
import Testing

/// The refusal of a libcurl pushctl cannot send with, said in both languages, by contract: libcurls
/// this machine does not have are described as `curl_version_info` would describe them.
@Suite struct LibcurlCheckTests {
    @Test("the libcurl here is summed up with its version, HTTP/2 and its TLS library, and is not refused")
    func here() {
        let build = LibcurlCheck.current
        #expect(LibcurlCheck.refusal(build) == nil)
        #expect(LibcurlCheck.summary(build).en == "libcurl \(build.version) with HTTP/2 on \(build.tlsLibrary)")
        #expect(LibcurlCheck.summary(build).es == "libcurl \(build.version) con HTTP/2 sobre \(build.tlsLibrary)")
    }

    @Test("macOS's own libcurl (LibreSSL, Secure Transport) is refused, 69, naming its TLS library and what to install")
    func macOSOwn() throws {
        let refusal = try #require(LibcurlCheck.refusal(CurlBuild(version: "8.7.1", tlsLibrary: "(SecureTransport) LibreSSL/3.3.6", http2: true)))
        #expect(refusal.kind == .unavailable)
        #expect(refusal.words.en == "this libcurl (8.7.1) is built on LibreSSL/3.3.6, not on OpenSSL 3, which pushctl needs")
        #expect(refusal.words.es == "esta libcurl (8.7.1) usa LibreSSL/3.3.6, no OpenSSL 3, que pushctl necesita")
        #expect(refusal.hintWords?.en.contains("brew install curl openssl@3") == true)
        #expect(refusal.hintWords?.es.contains("brew install curl openssl@3") == true)
    }

    @Test("a libcurl without HTTP/2 is refused, 69, in both languages")
    func noHTTP2() throws {
        let build = CurlBuild(version: "7.88.1", tlsLibrary: "OpenSSL/3.0.15", http2: false)
        let refusal = try #require(LibcurlCheck.refusal(build))
        #expect(refusal.kind == .unavailable)
        #expect(refusal.words.en == "this libcurl (7.88.1) was built without HTTP/2, which APNs requires")
        #expect(refusal.words.es == "esta libcurl (7.88.1) se compiló sin HTTP/2, que APNs exige")
        #expect(LibcurlCheck.summary(build).en == "libcurl 7.88.1 without HTTP/2, on OpenSSL/3.0.15")
    }

    @Test("what libcurl names is outside text: a control character in it is shown, not printed")
    func outsideText() throws {
        let refusal = try #require(LibcurlCheck.refusal(CurlBuild(version: "8.0", tlsLibrary: "Evil/1\u{1B}[31m", http2: true)))
        #expect(!refusal.words.en.contains("\u{1B}"))
    }
}
