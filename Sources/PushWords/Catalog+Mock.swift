public import PushCore

// The mock APNs server: what is wrong with its settings, and what stops it from listening or
// writing its files.

extension MockSettingProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .port(let given):
            return Words("the port must be between 0 and 65535; got \(given)", es: "el puerto debe estar entre 0 y 65535; se recibió \(given)")
        case .streamLimit(let given, let highest):
            return Words(
                "the stream limit must be between 0 and \(highest); got \(given)",
                es: "el límite de streams debe estar entre 0 y \(highest); se recibió \(given)")
        case .initialStreamLimit(let given, let streamLimit):
            return Words(
                "the initial stream limit must be between 0 and the stream limit (\(streamLimit)); got \(given)",
                es: "el límite inicial de streams debe estar entre 0 y el límite de streams (\(streamLimit)); se recibió \(given)")
        case .connectionLimit(let given):
            return Words("the connection limits must be 1 or more; got \(given)", es: "los límites de conexiones deben ser 1 o más; se recibió \(given)")
        case .answerStatus(let given):
            return Words(
                "the answer status must be between 100 and 599; got \(given)", es: "el estado de la respuesta debe estar entre 100 y 599; se recibió \(given)")
        case .answerCount(let given):
            return Words("the answer count must be 0 or more; got \(given)", es: "el número de respuestas debe ser 0 o más; se recibió \(given)")
        case .bodyPadding(let given, let highest):
            return Words(
                "the body padding must be between 0 and \(highest) bytes; got \(given)",
                es: "el relleno del cuerpo debe estar entre 0 y \(highest) bytes; se recibió \(given)")
        case .responseDelay(let given, let highest):
            return Words(
                "the delay must be between 0 and \(highest) ms; got \(given)", es: "el retraso debe estar entre 0 y \(highest) ms; se recibió \(given)")
        case .retryAfterControlCharacter:
            return Words(
                "the retry-after value cannot hold NUL, CR or LF (HTTP/2 forbids them in a header value)",
                es: "el valor de retry-after no puede llevar NUL, CR ni LF (HTTP/2 los prohíbe en el valor de una cabecera)")
        case .tokenUpdateInterval(let given):
            return Words(
                "the token update interval must be 0 or more seconds; got \(given)",
                es: "el intervalo de actualización del token debe ser 0 o más segundos; se recibió \(given)")
        case .badDeviceTokenLimit(let given):
            return Words("the BadDeviceToken limit must be 1 or more; got \(given)", es: "el límite de BadDeviceToken debe ser 1 o más; se recibió \(given)")
        case .idleTimeout(let given):
            return Words(
                "the idle timeout must be between 1 ms and a day; got \(given) ms",
                es: "el tiempo de inactividad debe estar entre 1 ms y un día; se recibió \(given) ms")
        case .setupTimeout(let given):
            return Words(
                "the set-up timeout must be between 1 ms and an hour; got \(given) ms",
                es: "el tiempo para establecer la conexión debe estar entre 1 ms y una hora; se recibió \(given) ms")
        case .resetLimits:
            return Words(
                "the reset limit must be 0 or more and the control frame allowance 1 or more",
                es: "el límite de reinicios debe ser 0 o más y la asignación de frames de control 1 o más")
        case .failureForm(let given):
            let shown = OutsideText.display(given)
            return Words(
                "\(Setting.mockFailure) takes TOKEN=REASON, e.g. 00fc13ad…=Unregistered; got '\(shown)'",
                es: "\(Setting.mockFailure) recibe TOKEN=MOTIVO, p. ej. 00fc13ad…=Unregistered; se recibió '\(shown)'")
        case .failFirstForm(let given):
            let shown = OutsideText.display(given)
            return Words(
                "takes TOKEN=N:REASON, e.g. 00fc13ad…=2:ServiceUnavailable; got '\(shown)'",
                es: "recibe TOKEN=N:MOTIVO, p. ej. 00fc13ad…=2:ServiceUnavailable; se recibió '\(shown)'")
        case .shortToken(let short, let bytes):
            return Words(
                "the token \(short) is \(bytes) bytes: APNs issues 32 or more, and the mock answers a shorter one 400 BadDeviceToken before any rule",
                es:
                    "el token \(short) tiene \(bytes) bytes: APNs los emite de 32 o más, y el mock responde 400 BadDeviceToken a uno más corto antes de cualquier regla"
            )
        case .unknownReason(let given):
            let shown = OutsideText.display(given)
            return Words("'\(shown)' is not a reason APNs sends", es: "'\(shown)' no es un motivo que envíe APNs")
        case .unknownKeyID(let given):
            let shown = OutsideText.display(given)
            return Words("cannot tell the key id of '\(shown)'", es: "no se sabe el key id de '\(shown)'")
        case .notAP256Key(let keyID):
            return Words("the key for \(keyID) is not a P-256 key in PEM form", es: "la clave de \(keyID) no es una clave P-256 en formato PEM")
        case .keyFolderNotAFolder(let path):
            let shown = OutsideText.display(path)
            return Words("\(Setting.mockKeyFolder) '\(shown)' is not a folder", es: "\(Setting.mockKeyFolder) '\(shown)' no es una carpeta")
        case .clientCAWithoutPEM(let path):
            let shown = OutsideText.display(path)
            return Words(
                "the \(Setting.mockClientCA) file '\(shown)' holds no PEM certificate",
                es: "el archivo de \(Setting.mockClientCA) '\(shown)' no contiene ningún certificado PEM")
        case .notAHostName(let given):
            let shown = OutsideText.display(given, limit: 80)
            return Words("'\(shown)' is neither an IP address nor a host name", es: "'\(shown)' no es ni una dirección IP ni un nombre de host")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .shortToken: return Words("give the whole token, 64 hex digits", es: "da el token entero, 64 dígitos hexadecimales")
        case .unknownReason:
            let known = RejectionReason.allKnown.map(\.apnsName).joined(separator: ", ")
            return Words("use one of \(known)", es: "usa uno de estos: \(known)")
        case .unknownKeyID:
            return Words("name the file AuthKey_<KEYID>.p8, or pass KEYID=PATH", es: "llama al archivo AuthKey_<KEYID>.p8, o pasa KEYID=RUTA")
        case .notAP256Key:
            return Words(
                "pass the .p8 file from your Apple Developer account, or a PEM public key",
                es: "pasa el archivo .p8 de tu cuenta de Apple Developer, o una clave pública PEM")
        case .keyFolderNotAFolder: return Words("make it first (mkdir), then give its path", es: "créala primero (mkdir) y luego indica su ruta")
        case .clientCAWithoutPEM:
            return Words(
                "give the CA's certificate as PEM, e.g. the pushctl-test-ca.pem of `pushctl cert generate`",
                es: "da el certificado de la CA en PEM, p. ej. el pushctl-test-ca.pem de `pushctl cert generate`")
        case .notAHostName:
            return Words(
                "give a host name such as classroom.local or an address such as 192.168.1.20",
                es: "da un nombre de host como classroom.local o una dirección como 192.168.1.20")
        case .port, .streamLimit, .initialStreamLimit, .connectionLimit, .answerStatus, .answerCount, .bodyPadding, .responseDelay,
            .retryAfterControlCharacter, .tokenUpdateInterval, .badDeviceTokenLimit, .idleTimeout, .setupTimeout, .resetLimits, .failureForm,
            .failFirstForm:
            return nil
        }
    }
}

