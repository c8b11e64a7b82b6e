#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
    import MachO  // _NSGetExecutablePath: <mach-o/dyld.h> is the MachO module's, not Darwin's
#endif

/// This process's environment variables.
public enum ProcessEnvironment {
    /// getenv(3): the value of `name`, or nil when it is not set; for a variable `keepPrivate`
    /// took out of the environment, the value it had.
    public static func value(_ name: String) -> String? {
        kept[name] ?? getenv(name).map { String(cString: $0) }
    }

    /// Moves each of `names` that is set (secrets: a key's PEM) out of the environment into this
    /// process's memory: `value` still answers for it, and no child started afterwards (a signer,
    /// xcrun, the mock) inherits it. Called once at start, before any thread reads the environment.
    public static func keepPrivate(_ names: [String]) {
        for name in names {
            guard let found = getenv(name).map({ String(cString: $0) }) else { continue }
            kept[name] = found
            remove(name)
        }
    }

    nonisolated(unsafe) private static var kept: [String: String] = [:]

    /// setenv(3) (`overwrite` 1).
    public static func set(_ name: String, _ value: String) { _ = setenv(name, value, 1) }

    /// unsetenv(3): `name` is gone from this process and from every child it starts after.
    public static func remove(_ name: String) { _ = unsetenv(name) }

    /// The environment block, `NAME=value` C strings ending with a null pointer. Linux: glibc's
    /// and musl's `environ` variable. Darwin's module does not declare `environ` (a shared library
    /// cannot link it); `_NSGetEnviron()` from `<crt_externs.h>` returns its address, a header no
    /// module of the SDK covers, so it is declared below by its C symbol (as Swift's standard
    /// library does).
    static var block: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
            return darwinEnvironment().pointee
        #else
            return environ
        #endif
    }

    /// The names of the variables set whose name satisfies `accept` (given the name's bytes).
    public static func names(where accept: (UnsafeBufferPointer<UInt8>) -> Bool) -> [String] {
        var names: [String] = []
        var entry = block
        while let pointer = entry?.pointee {
            let length = strcspn(pointer, "=")
            let name = UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self)
            if accept(name) { names.append(String(decoding: name, as: UTF8.self)) }
            entry = entry.map { $0 + 1 }
        }
        return names
    }

    /// Every variable as `NAME=value`, for a child's environment.
    public static func entries() -> [String] {
        var entries: [String] = []
        var entry = block
        while let pointer = entry?.pointee {
            entries.append(String(cString: pointer))
            entry = entry.map { $0 + 1 }
        }
        return entries
    }
}

/// This process itself.
public enum CurrentProcess {
    /// getpid(2).
    public static var id: Int32 { getpid() }

    /// geteuid(2): the user whose permissions this process has.
    public static var effectiveUser: UInt32 { UInt32(geteuid()) }

    /// gethostname(3), or nil.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(nulTerminated: buffer)
    }

    /// This executable's own path, symbolic links resolved, or nil when the system will not say.
    /// Linux: the `/proc/self/exe` link. Darwin has no /proc: `_NSGetExecutablePath` (`<mach-o/dyld.h>`)
    /// gives the path it was started by, which realpath(3) resolves.
    public static var executablePath: String? {
        #if canImport(Darwin)
            var size = UInt32(4096)
            var path = [CChar](repeating: 0, count: Int(size))
            guard _NSGetExecutablePath(&path, &size) == 0 else { return nil }
            return FileSystem.resolved(String(nulTerminated: path))
        #else
            return FileSystem.resolved("/proc/self/exe")
        #endif
    }

    /// Replaces this process with `program` (execv(3)); returns only when that failed, with errno.
    public static func replace(with program: String, arguments: [String]) {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        _ = execv(program, argv)
    }

    /// Ends this process now with `status` (exit(3): buffers flushed, atexit handlers run).
    public static func exit(_ status: Int32) -> Never { posixExit(status) }
}

/// exit(3), under a name `CurrentProcess.exit` does not shadow.
private func posixExit(_ status: Int32) -> Never { exit(status) }

/// `char ***_NSGetEnviron(void)` from Darwin's `<crt_externs.h>`, declared by its symbol.
#if canImport(Darwin)
    @_silgen_name("_NSGetEnviron")
    private func darwinEnvironment() -> UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
#endif
