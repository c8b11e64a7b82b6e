#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process ended.
public enum ProcessEnd: Sendable, Equatable {
    case exited(Int32)
    case signalled(Int32)

    /// The shell's number for it: the exit status, or 128 + the signal's number.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let number): 128 + number
        }
    }

    /// waitpid(2)'s status word: the same encoding on Linux and Darwin (`<sys/wait.h>`: the low
    /// 7 bits the signal, 0 for an exit whose code is the next 8 bits).
    init(waitStatus status: Int32) {
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }
}

/// A child process to start: its program, arguments, environment, folder and standard streams.
public struct ChildSpec: Sendable {
    /// Where a child's standard stream goes.
    public enum Stream: Sendable {
        /// This process's own.
        case inherit
        /// /dev/null.
        case null
        /// This descriptor of ours.
        case descriptor(Descriptor)
    }

    public var program: String
    public var arguments: [String]
    /// `NAME=value` entries; nil: this process's environment as it is.
    public var environment: [String]?
    public var directory: String?
    public var input: Stream = .inherit
    public var output: Stream = .inherit
    public var errors: Stream = .inherit
    /// Starts the child in a process group of its own (its pid), so that `run`'s time limit ends
    /// what it started too (`sh -c` running a KMS client).
    public var ownProcessGroup = false

    public init(_ program: String, _ arguments: [String] = []) {
        self.program = program
        self.arguments = arguments
    }
}

