import PushCore
import PushSystem
public import PushWords

/// Why a system call failed, in the words of each language pushctl speaks: the reasons a user
/// meets with paths, permissions and disks, said in Spanish too. Any other reason is the system's
/// own text (`strerror`, English), the same in both.
public enum SystemError {
    public static func reason(_ code: Int32) -> Words {
        switch code {
        case Errno.noSuchFile: return Words("no such file", es: "no existe")
        case Errno.permissionDenied: return Words("permission denied", es: "permiso denegado")
        case Errno.notPermitted: return Words("operation not permitted", es: "operación no permitida")
        case Errno.isDirectory: return Words("it is a directory", es: "es una carpeta")
        case Errno.notDirectory: return Words("a part of the path is not a directory", es: "una parte de la ruta no es una carpeta")
        case Errno.exists: return Words("it already exists", es: "ya existe")
        case Errno.nameTooLong: return Words("the path is too long", es: "la ruta es demasiado larga")
        case Errno.symbolicLinkLoop:
            return Words(
                "it is a symbolic link, which pushctl does not follow here (or the path loops)",
                es: "es un enlace simbólico, que pushctl no sigue aquí (o la ruta forma un bucle)")
        case Errno.noSpace: return Words("no space left on the device", es: "no queda espacio en el dispositivo")
        case Errno.quotaExceeded: return Words("the disk quota is used up", es: "se agotó la cuota de disco")
        case Errno.readOnlyFileSystem: return Words("the file system is read-only", es: "el sistema de archivos es de solo lectura")
        case Errno.tooManyOpenFiles, Errno.tooManyOpenFilesInSystem: return Words("too many open files", es: "demasiados archivos abiertos")
        case Errno.inputOutput: return Words("input/output error", es: "error de entrada/salida")
        case Errno.brokenPipe: return Words("the pipe was closed", es: "la tubería se cerró")
        case Errno.notExecutable: return Words("not an executable", es: "no es un ejecutable")
        default: return Words(verbatim: Errno.message(code))
        }
    }
}
