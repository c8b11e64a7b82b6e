public import PushCore
import PushSystem
public import PushWords

/// Reading what the user points at, with one set of messages: missing or unreadable →
/// `.missingInput`, present but unusable → `.badData`.
public enum InputFiles {
    /// Files pushctl reads whole (keys, payloads, tokens given inline) are small.
    public static let sizeLimit = 1 << 20

    /// What a file is called in Spanish, from its English name ("key file" → "el archivo de la clave").
    package static func spanish(_ what: String) -> String {
        // A switch, not a dictionary: every file read names itself in both languages, and a
        // dictionary keyed by String costs a single push a scan of the runtime's conformance records.
        switch what {
        case "key file": return "el archivo de la clave"
        case "tokens file": return "el archivo de tokens"
        case "requests file": return "el archivo de peticiones"
        case "payload file": return "el archivo de la carga útil"
        case "certificate file": return "el archivo del certificado"
        case "certificate key file": return "el archivo de la clave del certificado"
        case "certificate password file": return "el archivo de la contraseña del certificado"
        case "proxy credentials file": return "el archivo de credenciales del proxy"
        case "journal": return "el diario"
        case "journal or results file": return "el diario o archivo de resultados"
        case "CA certificate file": return "el certificado de la CA"
        case "token": return "el token"
        default: break
        }
        if what.hasSuffix(" file") { return "el archivo de " + what.dropLast(" file".count) }
        return what
    }

    /// Opens a file for reading, or says why not: missing, a directory, or unreadable.
    public static func open(_ path: String, what: String) throws(InputError) -> Int32 {
        guard let info = FileSystem.status(path) else {
            let reason = SystemError.reason(Errno.current)
            throw InputError(
                Words(
                    "cannot read \(what) '\(OutsideText.display(path, limit: 200))': \(reason.en)",
                    es: "no se puede leer \(spanish(what)) '\(OutsideText.display(path, limit: 200))': \(reason.es)"),
                hint: Words("check the path", es: "comprueba la ruta"), kind: .missingInput)
        }
        if info.kind == .directory {
            throw InputError(
                Words(
                    "cannot read \(what) '\(OutsideText.display(path, limit: 200))': it is a directory",
                    es: "no se puede leer \(spanish(what)) '\(OutsideText.display(path, limit: 200))': es una carpeta"),
                hint: Words("give the path of the file itself", es: "indica la ruta del archivo en sí"), kind: .missingInput)
        }
        let fd = Descriptors.openForReading(path)
        guard fd >= 0 else {
            let reason = SystemError.reason(Errno.current)
            throw InputError(
                Words(
                    "cannot read \(what) '\(OutsideText.display(path, limit: 200))': \(reason.en)",
                    es: "no se puede leer \(spanish(what)) '\(OutsideText.display(path, limit: 200))': \(reason.es)"),
                hint: Words("check the file's permissions", es: "comprueba los permisos del archivo"), kind: .missingInput)
        }
        return fd
    }

    /// Reads a whole (small) file, or standard input for `-`.
    public static func read(_ path: String, what: String) throws(InputError) -> [UInt8] {
        if path == "-" {
            return try read(fd: Descriptors.standardInput, name: Words("\(what) on standard input", es: "\(spanish(what)) en la entrada estándar"), what: what)
        }
        let fd = try open(path, what: what)
        defer { Descriptors.close(fd) }
        let shown = OutsideText.display(path, limit: 200)
        return try read(fd: fd, name: Words("\(what) '\(shown)'", es: "\(spanish(what)) '\(shown)'"), what: what)
    }

    /// Reads at most `sizeLimit` bytes (one more tells it is too large), into a buffer sized by
    /// what the file says it holds: a 600-byte key costs no megabyte of zeroed memory.
    private static func read(fd: Int32, name: Words, what: String) throws(InputError) -> [UInt8] {
        let info = FileSystem.status(of: fd)
        let announced = info?.kind == .regular ? Int(info?.size ?? 0) : 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(announced, 0), sizeLimit) + 1)
        var chunk = [UInt8](repeating: 0, count: min(max(announced + 1, 4096), 64 * 1024))
        while bytes.count <= sizeLimit {
            let wanted = min(chunk.count, sizeLimit + 1 - bytes.count)
            // A stop signal ends the wait for a pipe (the command then says it was stopped).
            guard StopSignals.waitReadable(fd) else {
                throw InputError(Words("stopped while reading \(name.text(.en))", es: "parado mientras se leía \(name.text(.es))"), kind: .temporaryFailure)
            }
            let n = chunk.withUnsafeMutableBytes { Descriptors.read(fd, into: $0.baseAddress!, count: wanted) }
            // A stop signal ends the wait (the command says it was stopped); any other signal does not.
            if n < 0 && Errno.current == Errno.interrupted && !StopSignals.requested { continue }
            guard n >= 0 else {
                let reason = SystemError.reason(Errno.current)
                throw InputError(
                    Words("cannot read \(name.text(.en)): \(reason.en)", es: "no se puede leer \(name.text(.es)): \(reason.es)"), kind: .missingInput)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        guard bytes.count <= sizeLimit else {
            throw InputError(
                Words(
                    "\(name.text(.en)) is larger than \(sizeLimit / 1024) KiB; that cannot be a \(what)",
                    es: "\(name.text(.es)) pasa de \(sizeLimit / 1024) KiB; no puede ser \(spanish(what))"))
        }
        return bytes
    }

    /// A private key readable by group or others is worth a warning, not a refusal.
    public static func sharingWarning(_ path: String) -> Words? {
        guard path != "-", let info = FileSystem.status(path), info.permissions & 0o077 != 0 else { return nil }
        let mode = "0" + String(info.permissions & 0o777, radix: 8)
        let shown = OutsideText.display(path, limit: 200)
        return Words(
            "\(shown) is readable by group or others (mode \(mode)); a key is a secret: run `chmod 600 \(shown)`",
            es: "\(shown) lo pueden leer el grupo u otros usuarios (modo \(mode)); una clave es secreta: ejecuta `chmod 600 \(shown)`")
    }
}

extension Optional where Wrapped == String {
    /// nil for an unset or empty variable, as shells treat `VAR=`.
    public var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}
