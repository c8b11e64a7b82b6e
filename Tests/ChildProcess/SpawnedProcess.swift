public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// The part of Foundation's `Process` the tests use, on `posix_spawn`.
///
/// Foundation's `Process.run()` on Linux (Swift 6.3.1) crashes now and then: it copies whole
/// 256-byte `d_name` fields out of `readdir` while listing /proc/self/fd, and reads past glibc's
/// buffer when the next page is unmapped (swiftlang/swift-corelibs-foundation#5472, fixed after
/// 6.3.1). A suite that starts hundreds of processes hit it. This starts them with posix_spawn
/// and closes the child's other descriptors with `posix_spawn_file_actions_addclosefrom_np`.
public final class SpawnedProcess: @unchecked Sendable {
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    public var executableURL: URL?
    public var arguments: [String]?
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `Pipe`, a `FileHandle` (`FileHandle.nullDevice` included), or nil to inherit.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?
    /// Called once, on a background thread, when the process has exited.
    public var terminationHandler: (@Sendable (SpawnedProcess) -> Void)?

    /// No test child runs longer than this (seconds): past it the child is killed, and a line on
    /// the test's stderr names it, so a hang fails a test instead of stalling the whole suite.
    public var ceiling: Double = 600
    /// Whether the ceiling ended it.
    public var exceededCeiling: Bool { lock.withLock { killedAtCeiling } }

    public private(set) var processIdentifier: Int32 = 0
    private var killedAtCeiling = false
    private let lock = NSCondition()
    private var waitStatus: Int32?
    private var started = false

    public init() {}

    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return started && waitStatus == nil
    }

    public func waitUntilExit() {
        lock.lock()
        while started && waitStatus == nil { lock.wait() }
        lock.unlock()
    }

    /// The exit status, or the signal's number when a signal ended it (as Foundation reports).
    public var terminationStatus: Int32 {
        waitUntilExit()
        let status = lock.withLock { waitStatus ?? 0 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    public var terminationReason: TerminationReason {
        waitUntilExit()
        let status = lock.withLock { waitStatus ?? 0 }
        return status & 0x7F == 0 ? .exit : .uncaughtSignal
    }

    public func terminate() { if isRunning { kill(processIdentifier, SIGTERM) } }

    /// Waits at most `seconds` for the exit; past them the child is killed (SIGKILL). Whether it
    /// exited in time, so a test can fail on a process that ignored the request to stop.
    @discardableResult
    public func waitUntilExit(orKillAfter seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        while started && waitStatus == nil && lock.wait(until: deadline) {}
        let exited = !started || waitStatus != nil
        lock.unlock()
        if !exited {
            kill(processIdentifier, SIGKILL)
            waitUntilExit()
        }
        return exited
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectory: ChangeDirectory? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }

    public func run() throws {
        guard let executableURL else { throw SpawnError("no executableURL") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's side of each stream; the parent closes its copies of pipe ends after.
        var closeInParent: [FileHandle] = []
        func wire(_ stream: Any?, to target: Int32, childEnd: (Pipe) -> FileHandle) {
            switch stream {
            case let pipe as Pipe:
                posix_spawn_file_actions_adddup2(&actions, childEnd(pipe).fileDescriptor, target)
                closeInParent.append(childEnd(pipe))
            case let handle as FileHandle where handle.fileDescriptor >= 0 && handle !== FileHandle.nullDevice:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            case is FileHandle:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            default:
                break
            }
        }
        wire(standardInput, to: 0, childEnd: { $0.fileHandleForReading })
        wire(standardOutput, to: 1, childEnd: { $0.fileHandleForWriting })
        wire(standardError, to: 2, childEnd: { $0.fileHandleForWriting })
        guard let closeFrom = SpawnedProcess.closeFrom, closeFrom(&actions, 3) == 0 else {
            throw SpawnError("posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or newer needed)")
        }
        if let directory = currentDirectoryURL?.path {
            guard let changeDirectory = SpawnedProcess.changeDirectory, changeDirectory(&actions, directory) == 0 else {
                throw SpawnError("cannot change directory to \(directory) in the child")
            }
        }
        let path = executableURL.path
        let argv = ([path] + (arguments ?? [])).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        // The child starts with no signal blocked and the stop signals at their defaults, whatever
        // this test process's threads block or ignore: signal tests send it real signals.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let code: Int32 = if let envp {
            posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        } else {
            posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        guard code == 0 else { throw SpawnError("cannot start \(path): \(String(cString: strerror(code)))") }
        for handle in closeInParent { try? handle.close() }
        let child = pid
        processIdentifier = child
        lock.withLock { started = true }
        // One thread waits for the child: waitUntilExit, isRunning and the handler read its status.
        let thread = Thread { [self] in
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            lock.withLock {
                waitStatus = status
                lock.broadcast()
            }
            terminationHandler?(self)
        }
        thread.start()
        let description = ([path] + (arguments ?? [])).joined(separator: " ").prefix(300)
        DispatchQueue.global().asyncAfter(deadline: .now() + ceiling) { [self] in
            let overdue = lock.withLock {
                guard waitStatus == nil else { return false }
                killedAtCeiling = true
                return true
            }
            guard overdue else { return }
            kill(child, SIGKILL)
            FileHandle.standardError.write(Data("test child \(child) still running after \(Int(ceiling)) s, killed: \(description)\n".utf8))
        }
    }
}

#else
/// Elsewhere (macOS) Foundation's own `Process` has no such fault.
public typealias SpawnedProcess = Process

extension Process {
    /// Linux's SpawnedProcess kills a child past its ceiling; here CI's own job limit stands guard.
    public var ceiling: Double {
        get { 0 }
        set {}
    }
    public var exceededCeiling: Bool { false }

    @discardableResult
    public func waitUntilExit(orKillAfter seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(20_000) }
        let exited = !isRunning
        if !exited {
            kill(processIdentifier, SIGKILL)
            waitUntilExit()
        }
        return exited
    }
}
#endif

public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
