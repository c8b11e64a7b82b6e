public import PushCore
import PushSystem
public import PushWords

/// Why a system call failed, from its errno: the reasons a user meets with paths, permissions and
/// disks as `SystemReason`'s cases (the catalog says each), any other as the system's own text.
public enum SystemError {
    /// The reason for `code`, as a case a caller can branch on.
    public static func code(_ code: Int32) -> SystemReason {
        switch code {
        case Errno.noSuchFile: return .noSuchFile
        case Errno.permissionDenied: return .permissionDenied
        case Errno.notPermitted: return .notPermitted
        case Errno.isDirectory: return .isDirectory
        case Errno.notDirectory: return .notDirectory
        case Errno.exists: return .exists
        case Errno.nameTooLong: return .nameTooLong
        case Errno.symbolicLinkLoop: return .symbolicLinkLoop
        case Errno.noSpace: return .noSpace
        case Errno.quotaExceeded: return .quotaExceeded
        case Errno.readOnlyFileSystem: return .readOnlyFileSystem
        case Errno.tooManyOpenFiles, Errno.tooManyOpenFilesInSystem: return .tooManyOpenFiles
        case Errno.inputOutput: return .inputOutput
        case Errno.brokenPipe: return .brokenPipe
        case Errno.notExecutable: return .notExecutable
        default: return .other(Errno.message(code))
        }
    }

    /// The reason for `code` in words (the catalog's), for a message said where it happened.
    public static func reason(_ code: Int32) -> Words { self.code(code).words }
}
