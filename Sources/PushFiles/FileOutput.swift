import PushSystem

/// Writing to file descriptors with every result checked: no trap on a closed pipe or a full disk.
public enum FileOutput {
    /// Writes until done or an error; returns the bytes written (`Errno.current` tells why, when short).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Descriptors.writeAll(fd, $0) }
    }

    /// Whether `path` is a folder (following a link).
    public static func isDirectory(_ path: String) -> Bool { FileSystem.status(path)?.kind == .directory }
}

/// Where rendered output goes.
public protocol OutputSink: AnyObject {
    func write(_ bytes: [UInt8])
}
