public import PushCore

// Files: why a system call failed, what a file is for, and what went wrong reading one.

extension SystemReason {
    /// The reason in words; one the catalog does not know is the system's own text, the same in both.
    public var words: Words {
        switch self {
        case .noSuchFile: return Words("no such file", es: "no existe")
        case .permissionDenied: return Words("permission denied", es: "permiso denegado")
        case .notPermitted: return Words("operation not permitted", es: "operación no permitida")
        case .isDirectory: return Words("it is a directory", es: "es una carpeta")
        case .notDirectory: return Words("a part of the path is not a directory", es: "una parte de la ruta no es una carpeta")
        case .exists: return Words("it already exists", es: "ya existe")
        case .nameTooLong: return Words("the path is too long", es: "la ruta es demasiado larga")
        case .symbolicLinkLoop:
            return Words(
                "it is a symbolic link, which pushctl does not follow here (or the path loops)",
                es: "es un enlace simbólico, que pushctl no sigue aquí (o la ruta forma un bucle)")
        case .noSpace: return Words("no space left on the device", es: "no queda espacio en el dispositivo")
        case .quotaExceeded: return Words("the disk quota is used up", es: "se agotó la cuota de disco")
        case .readOnlyFileSystem: return Words("the file system is read-only", es: "el sistema de archivos es de solo lectura")
        case .tooManyOpenFiles: return Words("too many open files", es: "demasiados archivos abiertos")
        case .inputOutput: return Words("input/output error", es: "error de entrada/salida")
        case .brokenPipe: return Words("the pipe was closed", es: "la tubería se cerró")
        case .notExecutable: return Words("not an executable", es: "no es un ejecutable")
        case .other(let text): return Words(verbatim: text)
        }
    }
}

extension FileRole {
    /// What the file is called: "key file", "el archivo de la clave".
    public var words: Words {
        switch self {
        case .keyFile: return Words("key file", es: "el archivo de la clave")
        case .tokensFile: return Words("tokens file", es: "el archivo de tokens")
        case .requestsFile: return Words("requests file", es: "el archivo de peticiones")
        case .payloadFile: return Words("payload file", es: "el archivo de la carga útil")
        case .certificateFile: return Words("certificate file", es: "el archivo del certificado")
        case .certificateKeyFile: return Words("certificate key file", es: "el archivo de la clave del certificado")
        case .certificatePasswordFile: return Words("certificate password file", es: "el archivo de la contraseña del certificado")
        case .proxyCredentialsFile: return Words("proxy credentials file", es: "el archivo de credenciales del proxy")
        case .journal: return Words("journal", es: "el diario")
        case .journalOrResultsFile: return Words("journal or results file", es: "el diario o archivo de resultados")
        case .caCertificateFile: return Words("CA certificate file", es: "el certificado de la CA")
        case .appFile: return Words("app file", es: "el archivo de la app")
        case .token: return Words("token", es: "el token")
        case .settingFile(let setting): return Words("\(setting) file", es: "el archivo de \(setting)")
        }
    }

    /// The file named by its path, or standard input for `-`: "key file 'a.p8'".
    public func words(path: String) -> Words {
        if path == "-" { return words + Words(" on standard input", es: " en la entrada estándar") }
        return words + Words(verbatim: " '\(OutsideText.display(path, limit: 200))'")
    }
}

extension FileProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .notFound(let role, let path, let reason), .cannotOpen(let role, let path, let reason):
            return Words("cannot read ", es: "no se puede leer ") + role.words(path: path) + Words(verbatim: ": ") + reason.words
        case .directory(let role, let path):
            return Words("cannot read ", es: "no se puede leer ") + role.words(path: path) + Words(": it is a directory", es: ": es una carpeta")
        case .cannotRead(let role, let path, let reason):
            return Words("cannot read ", es: "no se puede leer ") + role.words(path: path) + Words(verbatim: ": ") + reason.words
        case .stoppedReading(let role, let path):
            return Words("stopped while reading ", es: "parado mientras se leía ") + role.words(path: path)
        case .tooLarge(let role, let path, let limit):
            let name = role.words(path: path)
            return Words(
                "\(name) is larger than \(limit) KiB; that cannot be a \(role.words)",
                es: "\(name) pasa de \(limit) KiB; no puede ser \(role.words)")
        case .emptyCACertificate(let path):
            let shown = OutsideText.display(path, limit: 200)
            return Words("the CA file '\(shown)' is empty", es: "el archivo de la CA '\(shown)' está vacío")
        case .noPEMCertificate(let path):
            let shown = OutsideText.display(path, limit: 200)
            return Words("the CA file '\(shown)' holds no PEM certificate", es: "el archivo de la CA '\(shown)' no contiene ningún certificado PEM")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .notFound: return Words("check the path", es: "comprueba la ruta")
        case .directory: return Words("give the path of the file itself", es: "indica la ruta del archivo en sí")
        case .cannotOpen: return Words("check the file's permissions", es: "comprueba los permisos del archivo")
        case .cannotRead, .stoppedReading, .tooLarge: return nil
        case .emptyCACertificate, .noPEMCertificate:
            return Words(
                "pass the CA certificate in PEM form, e.g. \(Setting.mockCA)",
                es: "indica el certificado de la CA en formato PEM, p. ej. \(Setting.mockCA)")
        }
    }
}

extension SharedKeyFile {
    /// The warning: who may read it, and the command that makes it private.
    public var words: Words {
        let mode = "0" + String(mode & 0o777, radix: 8)
        let shown = OutsideText.display(path, limit: 200)
        return Words(
            "\(shown) is readable by group or others (mode \(mode)); a key is a secret: run `chmod 600 \(shown)`",
            es: "\(shown) lo pueden leer el grupo u otros usuarios (modo \(mode)); una clave es secreta: ejecuta `chmod 600 \(shown)`")
    }
}
