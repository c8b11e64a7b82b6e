import PushCore
import PushMock
import PushWords

/// What `pushctl mock` adds for a class: beyond loopback, an address other machines can type and
/// the CA certificate over plain HTTP (`--ca-port`); the live web view (`--web`).
struct Classroom: Sendable {
    /// `https://ADDRESS:PORT`, the endpoint to print: a reachable address, never `0.0.0.0`.
    let endpoint: String
    /// `http://ADDRESS:PORT/mock-ca.pem`, when the CA certificate is served.
    let caFile: String?
    /// `http://ADDRESS:PORT/`, when the web view is served.
    let webView: String?
    /// The names the server certificate carries besides localhost, 127.0.0.1 and ::1.
    let certificateNames: [String]
    /// Listening beyond loopback.
    let beyondLoopback: Bool
    /// Beyond loopback, but this machine has no address another machine could use.
    let loopbackOnly: Bool
    let host: String
    let caServer: MockCAFileServer?
    let web: MockWebView?

    /// The start-up lines about the class's side, after the CA certificate's path.
    func lines(caPEM: String, language: Language) -> [String] {
        var lines: [String] = []
        let names = (["localhost", "127.0.0.1", "::1"] + certificateNames).joined(separator: ", ")
        if beyondLoopback {
            let every = MockNetwork.isWildcard(host) ? Words(" (every interface)", es: " (todas las interfaces)") : Words(verbatim: "")
            let watch = webView == nil ? Words(verbatim: "") : Words(" and watch the web view", es: " y ver la vista web")
            lines.append(
                (Words("  listening on \(host)", es: "  escuchando en \(host)") + every
                    + Words(": anyone who reaches this machine can send to the mock", es: ": cualquiera que llegue a esta máquina puede enviar al mock") + watch)
                    .text(language))
            lines.append(Words("  certificate names: \(names)", es: "  nombres del certificado: \(names)").text(language))
            if loopbackOnly {
                lines.append(
                    Words(
                        "  note: this machine has no address beyond loopback, so no other machine can reach it; join a network and start the mock again (its certificate names the addresses it had at start)",
                        es:
                            "  ojo: esta máquina no tiene ninguna dirección fuera de loopback, así que ninguna otra puede llegar a ella; conéctate a una red y vuelve a arrancar el mock (su certificado nombra las direcciones que tenía al arrancar)"
                    ).text(language))
            }
        } else if !certificateNames.isEmpty {
            lines.append(Words("  certificate names: \(names)", es: "  nombres del certificado: \(names)").text(language))
        }
        if let caFile {
            lines.append(
                Words(
                    "  CA certificate for other machines: curl -o mock-ca.pem \(caFile)",
                    es: "  certificado de la CA para otras máquinas: curl -o mock-ca.pem \(caFile)"
                ).text(language))
            if let fingerprint = MockCertificateFingerprint.sha256(pem: caPEM) {
                lines.append(
                    Words(
                        "    plain HTTP is fine for a public certificate, but check what arrived: its SHA-256 fingerprint is",
                        es: "    HTTP sin cifrar basta para un certificado público, pero comprueba lo que llegó: su huella SHA-256 es"
                    ).text(language))
                lines.append("    \(fingerprint)")
                lines.append(
                    Words(
                        "    (openssl x509 -in mock-ca.pem -noout -fingerprint -sha256 prints it)",
                        es: "    (openssl x509 -in mock-ca.pem -noout -fingerprint -sha256 la muestra)"
                    ).text(language))
            }
        }
        if let webView {
            lines.append(
                Words(
                    "  web view: \(webView) (live: every request the mock answers)",
                    es: "  vista web: \(webView) (en directo: cada petición que responde el mock)"
                ).text(language))
        }
        return lines
    }

    func shutdown() async {
        await web?.shutdown()
        await caServer?.shutdown()
    }
}

extension MockSettings {
    /// Starts the CA file server (beyond loopback, or asked for with --ca-port) and the web view
    /// (with --web) on the mock's host, and works out the addresses to print.
    func startClassroom(server: MockAPNsServer, web: MockWebView?, certificateNames: [String]) async throws -> Classroom {
        let beyondLoopback = !MockNetwork.isLoopback(host)
        let reachable = MockNetwork.reachableAddress(listeningOn: host)
        // With no address beyond loopback, this machine alone can reach the mock.
        let shown = reachable ?? (host.contains(":") ? "::1" : "127.0.0.1")
        var caServer: MockCAFileServer?
        if beyondLoopback || caPort != nil {
            caServer = try await MockCAFileServer.start(host: host, port: caPort ?? 0, caCertificatePEM: server.caCertificatePEM)
        }
        var webURL: String?
        if let web, let webPort {
            do {
                let port = try await web.listen(
                    host: host, port: webPort, caCertificatePEM: server.caCertificatePEM, allowedHosts: certificateNames)
                webURL = MockNetwork.url(scheme: "http", host: shown, port: port) + "/"
            } catch {
                await caServer?.shutdown()
                throw error
            }
        }
        return Classroom(
            endpoint: MockNetwork.url(scheme: "https", host: shown, port: server.port),
            caFile: caServer.map { MockNetwork.url(scheme: "http", host: shown, port: $0.port) + MockCAFileServer.path },
            webView: webURL,
            certificateNames: certificateNames,
            beyondLoopback: beyondLoopback,
            loopbackOnly: beyondLoopback && reachable == nil,
            host: host, caServer: caServer, web: web)
    }
}
