import PushSystem

/// Writing to file descriptors with every result checked: no trap on a closed pipe or a full disk.
public enum FileOutput {
    /// Writes until done or an error; returns the bytes written (`Errno.current` tells why, when short).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Descriptors.writeAll(fd, $0) }
    }

    /// Creates `path` with `mode` from the start (a key is never readable by others, even
    /// briefly) and writes `bytes`; never replaces an existing file. nil when done, else the errno
    /// (`Errno.exists` when the path was taken).
    public static func writeNew(_ bytes: [UInt8], to path: String, mode: UInt16) -> Int32? {
        let fd = Descriptors.openForWriting(path, .new, mode: mode)
        guard fd >= 0 else { return Errno.current }
        defer { Descriptors.close(fd) }
        return writeAll(fd, bytes) == bytes.count ? nil : Errno.current
    }

    /// Whether `path` is a folder (following a link).
    public static func isDirectory(_ path: String) -> Bool { FileSystem.status(path)?.kind == .directory }
}

/// Where rendered output goes.
public protocol OutputSink: AnyObject {
    func write(_ bytes: [UInt8])
}
