public import PushCore
public import PushCurl
public import PushWords

/// The libcurl pushctl runs with, said to people (`pushctl --version --verbose`, doctor), and the
/// refusal of one that cannot carry APNs' requests: without HTTP/2, or not on OpenSSL 3 (exit 69).
/// Every send asks `require()` before its first request, so a Mac build that linked macOS's own
/// libcurl (LibreSSL, Secure Transport) stops with what to install, not with a TLS failure later.
public enum LibcurlCheck {
    /// One line: "libcurl 8.5.0 with HTTP/2 on OpenSSL/3.0.13" (the TLS library as libcurl names it).
    public static func summary(_ build: CurlBuild) -> Words {
        let version = OutsideText.display(build.version, limit: 40)
        let tls = OutsideText.display(build.tlsLibrary, limit: 80)
        switch (build.http2, build.tlsLibrary.isEmpty) {
        case (true, false): return Words("libcurl \(version) with HTTP/2 on \(tls)", es: "libcurl \(version) con HTTP/2 sobre \(tls)")
        case (false, false): return Words("libcurl \(version) without HTTP/2, on \(tls)", es: "libcurl \(version) sin HTTP/2, sobre \(tls)")
        case (true, true): return Words("libcurl \(version) with HTTP/2, without TLS", es: "libcurl \(version) con HTTP/2, sin TLS")
        case (false, true): return Words("libcurl \(version) without HTTP/2 or TLS", es: "libcurl \(version) sin HTTP/2 ni TLS")
        }
    }

    /// Why pushctl cannot send with `build`, as an error (69) with what to install; nil when it can.
    public static func refusal(_ build: CurlBuild) -> InputError? {
        let version = OutsideText.display(build.version, limit: 40)
        switch build.problem {
        case nil:
            return nil
        case .noHTTP2:
            return InputError(ConnectionSettingProblem.libcurlWithoutHTTP2(version: version), kind: .unavailable)
        case .notOpenSSL3(let library):
            return InputError(ConnectionSettingProblem.libcurlNotOnOpenSSL3(version: version, library: library), kind: .unavailable)
        }
    }

    /// Throws the refusal of the libcurl this process loaded, if any.
    public static func require() throws(InputError) {
        if let refusal = refusal(.current) { throw refusal }
    }

    /// The libcurl this process loaded, initialised first (its version info needs no more).
    public static var current: CurlBuild {
        CurlRuntime.initialise()
        return .current
    }
}
