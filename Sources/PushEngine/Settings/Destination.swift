public import PushCore
public import PushCurl
import PushFiles
import PushWords

/// Where requests go: one of Apple's environments (its device-push host, or its channel API), or
/// a server of the user's (`pushctl mock`, a gateway) — with the extra CA to trust there.
public struct Destination: Sendable, Equatable {
    /// Which of Apple's APIs: device pushes and broadcasts, or channel management.
    public enum Service: Sendable, Equatable { case push, channels }

    /// `https://host[:port]`, without a path.
    public let baseURL: String
    /// Extra CA certificates (PEM file) trusted besides the system's.
    public let caCertificate: String?
    /// Which of Apple's environments (nil for a server of the user's).
    public let environment: APNsEnvironment?
    private let service: Service
    /// Apple's alternative port (2197) instead of 443, for device pushes.
    private let port: Int?

    /// One of Apple's environments. `port` is 443 (nil) or 2197, for device pushes.
    public static func apple(
        _ environment: APNsEnvironment, service: Service = .push, port: Int? = nil,
        caCertificate: String? = nil
    ) throws(InputError) -> Destination {
        if let port, port != 443, port != 2197 {
            throw InputError(ConnectionSettingProblem.portNotApple(port), kind: .usage)
        }
        if let caCertificate { try CACertificateFile.check(caCertificate) }
        return Destination(environment: environment, service: service, port: port == 443 ? nil : port, caCertificate: caCertificate)
    }

    /// A server of the user's, `https://host[:port]`, checked strictly.
    public static func endpoint(_ url: String, caCertificate: String?) throws(InputError) -> Destination {
        if let caCertificate { try CACertificateFile.check(caCertificate) }
        return Destination(baseURL: try Endpoint.baseURL(parsing: url), caCertificate: caCertificate, environment: nil, service: .push, port: nil)
    }

    private init(baseURL: String, caCertificate: String?, environment: APNsEnvironment?, service: Service, port: Int?) {
        self.baseURL = baseURL
        self.caCertificate = caCertificate
        self.environment = environment
        self.service = service
        self.port = port
    }

    private init(environment: APNsEnvironment, service: Service, port: Int?, caCertificate: String?) {
        let baseURL: String
        switch service {
        case .push: baseURL = "https://" + environment.host + (port.map { ":\($0)" } ?? "")
        case .channels: baseURL = environment.channelManagementBaseURL
        }
        self.init(baseURL: baseURL, caCertificate: caCertificate, environment: environment, service: service, port: port)
    }

    /// The same API in Apple's other environment (same port and CA); nil for a server of the user's.
    public var otherEnvironment: Destination? {
        guard let environment else { return nil }
        return Destination(environment: environment == .sandbox ? .production : .sandbox, service: service, port: port, caCertificate: caCertificate)
    }

    /// The same API on another of Apple's ports (443 or 2197), for a probe of both.
    public func onPort(_ port: Int) -> Destination {
        guard let environment else { return self }
        return Destination(environment: environment, service: service, port: port == 443 ? nil : port, caCertificate: caCertificate)
    }
}

/// How to connect, whatever the destination: the proxy, the client certificate, how many requests
/// and connections, how long to wait, and what to trace. One transport configuration for every
/// command that sends (send, channel, doctor, demo).
public struct ConnectionSettings: Sendable {
    /// A proxy URL (http, https, socks5, socks5h) and its `user:password`; without one, libcurl
    /// follows `https_proxy`/`no_proxy`.
    public var proxy: String?
    public var proxyCredentials: String?
    /// Certificate-based authentication's identity, given to libcurl in memory.
    public var clientCertificate: TLSClientCertificate?
    /// Most requests in flight at once, and connections to open.
    public var concurrency: Int
    public var connections: Int
    /// Seconds to wait for each answer, connecting included.
    public var timeout: Double
    /// Seconds to wait for a connection (default: `timeout`, at most 10); a probe that only
    /// connects gives it its whole `timeout`.
    public var connectTimeout: Double?
    /// libcurl's CONNECT_TO entries (`HOST:PORT:CONNECT-HOST:CONNECT-PORT`).
    public var connectTo: [String] = []
    /// Where libcurl's trace goes, line by line (nil: no trace), and whether it may show the JWT.
    public var trace: (@Sendable (String) -> Void)?
    public var showSecrets = false
    /// How the program names its settings (pushctl: its flags), for the trace's redaction note.
    public var naming = SettingNaming.plain

    public init(concurrency: Int = 1, connections: Int = 1, timeout: Double = 30) {
        self.concurrency = concurrency
        self.connections = connections
        self.timeout = timeout
    }

    /// libcurl's configuration for sending to `destination` with these settings.
    public func transport(to destination: Destination) -> CurlTransportConfiguration {
        transport(baseURL: destination.baseURL, caCertificate: destination.caCertificate)
    }

    /// The same for a server given by its checked base URL (`https://host[:port]`): the one place
    /// every command that connects (send, channel, doctor, demo) gets its configuration from.
    public func transport(baseURL: String, caCertificate: String?) -> CurlTransportConfiguration {
        var configuration = CurlTransportConfiguration(
            baseURL: baseURL, caCertificateFile: caCertificate, concurrency: concurrency,
            connections: connections, connectTimeout: connectTimeout ?? min(timeout, 10), timeout: timeout, trace: trace, showSecrets: showSecrets)
        configuration.proxy = proxy
        configuration.proxyCredentials = proxyCredentials
        configuration.clientCertificate = clientCertificate
        configuration.connectTo = connectTo
        configuration.naming = naming
        return configuration
    }
}

extension Destination {
    /// Where the settings send: the endpoint given (`--endpoint` or `PUSHCTL_ENDPOINT`), else the
    /// environment (`--sandbox`/`--production` or `PUSHCTL_ENV`, sandbox by default); a flag for
    /// either silences the other's variable (`SettingValues`). `port` is Apple's 443 or 2197.
    public static func resolve(_ values: SettingValues, service: Service, port: Int? = nil) throws(InputError) -> Destination {
        let ca = values.value(.caCertificate)
        if let url = values.value(.endpoint) { return try .endpoint(url, caCertificate: ca) }
        return try .apple(try environment(values), service: service, port: port, caCertificate: ca)
    }

    /// The environment the settings choose (sandbox by default).
    public static func environment(_ values: SettingValues) throws(InputError) -> APNsEnvironment {
        if let chosen = values.environmentFlag { return chosen }
        guard let given = values.given(.environment) else { return .sandbox }
        guard let chosen = APNsEnvironment(rawValue: given.value) else {
            throw InputError(
                ConnectionSettingProblem.unknownEnvironment(source: values.sourceName(.environment), shown: OutsideText.display(given.value, limit: 40)),
                kind: .usage)
        }
        return chosen
    }
}
