public import Foundation
public import PushSystem

/// The part of Foundation's `Process` the tests use, on PushSystem's `ChildProcesses.spawn`
/// (posix_spawn), the same on Linux and macOS.
///
/// Foundation's `Process.run()` on Linux (Swift 6.3.1) crashes now and then: it copies whole
/// 256-byte `d_name` fields out of `readdir` while listing /proc/self/fd, and reads past glibc's
/// buffer when the next page is unmapped (swiftlang/swift-corelibs-foundation#5472, fixed after
/// 6.3.1). A suite that starts hundreds of processes hit it. The child gets its three streams and
/// no other descriptor of the test process, no signal blocked and the stop signals at their defaults.
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
    /// The CPU seconds (user and system) the child used, once it has exited.
    public var cpuSeconds: Double { lock.withLock { cpu } }
    private var cpu = 0.0
    private var killedAtCeiling = false
    private let lock = NSCondition()
    private var end: ProcessEnd?
    private var started = false

    public init() {}

    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return started && end == nil
    }

    public func waitUntilExit() {
        lock.lock()
        while started && end == nil { lock.wait() }
        lock.unlock()
    }

    /// The exit status, or the signal's number when a signal ended it (as Foundation reports).
    public var terminationStatus: Int32 {
        waitUntilExit()
        switch lock.withLock({ end }) {
        case .exited(let code)?: return code
        case .signalled(let number)?: return number
        case nil: return 0
        }
    }

    public var terminationReason: TerminationReason {
        waitUntilExit()
        if case .signalled? = lock.withLock({ end }) { return .uncaughtSignal }
        return .exit
    }

    public func terminate() { if isRunning { Signals.send(.terminate, to: processIdentifier) } }

    /// Sends `signal` to the child while it runs.
    public func send(_ signal: Signal) { if isRunning { Signals.send(signal, to: processIdentifier) } }

    /// Waits at most `seconds` for the exit (the child keeps running after): whether it exited.
    @discardableResult
    public func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while started && end == nil && lock.wait(until: deadline) {}
        return !started || end != nil
    }

    /// Waits at most `seconds` for the exit; past them the child is killed (SIGKILL). Whether it
    /// exited in time, so a test can fail on a process that ignored the request to stop.
    @discardableResult
    public func waitUntilExit(orKillAfter seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        while started && end == nil && lock.wait(until: deadline) {}
        let exited = !started || end != nil
        lock.unlock()
        if !exited {
            Signals.send(.kill, to: processIdentifier)
            waitUntilExit()
        }
        return exited
    }

    public func run() throws {
        guard let executableURL else { throw SpawnError("no executableURL") }
        var spec = ChildSpec(executableURL.path, arguments ?? [])
        spec.environment = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        spec.directory = currentDirectoryURL?.path
        // The child's side of each pipe; the parent closes its copies after the start.
        var closeInParent: [FileHandle] = []
        func stream(_ given: Any?, childEnd: (Pipe) -> FileHandle) -> ChildSpec.Stream {
            switch given {
            case let pipe as Pipe:
                closeInParent.append(childEnd(pipe))
                return .descriptor(childEnd(pipe).fileDescriptor)
            case let handle as FileHandle where handle.fileDescriptor >= 0 && handle !== FileHandle.nullDevice:
                return .descriptor(handle.fileDescriptor)
            case is FileHandle:
                return .null
            default:
                return .inherit
            }
        }
        spec.input = stream(standardInput, childEnd: { $0.fileHandleForReading })
        spec.output = stream(standardOutput, childEnd: { $0.fileHandleForWriting })
        spec.errors = stream(standardError, childEnd: { $0.fileHandleForWriting })
        let child: Int32
        switch ChildProcesses.spawn(spec) {
        case .success(let pid): child = pid
        case .failure(let failure): throw SpawnError("cannot start \(spec.program) (\(failure.step)): \(Errno.message(failure.code))")
        }
        for handle in closeInParent { try? handle.close() }
        processIdentifier = child
        lock.withLock { started = true }
        // One thread waits for the child: waitUntilExit, isRunning and the handler read its end.
        let thread = Thread { [self] in
            let (ended, used) = ChildProcesses.waitMeasuring(child)
            lock.withLock {
                end = ended
                cpu = used
                lock.broadcast()
            }
            terminationHandler?(self)
        }
        thread.start()
        let description = ([spec.program] + spec.arguments).joined(separator: " ").prefix(300)
        DispatchQueue.global().asyncAfter(deadline: .now() + ceiling) { [self] in
            let overdue = lock.withLock {
                guard end == nil else { return false }
                killedAtCeiling = true
                return true
            }
            guard overdue else { return }
            Signals.send(.kill, to: child)
            FileHandle.standardError.write(Data("test child \(child) still running after \(Int(ceiling)) s, killed: \(description)\n".utf8))
        }
    }
}

public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
