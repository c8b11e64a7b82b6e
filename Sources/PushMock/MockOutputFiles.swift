public import PushCore
import PushFiles
import PushSystem
import PushWords

/// The files the mock writes (`--log`, the CA certificate) are never written through a symbolic
/// link at their path: a link planted in a shared folder would send the mock's bytes into
/// another file, or put another certificate where the user looks for the mock's.
public enum MockOutputFiles {
    /// The refusal of a symbolic link at `path`, saying which file and why.
    public static func symbolicLinkRefusal(_ path: String, _ file: MockOutputFile) -> InputError {
        InputError(MockServerProblem.symbolicLink(file, path: path), kind: .cannotCreateOutput)
    }

    /// Throws ``symbolicLinkRefusal(_:_:)`` when `path` is a symbolic link itself.
    public static func refuseSymbolicLink(_ path: String, _ file: MockOutputFile) throws(InputError) {
        if FileSystem.linkStatus(path)?.kind == .symbolicLink { throw symbolicLinkRefusal(path, file) }
    }

    /// `path` opened for appending (made 0600 when missing: the log holds device tokens), never
    /// through a symbolic link: `Descriptors.openForWriting` opens with O_NOFOLLOW, so a link at the
    /// path, even one put there a moment before, fails the open (ELOOP) and is refused by name.
    static func openForAppending(_ path: String, _ file: MockOutputFile, cannotOpen: (Int32) -> InputError) throws(InputError) -> Descriptor {
        let fd = Descriptors.openForWriting(path, .appending)
        guard fd >= 0 else {
            let code = Errno.current
            if code == Errno.symbolicLinkLoop { throw symbolicLinkRefusal(path, file) }
            throw cannotOpen(code)
        }
        return fd
    }
}
