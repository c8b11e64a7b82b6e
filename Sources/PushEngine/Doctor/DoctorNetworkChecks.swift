import PushCore
import PushCurl
import PushFiles
import PushWords

/// The checks that connect: the clock against a server's date, the proxy, each server stage by
/// stage, and the test push.
extension Doctor {
    typealias Probed = (target: String, report: ConnectionProbeReport)

    /// The machine's clock against the first server date seen: a JWT's iat comes from this clock.
    func clock(_ reports: [Probed]) -> DoctorCheck {
        guard
            let dated = reports.lazy.compactMap({ item in
                item.report.serverDate.flatMap(HTTPDate.parse).flatMap { server in item.report.localDate.map { (item.target, server, $0) } }
            }).first
        else {
            return DoctorCheck(
                subject: .clock, status: .skip,
                found: Words(
                    "no server answered with a date to compare the clock with", es: "ningún servidor respondió con una fecha con la que comparar el reloj"),
                hint: Words("fix the connection checks below, then run again", es: "arregla las comprobaciones de conexión de abajo y vuelve a ejecutarlo"))
        }
        let (target, server, local) = dated
        let skew = ClockSkew(local: local, server: server)
        let details: [(String, JSONValue)] = [
            ("skewSeconds", .integer(skew.seconds)), ("server", .string(target)),
            ("serverDate", .string(HTTPDate.format(unixSeconds: server))),
        ]
        if skew.isAcceptable {
            return DoctorCheck(
                subject: .clock, status: .pass,
                found: Self.compare(skew, target) + Words(" (APNs tolerates about a minute)", es: " (APNs tolera alrededor de un minuto)"),
                details: details)
        }
        let date = HTTPDate.format(unixSeconds: server)
        return DoctorCheck(
            subject: .clock, status: .fail,
            found: Words("this machine's clock is ", es: "el reloj de esta máquina va ") + Self.compare(skew, target) + Words(verbatim: " (\(date))"),
            hint: Words(
                "a token's iat comes from this clock, and APNs refuses tokens from the future or over an hour old: turn on time sync (timedatectl set-ntp true)",
                es:
                    "el iat de un token sale de este reloj, y APNs rechaza los tokens del futuro o de hace más de una hora: activa la sincronización de la hora (timedatectl set-ntp true)"
            ),
            details: details)
    }

    /// "in step with X's date", "4 s ahead of X's date".
    static func compare(_ skew: ClockSkew, _ target: String) -> Words {
        skew.seconds == 0
            ? Words("in step with \(target)'s date", es: "en hora con la fecha de \(target)")
            : skew.words + Words(" of \(target)'s date", es: " respecto a la fecha de \(target)")
    }

    /// Which proxy is in use (its password shown as ***), and whether it let the connections through.
    func proxyCheck(_ reports: [Probed]) -> DoctorCheck {
        let proxyURL: String
        let source: String
        if let url = proxy.url {
            proxyURL = url
            source = values.sourceName(.proxy)
        } else if let (variable, url) = proxy.fromEnvironment {
            proxyURL = url
            source = variable
        } else {
            let variable = Setting.proxy.variable ?? ""
            return DoctorCheck(
                subject: .proxy, status: .skip,
                found: Words(
                    "none (no \(Setting.proxy), \(variable) or https_proxy): connecting directly",
                    es: "ninguno (ni \(Setting.proxy), ni \(variable), ni https_proxy): conexión directa"))
        }
        let shown = Redaction.url(proxyURL)
        var found = Words("\(shown) from \(source)", es: "\(shown) de \(source)")
        if proxy.url == nil, let noProxy = proxy.noProxy.map({ OutsideText.display($0, limit: 80) }) {
            found =
                found
                + Words(" (no_proxy=\(noProxy) sends the hosts it lists directly)", es: " (no_proxy=\(noProxy) conecta directamente con los hosts que lista)")
        }
        let details: [(String, JSONValue)] = [("url", .string(shown)), ("source", .string(source))]
        if let refused = reports.first(where: { $0.report.cause == .proxy || blamesEnvironmentProxy($0.report) }) {
            let status = refused.report.proxyConnectStatus.map { Words(", CONNECT answered \($0)", es: ", CONNECT respondió \($0)") } ?? Words(verbatim: "")
            return DoctorCheck(
                subject: .proxy, status: .fail,
                found: found
                    + Words(
                        ": it did not open a tunnel to \(refused.target) (\(refused.report.detail)",
                        es: ": no abrió un túnel a \(refused.target) (\(refused.report.detail)")
                    + status + Words(verbatim: ")"),
                hint: UnreachableCause.proxy.hint(endpoint: endpoint), details: details)
        }
        if let tunnel = reports.first(where: { $0.report.proxyConnectStatus == 200 }) {
            return DoctorCheck(
                subject: .proxy, status: .pass, found: found + Words(": CONNECT to \(tunnel.target) works", es: ": CONNECT a \(tunnel.target) funciona"),
                details: details)
        }
        if reports.contains(where: { $0.report.milliseconds[.tcp] != nil }) {
            return DoctorCheck(
                subject: .proxy, status: .pass,
                found: found
                    + Words(
                        ": connections through it work (or no_proxy sends them around it)",
                        es: ": las conexiones a través de él funcionan (o no_proxy las lleva por fuera)"),
                details: details)
        }
        return DoctorCheck(
            subject: .proxy, status: .skip,
            found: found
                + Words(
                    ": no connection got far enough to tell whether it works",
                    es: ": ninguna conexión llegó lo bastante lejos para saber si funciona"),
            details: details)
    }