/// Child processes started by hand (posix_spawn), kept rather than moved to swift-subprocess 1.0.2
/// (issue 45, tried against its source): its `run(_:arguments:environment:…)` is `async` only, and
/// the signer, `xcrun simctl` and doctor are called synchronously (`ES256Signing.sign` on the
/// dispatcher's thread), so each would block a thread on a task; on Linux it starts a monitor
/// thread of its own (and, on kernels before 5.4 without pidfd, a process-wide SIGCHLD handler);
/// its `Execution` offers no wait on another descriptor (the stop signals' wake pipe) beside the
/// child's output, and no way to learn, while the output is still held open, that the child
/// itself has exited (what the signer's background-job case needs): `output: .bytes(limit:)`
/// collects to the pipe's end, the very wait issue 44 found. Its teardown sequence
/// (`.gracefulShutDown(toProcessGroup:allowedDuration:)`, `send(signal:toProcessGroup:)`) would
/// cover the rest; it is worth another look when it has a synchronous entry point.
public enum ChildProcesses {
    /// posix_spawn(2)s `spec`: the child's pid, or the error code it could not start with. The
    /// child starts with no signal blocked and SIGINT, SIGTERM, SIGHUP and SIGPIPE at their default
    /// actions, whatever this process's threads block or ignore, and with no descriptor of ours
    /// but its three streams.
    ///
    /// The types differ: Linux's `posix_spawn_file_actions_t` and `posix_spawnattr_t` are structs
    /// (made with `()`), Darwin's `<spawn.h>` makes both `void *` (imported as optional pointers,
    /// filled in by the `_init` calls); the calls themselves are declared alike. Closing the other
    /// descriptors: glibc 2.34's `posix_spawn_file_actions_addclosefrom_np` (looked up by name: the
    /// Glibc module does not export it); Darwin's `POSIX_SPAWN_CLOEXEC_DEFAULT` flag (`<spawn.h>`),
    /// which closes every descriptor the file actions do not name, so an inherited stream is named
    /// with `posix_spawn_file_actions_addinherit_np`. Changing folder: `posix_spawn_file_actions_addchdir_np`
    /// on both (glibc 2.29, looked up by name; Darwin `<spawn.h>`, macOS 10.15).
    public static func spawn(_ spec: ChildSpec) -> Result<Int32, SpawnFailure> {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        for (stream, target) in [(spec.input, Int32(0)), (spec.output, 1), (spec.errors, 2)] {
            switch stream {
            case .inherit:
                // Darwin: a stream closed here stays closed there (an inherit of a closed one fails the spawn).
                #if canImport(Darwin)
                    if fcntl(target, F_GETFD) >= 0 { posix_spawn_file_actions_addinherit_np(&actions, target) }
                #endif
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let fd):
                // Darwin's dup2(fd, fd) keeps FD_CLOEXEC: a descriptor already in place is inherited instead.
                #if canImport(Darwin)
                    if fd == target {
                        posix_spawn_file_actions_addinherit_np(&actions, target)
                        continue
                    }
                #endif
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        // POSIX_SPAWN_SETPGROUP and posix_spawnattr_setpgroup are declared alike on both (`<spawn.h>`).
        if spec.ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            if let directory = spec.directory {
                let code = posix_spawn_file_actions_addchdir_np(&actions, directory)
                if code != 0 { return .failure(SpawnFailure(code: code, step: .directory)) }
            }
        #else
            guard let closeFrom = Spawning.closeFrom, closeFrom(&actions, 3) == 0 else {
                return .failure(SpawnFailure(code: ENOSYS, step: .closeOthers))
            }
            if let directory = spec.directory {
                guard let changeDirectory = Spawning.changeDirectory, changeDirectory(&actions, directory) == 0 else {
                    return .failure(SpawnFailure(code: ENOSYS, step: .directory))
                }
            }
        #endif
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([spec.program] + spec.arguments).map { strdup($0) } + [nil]
        let envp = spec.environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let code =
            if let envp {
                posix_spawn(&pid, spec.program, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, spec.program, &actions, &attributes, argv, ProcessEnvironment.block)
            }
        guard code == 0 else { return .failure(SpawnFailure(code: code, step: .start)) }
        return .success(pid)
    }

    /// waitpid(2) until `pid` ends (a signal's interruption resumed).
    public static func wait(_ pid: Int32) -> ProcessEnd { waitMeasuring(pid).end }

    /// wait4(2) until `pid` ends: how, and the CPU seconds it used (user and system). wait4 and
    /// `struct rusage` are declared alike on both (`<sys/wait.h>`, `<sys/resource.h>`; Darwin's
    /// `ru_utime` is a `timeval` with a 32-bit `tv_usec`, which `Double(…)` reads all the same).
    public static func waitMeasuring(_ pid: Int32) -> (end: ProcessEnd, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return (.exited(-1), 0) }
        }
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (ProcessEnd(waitStatus: status), seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// waitpid(2) with WNOHANG: how `pid` ended, or nil while it runs.
    public static func poll(_ pid: Int32) -> ProcessEnd? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 && errno != EINTR ? .exited(-1) : nil }
        return ProcessEnd(waitStatus: status)
    }

    /// Runs `spec` to its end, its input `input`, collecting at most `limit` bytes of its standard
    /// output and of its standard error. One deadline, `seconds` from the start, holds whatever the
    /// child does with its streams: past it the child (its process group, with `ownProcessGroup`)
    /// is killed (SIGKILL) and reaped. A child that exits while something it started still holds
    /// its output (a shell's background job) is not waited for: what it wrote is kept and the rest
    /// of its group is killed (`leftBehind`). When `stopDescriptor` (StopSignals' wake pipe) turns
    /// readable, the child is killed at once (`stopped`); the pipe is left for the run to drain.
    /// The wait is poll(2) on the pipes, woken 20 times a second to see whether the child exited.
    /// The spec's streams are replaced by pipes. The caller ignores SIGPIPE (pushctl does from its
    /// start): a child that exits without reading its input would otherwise end this process.
    public static func run(
        _ spec: ChildSpec, input: [UInt8] = [], limit: Int = 64 * 1024, seconds: Double, stopDescriptor: Descriptor? = nil
    ) -> Result<ChildRun, SpawnFailure> {
        let deadline = Clocks.monotonicSeconds() + seconds
        guard let stdin = Descriptors.pipe() else { return .failure(SpawnFailure(code: errno, step: .pipes)) }
        guard let stdout = Descriptors.pipe() else {
            [stdin.read, stdin.write].forEach(Descriptors.close)
            return .failure(SpawnFailure(code: errno, step: .pipes))
        }
        guard let stderr = Descriptors.pipe() else {
            [stdin.read, stdin.write, stdout.read, stdout.write].forEach(Descriptors.close)
            return .failure(SpawnFailure(code: errno, step: .pipes))
        }
        var child = spec
        child.input = .descriptor(stdin.read)
        child.output = .descriptor(stdout.write)
        child.errors = .descriptor(stderr.write)
        let started = spawn(child)
        [stdin.read, stdout.write, stderr.write].forEach(Descriptors.close)
        guard case .success(let pid) = started else {
            [stdin.write, stdout.read, stderr.read].forEach(Descriptors.close)
            if case .failure(let failure) = started { return .failure(failure) }
            return .failure(SpawnFailure(code: EINVAL, step: .start))
        }
        let collected = Collector(input: input, inputFD: stdin.write, outputFD: stdout.read, errorFD: stderr.read, limit: limit)
        let stopped = StopSignals.requested
        var outcome: Collector.Outcome = stopped ? .stopped : .tick
        var exited = false
        while !stopped {
            outcome = collected.run(until: min(deadline, Clocks.monotonicSeconds() + 0.05), stop: stopDescriptor)
            exited = exited || hasExited(pid)
            if outcome == .closed && exited || outcome == .stopped { break }
            if Clocks.monotonicSeconds() >= deadline {
                outcome = .deadline
                break
            }
            if exited {
                // Its output still held by what it left running: keep what is there, stop waiting.
                collected.drain()
                break
            }
        }
        // A negative pid is the process group (kill(2)): the child and what it started. The child is
        // not reaped yet, so its pid (the group's id) cannot have been given to another process.
        let target = spec.ownProcessGroup ? -pid : pid
        if outcome != .closed || spec.ownProcessGroup { _ = Signals.send(.kill, to: target) }
        let end = wait(pid)
        return .success(
            ChildRun(
                end: end, output: collected.output, errors: collected.errors, timedOut: outcome == .deadline,
                truncated: collected.truncated, stopped: outcome == .stopped, leftBehind: exited && outcome == .tick && !collected.isClosed))
    }

    /// waitid(2) with WNOWAIT: whether `pid` has ended, leaving it to be reaped. Linux (glibc
    /// `<sys/wait.h>`) and Darwin (`<sys/wait.h>`: `int waitid(idtype_t, id_t, siginfo_t *, int)`,
    /// `P_PID`, `WEXITED`, `WNOHANG`, `WNOWAIT`) declare it alike; `si_signo` is a plain field of
    /// `siginfo_t` on both (zeroed first: with WNOHANG and nothing to report it stays 0).
    static func hasExited(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0 {
            guard errno == EINTR else { return true }
        }
        return info.si_signo == SIGCHLD
    }

    /// Reads a child's two output pipes and writes its input, all without blocking, until both
    /// outputs end or the deadline passes.
    private final class Collector {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var truncated = false
        private let input: [UInt8]
        private var inputFD: Descriptor?
        private var written = 0
        private var open: [Descriptor]
        private let outputFD: Descriptor
        private let limit: Int

        init(input: [UInt8], inputFD: Descriptor, outputFD: Descriptor, errorFD: Descriptor, limit: Int) {
            self.input = input
            self.inputFD = inputFD
            self.outputFD = outputFD
            open = [outputFD, errorFD]
            self.limit = limit
            for fd in open { _ = Descriptors.setNonBlocking(fd) }
            _ = Descriptors.setNonBlocking(inputFD)
            if input.isEmpty { closeInput() }
        }

        deinit {
            closeInput()
            open.forEach(Descriptors.close)
        }

        private func closeInput() {
            if let fd = inputFD { Descriptors.close(fd) }
            inputFD = nil
        }

        /// How a stretch of collecting ended.
        enum Outcome: Equatable {
            /// Both outputs reached their end.
            case closed
            /// The time given passed first.
            case tick
            /// The stop descriptor turned readable.
            case stopped
            /// The child's time ran out.
            case deadline
        }

        private var buffer = [UInt8](repeating: 0, count: 16384)

        /// Both outputs reached their end.
        var isClosed: Bool { open.isEmpty }

        /// Collects until `until` passes (`.closed` then if both outputs have ended, else `.tick`),
        /// or `stop` turns readable. With both outputs ended it waits for the time or the stop alone.
        func run(until: Double, stop: Descriptor?) -> Outcome {
            while true {
                let left = until - Clocks.monotonicSeconds()
                guard left > 0 else { return isClosed ? .closed : .tick }
                var entries = open.map { PolledDescriptor($0, .readable) }
                if let fd = inputFD, !isClosed { entries.append(PolledDescriptor(fd, .writable)) }
                if let stop { entries.append(PolledDescriptor(stop, .readable)) }
                let ready = Polling.poll(&entries, milliseconds: Int32(min(left * 1000 + 1, 60_000)))
                if ready < 0 && errno != EINTR { return isClosed ? .closed : .tick }
                for entry in entries where !entry.returned.isEmpty {
                    if entry.descriptor == stop { return .stopped }
                    if entry.descriptor == inputFD {
                        feed()
                        continue
                    }
                    readOnce(entry.descriptor)
                }
                if isClosed && ready > 0 && !entries.contains(where: { $0.descriptor == stop && !$0.returned.isEmpty }) {
                    // Both ended just now: say so at once (the caller waits for the exit from here).
                    return .closed
                }
            }
        }

        /// Reads what the outputs hold now, without waiting for more.
        func drain() {
            for fd in open {
                while open.contains(fd), readOnce(fd) > 0 {}
            }
        }

        /// One read(2) of `fd` (non-blocking): the bytes kept, 0 at its end (then closed) or when
        /// nothing is there yet.
        @discardableResult
        private func readOnce(_ fd: Descriptor) -> Int {
            let n = buffer.withUnsafeMutableBytes { Descriptors.read(fd, into: $0.baseAddress!, count: $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { return 0 }
            if n <= 0 {
                open.removeAll { $0 == fd }
                Descriptors.close(fd)
                return 0
            }
            keep(buffer[..<n], from: fd)
            return n
        }

        private func feed() {
            guard let fd = inputFD else { return }
            let n = input.withUnsafeBytes { Descriptors.write(fd, from: $0.baseAddress! + written, count: input.count - written) }
            if n > 0 { written += n }
            if (n < 0 && errno != EAGAIN && errno != EINTR) || written == input.count { closeInput() }
        }

        private func keep(_ bytes: ArraySlice<UInt8>, from fd: Descriptor) {
            if fd == outputFD {
                let room = max(0, limit - output.count)
                output += bytes.prefix(room)
                truncated = truncated || bytes.count > room
            } else {
                let room = max(0, limit - errors.count)
                errors += bytes.prefix(room)
                truncated = truncated || bytes.count > room
            }
        }
    }
}

/// What `ChildProcesses.run` gives back.
public struct ChildRun: Sendable {
    public let end: ProcessEnd
    public let output: [UInt8]
    public let errors: [UInt8]
    /// The child was killed at the time limit.
    public let timedOut: Bool
    /// It printed more than the limit; the rest was read and dropped.
    public let truncated: Bool
    /// A stop signal came while it ran: it was killed.
    public var stopped = false
    /// It exited while something it started (a shell's background job) still held its output: that
    /// was killed with its process group, and what the child wrote before is kept.
    public var leftBehind = false
}

/// Why a child could not start, and at which step.
public struct SpawnFailure: Error, Sendable, Equatable {
    public enum Step: Sendable, Equatable { case pipes, closeOthers, directory, start }
    public let code: Int32
    public let step: Step
}

#if !canImport(Darwin)
    /// glibc's posix_spawn extensions, which its Swift module does not export: looked up by name.
    private enum Spawning {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            .map { unsafeBitCast($0, to: CloseFrom.self) }
        static let changeDirectory: ChangeDirectory? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
            .map { unsafeBitCast($0, to: ChangeDirectory.self) }
    }
#endif
