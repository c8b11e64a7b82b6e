#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import PushCore

/// Why a system call failed, in the words of each language pushctl speaks: the reasons a user
/// meets with paths, permissions and disks, said in Spanish too. Any other reason is the system's
/// own text (`strerror`, English), the same in both.
public enum SystemError {
    public static func reason(_ code: Int32) -> Words {
        switch code {
        case ENOENT: return Words("no such file", es: "no existe")
        case EACCES: return Words("permission denied", es: "permiso denegado")
        case EPERM: return Words("operation not permitted", es: "operación no permitida")
        case EISDIR: return Words("it is a directory", es: "es una carpeta")
        case ENOTDIR: return Words("a part of the path is not a directory", es: "una parte de la ruta no es una carpeta")
        case EEXIST: return Words("it already exists", es: "ya existe")
        case ENAMETOOLONG: return Words("the path is too long", es: "la ruta es demasiado larga")
        case ELOOP: return Words("too many symbolic links in the path", es: "demasiados enlaces simbólicos en la ruta")
        case ENOSPC: return Words("no space left on the device", es: "no queda espacio en el dispositivo")
        case EDQUOT: return Words("the disk quota is used up", es: "se agotó la cuota de disco")
        case EROFS: return Words("the file system is read-only", es: "el sistema de archivos es de solo lectura")
        case EMFILE, ENFILE: return Words("too many open files", es: "demasiados archivos abiertos")
        case EIO: return Words("input/output error", es: "error de entrada/salida")
        case EPIPE: return Words("the pipe was closed", es: "la tubería se cerró")
        case ENOEXEC: return Words("not an executable", es: "no es un ejecutable")
        default: return Words(verbatim: String(cString: strerror(code)))
        }
    }
}