    /// Whether a failure names the proxy libcurl took from the environment (libcurl reports
    /// those as failures to connect to the proxy's host and port).
    func blamesEnvironmentProxy(_ report: ConnectionProbeReport) -> Bool {
        guard proxy.url == nil, let (_, url) = proxy.fromEnvironment, report.failedStage == .tcp || report.failedStage == .dns else { return false }
        if report.detail.contains("resolve proxy") { return true }
        var authority = Substring(url)
        if let scheme = authority.firstRange(of: "://") { authority = authority[scheme.upperBound...] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        authority = authority.prefix { $0 != "/" }
        guard let colon = authority.lastIndex(of: ":") else { return report.detail.contains("to \(authority) port") }
        return report.detail.contains("to \(authority[..<colon]) port \(authority[authority.index(after: colon)...])")
    }

    /// DNS, TCP, TLS with the chain verified, and HTTP/2, to one server.
    func connection(_ target: String, _ report: ConnectionProbeReport) -> DoctorCheck {
        let host = String(target.dropFirst("https://".count))
        var parts: [Words] = []
        var stages: [(String, JSONValue)] = []
        let order = ConnectionProbeReport.Stage.allCases
        for stage in order {
            let passed = report.failedStage.map { order.firstIndex(of: stage)! < order.firstIndex(of: $0)! } ?? true
            let isFailed = report.failedStage == stage
            let ms = report.milliseconds[stage]
            var stageDetails: [(String, JSONValue)] = [("status", .string(passed ? "pass" : isFailed ? "fail" : "skip"))]
            if let ms, passed { stageDetails.append(("ms", .integer(Int64(ms)))) }
            stages.append((stage.rawValue, .object(stageDetails)))
            guard passed else {
                if isFailed { parts.append(Words(verbatim: "\(Self.label(stage)): ") + failureText(report)) }
                continue
            }
            let time = ms.map { " \($0) ms" } ?? ""
            switch stage {
            case .dns:
                let through =
                    proxy.url != nil || proxy.fromEnvironment != nil
                    ? Words(" (through the proxy)", es: " (a través del proxy)") : Words(verbatim: "")
                parts.append(Words(verbatim: "DNS " + (report.address ?? "ok")) + through)
            case .tcp: parts.append(Words(verbatim: "TCP\(time)"))
            case .tls: parts.append(Words("TLS\(time), certificate verified", es: "TLS\(time), certificado verificado"))
            case .http2:
                parts.append(
                    Words(verbatim: "HTTP/2") + (report.status.map { Words(" (answered \($0))", es: " (respondió \($0))") } ?? Words(verbatim: ""))
                        + Words(verbatim: time))
            }
        }
        var details: [(String, JSONValue)] = [("url", .string(target)), ("stages", .object(stages))]
        if let address = report.address { details.append(("address", .string(address))) }
        if let problem = report.certificateProblem { details.append(("certificate", .string(problem))) }
        if !report.detail.isEmpty { details.append(("detail", .string(report.detail))) }
        let cause = blamesEnvironmentProxy(report) ? .proxy : report.cause
        return DoctorCheck(
            subject: .server(host), status: report.passed ? .pass : .fail, found: Words.joined(parts, separator: Words(verbatim: " · ")),
            hint: cause.map { hint(for: $0, target: target) }, details: details)
    }

    static func label(_ stage: ConnectionProbeReport.Stage) -> String {
        switch stage {
        case .dns: "DNS"
        case .tcp: "TCP"
        case .tls: "TLS"
        case .http2: "HTTP/2"
        }
    }

    func failureText(_ report: ConnectionProbeReport) -> Words {
        if report.cause == .certificate {
            return Words("the certificate does not chain to a trusted root", es: "el certificado no lleva a una raíz de confianza")
                + Words(verbatim: " (\(report.certificateProblem ?? report.detail))")
        }
        let limit = options.timeout == options.timeout.rounded() ? "\(Int(options.timeout)) s" : "\(options.timeout) s"
        if report.cause == .timeout { return Words("no answer within \(limit)", es: "sin respuesta en \(limit)") }
        return Words(verbatim: report.detail)
    }

    /// What to do, by cause, for this server: doctor knows which host and port it was.
    func hint(for cause: UnreachableCause, target: String) -> Words {
        let apple = endpoint == nil
        let onAlternatePort = target.hasSuffix(":2197")
        switch cause {
        case .certificate:
            let root = Words(
                "Apple's servers chain to \"USERTrust RSA Certification Authority\" since 2025: the system's CA certificates must include it (Debian: apt-get install ca-certificates), and a TLS-inspecting proxy breaks the chain",
                es:
                    "desde 2025 los servidores de Apple llevan a \"USERTrust RSA Certification Authority\": los certificados de CA del sistema deben incluirla (Debian: apt-get install ca-certificates), y un proxy que inspecciona TLS rompe la cadena"
            )
            return apple
                ? root
                : Words(
                    "for pushctl mock, pass its CA with \(Setting.caCertificate) (\(Setting.mockCAOutput) writes it; a restarted mock makes a new CA). \(root)",
                    es:
                        "para pushctl mock, pasa su CA con \(Setting.caCertificate) (\(Setting.mockCAOutput) la escribe; un mock reiniciado crea una CA nueva). \(root.es.prefix(1).uppercased() + root.es.dropFirst())"
                )
        case .connection where apple, .timeout where apple:
            return onAlternatePort
                ? Words(
                    "port 2197 is blocked here (a firewall); port 443, the default, is enough",
                    es: "el puerto 2197 está bloqueado aquí (un cortafuegos); basta con el 443, el predeterminado")
                : Words(
                    "port 443 is blocked or dropped here (a firewall): ask for it to be opened, or send with \(Setting.port) 2197 if that port works",
                    es: "el puerto 443 está bloqueado aquí (un cortafuegos): pide que lo abran, o envía con \(Setting.port) 2197 si ese puerto funciona")
        case .dns where apple:
            return Words(
                "Apple's host names did not resolve: check the network and DNS; a network that needs a proxy needs \(Setting.proxy) (or https_proxy)",
                es:
                    "los nombres de los servidores de Apple no se resolvieron: comprueba la red y el DNS; una red que necesita proxy necesita \(Setting.proxy) (o https_proxy)"
            )
        case .proxy where proxy.url == nil:
            let variable = proxy.fromEnvironment?.variable ?? "https_proxy"
            return Words(
                "libcurl goes through the proxy in \(variable) here and it did not let the connection through: check that proxy, or unset \(variable) if this network needs none",
                es:
                    "aquí libcurl pasa por el proxy de \(variable) y no dejó pasar la conexión: revisa ese proxy, o quita \(variable) si esta red no lo necesita"
            )
        case .protocolMismatch:
            return Words(
                "the server does not speak HTTP/2 (ALPN h2), which APNs needs: check \(Setting.endpoint), or a proxy that intercepts TLS",
                es: "el servidor no habla HTTP/2 (ALPN h2), que APNs necesita: revisa \(Setting.endpoint), o un proxy que intercepte TLS")
        default:
            return cause.hint(endpoint: endpoint)
        }
    }
}
