public import PushCore
public import PushWords

extension UnreachableCause {
    /// What to do when a server could not be reached, for every command that connects (send,
    /// channel, doctor): toward Apple's hosts (`endpoint` nil) or toward a server of the user's
    /// (`pushctl mock`, a gateway). The settings it points at are named by the program.
    public func hint(endpoint: String?) -> Words {
        let local = endpoint != nil
        switch self {
        case .dns:
            return local
                ? Words(
                    "the endpoint's host name did not resolve; check it (pushctl mock prints its URL)",
                    es: "el nombre del host del endpoint no se resolvió; revísalo (pushctl mock imprime su URL)")
                : Words(
                    "api.sandbox.push.apple.com / api.push.apple.com did not resolve: check the network, DNS or proxy settings",
                    es: "api.sandbox.push.apple.com / api.push.apple.com no se resolvieron: revisa la red, el DNS o la configuración del proxy")
        case .connection:
            return local
                ? Words(
                    "nothing is listening there: is `pushctl mock` running, and is the port the one it printed?",
                    es: "no hay nada escuchando ahí: ¿está en marcha `pushctl mock`, y es el puerto que imprimió?")
                : Words(
                    "the connection was refused or blocked: a firewall may block 443; try \(Setting.port) 2197",
                    es: "la conexión se rechazó o se bloqueó: puede que un cortafuegos bloquee el 443; prueba con \(Setting.port) 2197")
        case .certificate:
            return local
                ? Words(
                    "the server's certificate is not trusted: pass the mock's CA with \(Setting.caCertificate) (\(Setting.mockCAOutput) writes it; a restarted mock makes a new CA, so write it again)",
                    es:
                        "el certificado del servidor no es de confianza: pasa la CA del mock con \(Setting.caCertificate) (\(Setting.mockCAOutput) la escribe; un mock reiniciado crea una CA nueva, así que escríbela otra vez)"
                )
                : Words(
                    "APNs' certificate did not verify: update the system's CA certificates (Apple's servers chain to \"USERTrust RSA Certification Authority\" since 2025), or check for a TLS-inspecting proxy",
                    es:
                        "el certificado de APNs no se verificó: actualiza los certificados de CA del sistema (desde 2025 los servidores de Apple llevan a \"USERTrust RSA Certification Authority\"), o busca un proxy que inspeccione TLS"
                )
        case .tls:
            return Words(
                "the TLS handshake failed; \(Setting.verbose) shows libcurl's trace", es: "falló el saludo TLS; \(Setting.verbose) muestra la traza de libcurl")
        case .timeout:
            return local
                ? Words(
                    "connecting timed out: is the endpoint's address reachable from here?",
                    es: "se agotó el tiempo al conectar: ¿se llega a la dirección del endpoint desde aquí?")
                : Words(
                    "connecting timed out: a firewall may drop the traffic; try \(Setting.port) 2197",
                    es: "se agotó el tiempo al conectar: puede que un cortafuegos descarte el tráfico; prueba con \(Setting.port) 2197")
        case .protocolMismatch:
            return Words(
                "the server does not speak HTTP/2; APNs (and pushctl mock) do: check \(Setting.endpoint)",
                es: "el servidor no habla HTTP/2, y APNs (y pushctl mock) sí: revisa \(Setting.endpoint)")
        case .proxy:
            let variable = Setting.proxy.variable ?? ""
            return Words(
                "the proxy could not be reached, refused the tunnel, or wants other credentials: check \(Setting.proxy) (or \(variable), https_proxy) and \(Setting.proxyCredentials)",
                es:
                    "no se pudo llegar al proxy, rechazó el túnel o quiere otras credenciales: revisa \(Setting.proxy) (o \(variable), https_proxy) y \(Setting.proxyCredentials)"
            )
        case .other:
            return Words("\(Setting.verbose) shows libcurl's trace", es: "\(Setting.verbose) muestra la traza de libcurl")
        }
    }
}
