import Foundation
import PushCore

/// Reading what the user points at, with the exit statuses PRODUCT.md fixes:
/// missing or unreadable → 66, present but unusable → 65.
enum InputFiles {
    /// Files pushctl reads whole (keys, payloads, tokens given inline) are small.
    static let sizeLimit = 1 << 20

    /// Opens a file for reading, or says why not: missing, a directory, or unreadable → 66.
    static func open(_ path: String, what: String) throws(InputError) -> Int32 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw InputError("cannot read \(what) '\(path)': \(reason)", hint: "check the path", status: .noInput)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw InputError("cannot read \(what) '\(path)': it is a directory", hint: "give the path of the file itself", status: .noInput)
        }
        let fd = Foundation.open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError("cannot read \(what) '\(path)': \(String(cString: strerror(errno)))", hint: "check the file's permissions", status: .noInput)
        }
        return fd
    }

    /// Reads a whole (small) file, or standard input for `-`.
    static func read(_ path: String, what: String) throws(InputError) -> [UInt8] {
        if path == "-" { return try readStandardInput(what: what) }
        let handle = FileHandle(fileDescriptor: try open(path, what: what), closeOnDealloc: true)
        let data = (try? handle.read(upToCount: sizeLimit + 1)) ?? Data()
        guard data.count <= sizeLimit else {
            throw InputError("\(what) '\(path)' is larger than \(sizeLimit / 1024) KiB; that cannot be a \(what)")
        }
        return Array(data)
    }

    static func readStandardInput(what: String) throws(InputError) -> [UInt8] {
        let data = (try? FileHandle.standardInput.read(upToCount: sizeLimit + 1)) ?? Data()
        guard data.count <= sizeLimit else {
            throw InputError("\(what) on standard input is larger than \(sizeLimit / 1024) KiB")
        }
        return Array(data)
    }

    /// A private key readable by group or others is worth a warning, not a refusal.
    static func warnIfShared(_ path: String) {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        let mode = "0" + String(info.st_mode & 0o777, radix: 8)
        Console.warn("\(path) is readable by group or others (mode \(mode)); a .p8 key is a secret: run `chmod 600 \(path)`")
    }
}
