/// What was wrong with where and how a run connects: its destination, its proxy, the libcurl it
/// runs with. The catalog says each and what to do.
public enum ConnectionSettingProblem: InputProblem {
    /// The proxy credentials were given without a proxy.
    case proxyCredentialsWithoutProxy
    /// The proxy is not a proxy URL (as redacted).
    case notAProxyURL(redacted: String)
    /// The proxy credentials file does not hold one line, user:password.
    case proxyCredentialsNotOneLine(file: String)
    /// A port APNs does not listen on.
    case portNotApple(Int)
    /// The environment is neither sandbox nor production (`source`: its flag or variable; the value shown).
    case unknownEnvironment(source: String, shown: String)
    /// This libcurl (its version, shown) was built without HTTP/2.
    case libcurlWithoutHTTP2(version: String)
    /// This libcurl (its version, shown) is not on OpenSSL 3 (the TLS library it names, raw; empty: none).
    case libcurlNotOnOpenSSL3(version: String, library: String)
}