extension MockListener {
    /// What listens, said after the address ("(the web view)"); nil for the mock APNs itself.
    public var words: Words? {
        switch self {
        case .apns: return nil
        case .webView: return Words("the web view", es: "la vista web")
        case .caCertificate: return Words("the CA certificate", es: "el certificado de la CA")
        }
    }
}

extension ListenRefusal {
    /// Why `host` port `port` could not be listened on.
    public func words(host: String, port: Int) -> Words {
        switch self {
        case .inUse:
            return Words(
                "port \(port) is already in use (another pushctl mock, or another server?)",
                es: "el puerto \(port) ya está en uso (¿otro pushctl mock, u otro servidor?)")
        case .privileged: return Words("ports below 1024 need administrator rights", es: "los puertos por debajo de 1024 necesitan permisos de administrador")
        case .noSuchAddress: return Words("this machine has no address \(host)", es: "este equipo no tiene la dirección \(host)")
        case .other(let text): return Words(verbatim: OutsideText.display(text, limit: 200))
        }
    }
}

extension MockOutputFile {
    public var words: Words {
        switch self {
        case .log: return Words("the log file", es: "el archivo de registro")
        case .caCertificate: return Words("the CA certificate", es: "el certificado de la CA")
        }
    }
}

extension MockServerProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .cannotListen(let listener, let host, let port, let refusal):
            let what = listener.words.map { Words(verbatim: " (") + $0 + Words(verbatim: ")") } ?? Words(verbatim: "")
            return Words("cannot listen on \(host) port \(port)", es: "no se puede escuchar en \(host), puerto \(port)") + what + Words(verbatim: ": ")
                + refusal.words(host: host, port: port)
        case .symbolicLink(let file, let path):
            let shown = OutsideText.display(path, limit: 200)
            return Words("cannot write ", es: "no se puede escribir ") + file.words
                + Words(
                    " '\(shown)': it is a symbolic link (ELOOP), and the mock never writes through one",
                    es: " '\(shown)': es un enlace simbólico (ELOOP), y el mock nunca escribe a través de uno")
        case .cannotOpenLog(let path, let reason):
            let shown = OutsideText.display(path, limit: 200)
            return Words("cannot open the log file '\(shown)': ", es: "no se puede abrir el archivo de registro '\(shown)': ") + reason.words
        case .cannotMakeCAFolder(let base, let reason):
            let shown = OutsideText.display(base, limit: 200)
            return Words(
                "cannot make a private folder for the CA certificate in '\(shown)': ",
                es: "no se puede crear una carpeta privada para el certificado de la CA en '\(shown)': ") + reason.words
        }
    }

    public var hintWords: Words? {
        switch self {
        case .cannotListen(let listener, _, _, _):
            let setting = listener.portSetting
            return Words("pick another \(setting), or 0 for any free one", es: "elige otro \(setting), o 0 para uno libre cualquiera")
        case .symbolicLink:
            return Words(
                "give the path of a regular file, or of one not made yet: a link in a shared folder may point at someone else's file",
                es:
                    "indica la ruta de un archivo normal, o de uno que aún no exista: un enlace en una carpeta compartida puede apuntar al archivo de otra persona"
            )
        case .cannotOpenLog: return Words("check that its folder exists and is writable", es: "comprueba que su carpeta existe y se puede escribir")
        case .cannotMakeCAFolder:
            return Words(
                "give \(Setting.mockCAOut) PATH, or set TMPDIR to a folder you can write",
                es: "indica \(Setting.mockCAOut) RUTA, o define TMPDIR como una carpeta en la que puedas escribir")
        }
    }
}

extension MockWarning {
    public var words: Words {
        switch self {
        case .keyFileTooLarge(let name, let limitKiB):
            let shown = OutsideText.display(name, limit: 80)
            return Words(
                "\(shown) in the key folder is over \(limitKiB) KB: not a key; skipped",
                es: "\(shown) en la carpeta de claves pasa de \(limitKiB) KB: no es una clave; se omite")
        case .keyFileNotAKey(let name, let keyID):
            let shown = OutsideText.display(name, limit: 80)
            return Words(
                "\(shown) in the key folder is not a P-256 key (PEM public key or .p8): skipped; tokens with key id \(keyID) are refused",
                es:
                    "\(shown) en la carpeta de claves no es una clave P-256 (clave pública PEM o .p8): se omite; los tokens con key id \(keyID) se rechazan"
            )
        case .logNotRotated(let path, let reason):
            let shown = OutsideText.display(path, limit: 200)
            return Words("the log '\(shown)' could not be rotated (", es: "no se pudo rotar el registro '\(shown)' (") + reason.words
                + Words("); the mock logs no more", es: "); el mock ya no registra nada")
        case .logNotReopened(let error):
            return error.words + Words("; the mock logs no more", es: "; el mock ya no registra nada")
        }
    }
}
