import PushctlSupport
import PushCore
import PushWords
import PushFiles
import PushCrypto
import PushCurl
import PushEngine

/// The flags that say where to send, as every command that sends gives them: one mapping, in the
/// command line's words, to the engine's `Destination` (flags win over PUSHCTL_* variables).
struct DestinationFlags {
    var sandbox = false
    var production = false
    var endpoint: String?
    var port: Int?
    var cacert: String?

    /// `--endpoint` (or PUSHCTL_ENDPOINT, unless --sandbox/--production chose), else the environment
    /// from --sandbox/--production or PUSHCTL_ENV (sandbox by default).
    func resolve(_ service: Destination.Service, env: EnvironmentVariables) throws(InputError) -> Destination {
        let ca = cacert ?? env["PUSHCTL_CACERT"].nonEmpty
        if let url = endpoint ?? (sandbox || production ? nil : env["PUSHCTL_ENDPOINT"].nonEmpty) {
            return try Destination.endpoint(url, caCertificate: ca)
        }
        return try Destination.apple(environment(env), service: service, port: port, caCertificate: ca)
    }

    func environment(_ env: EnvironmentVariables) throws(InputError) -> APNsEnvironment {
        if production { return .production }
        if sandbox { return .sandbox }
        guard let name = env["PUSHCTL_ENV"].nonEmpty else { return .sandbox }
        guard let chosen = APNsEnvironment(rawValue: name) else {
            let shown = OutsideText.display(name, limit: 40)
            throw InputError(Words("PUSHCTL_ENV is '\(shown)'; it must be sandbox or production",
                                   es: "PUSHCTL_ENV vale '\(shown)'; debe ser sandbox o production"), kind: .usage)
        }
        return chosen
    }

    /// The endpoint the user named, if any (for hints that differ for a local server).
    func namedEndpoint(env: EnvironmentVariables) -> String? { endpoint ?? env["PUSHCTL_ENDPOINT"].nonEmpty }
}

/// The flags that say how to connect, mapped once to the engine's `ConnectionSettings`.
struct ConnectionFlags {
    var proxy: String?
    var proxyUserFile: String?
    var certificate: ClientIdentity?
    var concurrency = 1
    var connections = 1
    var timeout: Double = 30
    var connectTo: [String] = []
    var verbose = false
    var showSecrets = false

    /// The settings, with the proxy checked (and its credentials read) before anything connects.
    func resolve(env: EnvironmentVariables) throws(InputError) -> (ConnectionSettings, ProxySetting?) {
        let proxy = try ProxySetting(url: self.proxy ?? env["PUSHCTL_PROXY"].nonEmpty, userFile: proxyUserFile)
        var settings = ConnectionSettings(concurrency: concurrency, connections: connections, timeout: timeout)
        settings.proxy = proxy?.url
        settings.proxyCredentials = proxy?.credentials
        settings.clientCertificate = certificate.map { TLSClientCertificate(certificatePEM: $0.certificatePEM, privateKeyPEM: $0.privateKeyPEM) }
        settings.connectTo = connectTo
        settings.trace = verbose ? SendRequest.traceToStderr : nil
        settings.showSecrets = showSecrets
        return (settings, proxy)
    }
}
