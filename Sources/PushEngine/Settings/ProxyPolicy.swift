public import PushCore
import PushCurl
import PushFiles
import PushWords

/// Which proxy a run goes through, by one rule for every command that connects (send, channel,
/// doctor): a proxy given (`--proxy` or `PUSHCTL_PROXY`) wins over libcurl's own variables
/// (`https_proxy`, `all_proxy` and `no_proxy`), which libcurl follows otherwise. A proxy's
/// password is never shown: messages and `doctor` show it as `Redaction.url` does.
public struct ProxyPolicy: Sendable {
    /// The proxy given, checked (http, https, socks5, socks5h), and its `user:password` from a file.
    public let url: String?
    public let credentials: String?
    /// When none is given: the variable libcurl takes one from for an https URL, and its value.
    public let fromEnvironment: (variable: String, url: String)?
    /// `no_proxy`'s hosts, which libcurl then reaches directly.
    public let noProxy: String?

    public static let schemes = ["http://", "https://", "socks5://", "socks5h://"]

    /// Reads the settings (and the credentials file) before anything connects.
    public init(_ values: SettingValues, credentialsFile: String?) throws(InputError) {
        let given = values.value(.proxy)
        fromEnvironment =
            given == nil
            ? ProxyVariables.forHTTPS.lazy.compactMap { name in values.environment[name].nonEmpty.map { (name, $0) } }.first
            : nil
        noProxy = ProxyVariables.noProxy.lazy.compactMap { values.environment[$0].nonEmpty }.first
        guard let text = given else {
            if credentialsFile != nil {
                throw InputError(ConnectionSettingProblem.proxyCredentialsWithoutProxy, kind: .usage)
            }
            url = nil
            credentials = nil
            return
        }
        try HeaderValue.check(text, name: "the proxy URL", limit: 1024)
        guard ProxyPolicy.schemes.contains(where: { text.lowercased().hasPrefix($0) }), !text.contains(" ") else {
            throw InputError(ConnectionSettingProblem.notAProxyURL(redacted: Redaction.url(text)))
        }
        url = text
        guard let credentialsFile else {
            credentials = nil
            return
        }
        var bytes = try InputFiles.read(credentialsFile, what: .proxyCredentialsFile)
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        let value = String(decoding: bytes, as: UTF8.self)
        guard value.contains(":"), !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw InputError(ConnectionSettingProblem.proxyCredentialsNotOneLine(file: credentialsFile))
        }
        credentials = value
    }

    /// The settings' proxy in a connection's settings.
    public func apply(to settings: inout ConnectionSettings) {
        settings.proxy = url
        settings.proxyCredentials = credentials
    }
}
