public import PushCore
import PushFiles
import PushSystem
public import PushWords

/// The files the mock writes (`--log`, the CA certificate) are never written through a symbolic
/// link at their path: a link planted in a shared folder would send the mock's bytes into
/// another file, or put another certificate where the user looks for the mock's.
public enum MockOutputFiles {
    /// The refusal of a symbolic link at `path`, saying which file and why.
    public static func symbolicLinkRefusal(_ path: String, what: Words) -> InputError {
        let shown = OutsideText.display(path, limit: 200)
        return InputError(
            Words(
                "cannot write \(what) '\(shown)': it is a symbolic link (ELOOP), and the mock never writes through one",
                es: "no se puede escribir \(what) '\(shown)': es un enlace simbólico (ELOOP), y el mock nunca escribe a través de uno"),
            hint: Words(
                "give the path of a regular file, or of one not made yet: a link in a shared folder may point at someone else's file",
                es:
                    "indica la ruta de un archivo normal, o de uno que aún no exista: un enlace en una carpeta compartida puede apuntar al archivo de otra persona"
            ),
            kind: .cannotCreateOutput)
    }

    /// Throws ``symbolicLinkRefusal(_:what:)`` when `path` is a symbolic link itself.
    public static func refuseSymbolicLink(_ path: String, what: Words) throws(InputError) {
        if FileSystem.linkStatus(path)?.kind == .symbolicLink { throw symbolicLinkRefusal(path, what: what) }
    }

    /// `path` opened for appending (made 0600 when missing: the log holds device tokens), never
    /// through a symbolic link: `Descriptors.openForWriting` opens with O_NOFOLLOW, so a link at the
    /// path, even one put there a moment before, fails the open (ELOOP) and is refused by name.
    static func openForAppending(_ path: String, what: Words, cannotOpen: (Int32) -> InputError) throws(InputError) -> Descriptor {
        let fd = Descriptors.openForWriting(path, .appending)
        guard fd >= 0 else {
            let code = Errno.current
            if code == Errno.symbolicLinkLoop { throw symbolicLinkRefusal(path, what: what) }
            throw cannotOpen(code)
        }
        return fd
    }
}
