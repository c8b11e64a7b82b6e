public import PushCore

// Where and how a run connects: its destination, its proxy, the libcurl it runs with.

extension ConnectionSettingProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .proxyCredentialsWithoutProxy:
            return Words(
                "\(Setting.proxyCredentials) is for a proxy: give \(Setting.proxy.either("or")) too",
                es: "\(Setting.proxyCredentials) es para un proxy: da también \(Setting.proxy.either("o"))")
        case .notAProxyURL(let redacted):
            return Words("the proxy '\(redacted)' is not a proxy URL", es: "el proxy '\(redacted)' no es una URL de proxy")
        case .proxyCredentialsNotOneLine(let file):
            return Words(
                "the proxy credentials file '\(file)' must hold one line, user:password",
                es: "el archivo de credenciales del proxy '\(file)' debe tener una línea, usuario:contraseña")
        case .portNotApple(let port):
            return Words("APNs listens on port 443 or 2197, not \(port)", es: "APNs escucha en el puerto 443 o en el 2197, no en el \(port)")
        case .unknownEnvironment(let source, let shown):
            return Words("\(source) is '\(shown)'; it must be sandbox or production", es: "\(source) vale '\(shown)'; debe ser sandbox o production")
        case .libcurlWithoutHTTP2(let version):
            return Words(
                "this libcurl (\(version)) was built without HTTP/2, which APNs requires", es: "esta libcurl (\(version)) se compiló sin HTTP/2, que APNs exige"
            )
        case .libcurlNotOnOpenSSL3(let version, let library):
            let shown = OutsideText.display(library, limit: 80)
            return Words(
                "this libcurl (\(version)) is built on \(library.isEmpty ? "no TLS library" : shown), not on OpenSSL 3, which pushctl needs",
                es: "esta libcurl (\(version)) usa \(library.isEmpty ? "ninguna biblioteca TLS" : shown), no OpenSSL 3, que pushctl necesita")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .notAProxyURL:
            return Words(
                "use http://HOST:PORT, https://…, socks5://… or socks5h://… (socks5h resolves names through the proxy)",
                es: "usa http://HOST:PUERTO, https://…, socks5://… o socks5h://… (socks5h resuelve los nombres a través del proxy)")
        case .libcurlWithoutHTTP2, .libcurlNotOnOpenSSL3:
            return Words(
                "install a libcurl with nghttp2 on OpenSSL 3 (Debian: libcurl4-openssl-dev; macOS: brew install curl openssl@3, then build with PKG_CONFIG_PATH naming both: Scripts/install-deps.sh says how)",
                es:
                    "instala una libcurl con nghttp2 sobre OpenSSL 3 (Debian: libcurl4-openssl-dev; macOS: brew install curl openssl@3, y compila con PKG_CONFIG_PATH apuntando a ambas: Scripts/install-deps.sh dice cómo)"
            )
        case .proxyCredentialsWithoutProxy, .proxyCredentialsNotOneLine, .portNotApple, .unknownEnvironment:
            return nil
        }
    }
}
