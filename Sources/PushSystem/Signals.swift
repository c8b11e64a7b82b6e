internal import CStopSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals pushctl sends, catches or ignores: the names and numbers are POSIX's on both
/// (`<signal.h>`), with different numbers for some (SIGHUP is 1 on both, SIGUSR1 is not).
public enum Signal: Sendable, Equatable {
    case interrupt, terminate, hangUp, kill, pipe

    public var number: Int32 {
        switch self {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .hangUp: SIGHUP
        case .kill: SIGKILL
        case .pipe: SIGPIPE
        }
    }

    public init?(number: Int32) {
        switch number {
        case SIGINT: self = .interrupt
        case SIGTERM: self = .terminate
        case SIGHUP: self = .hangUp
        case SIGKILL: self = .kill
        case SIGPIPE: self = .pipe
        default: return nil
        }
    }

    /// "SIGINT", "SIGTERM"…
    public var name: String {
        switch self {
        case .interrupt: "SIGINT"
        case .terminate: "SIGTERM"
        case .hangUp: "SIGHUP"
        case .kill: "SIGKILL"
        case .pipe: "SIGPIPE"
        }
    }
}

public enum Signals {
    /// A write to a closed pipe or socket returns EPIPE instead of ending the process (signal(3)
    /// with SIG_IGN; on Darwin SIG_IGN is the same `<signal.h>` macro Swift's overlay imports).
    public static func ignoreBrokenPipes() { ignore(.pipe) }

    /// kill(2): sends `signal` to the process `pid`; false and errno when it cannot.
    @discardableResult
    public static func send(_ signal: Signal, to pid: Int32) -> Bool { kill(pid, signal.number) == 0 }

    /// Whether the process `pid` exists (kill with signal 0).
    public static func processExists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// signal(3) with SIG_IGN: `signal` no longer reaches the process (a DispatchSource still
    /// sees it). SIG_IGN and SIG_DFL are `<signal.h>` macros both overlays import.
    public static func ignore(_ which: Signal) { _ = signal(which.number, SIG_IGN) }

    /// signal(3) with SIG_DFL: `signal` does what it does by default again (most end the process).
    public static func restoreDefault(_ which: Signal) { _ = signal(which.number, SIG_DFL) }
}

/// SIGINT, SIGTERM and SIGHUP as requests to stop, not as the end of the process (the handler,
/// async-signal-safe, lives in C: CStopSignals): each is counted and the last remembered, and a
/// byte on a pipe wakes a poll. Installed without SA_RESTART, so a blocking read is interrupted.
public enum StopSignals {
    /// Installs the handlers (once): the pipe's read end to watch, or nil.
    public static func install() -> Descriptor? {
        let fd = pushctl_stop_signals_install()
        return fd >= 0 ? fd : nil
    }

    /// The wake pipe's read end once `install` has run (readable while a stop is not yet drained), else nil.
    public static var wakeDescriptor: Descriptor? {
        let fd = pushctl_stop_signals_descriptor()
        return fd >= 0 ? fd : nil
    }

    /// Whether one of those signals came since install (nothing is drained).
    public static var requested: Bool { pushctl_stop_signals_count() > 0 }

    /// Waits until `fd` has something to read (or has ended), or one of those signals came: false
    /// for the signal. poll(2) watches the wake pipe beside `fd`, so a signal that comes just before
    /// the wait still ends it. Before `install`, true at once (the read that follows waits as before).
    public static func waitReadable(_ fd: Descriptor) -> Bool {
        guard let wake = wakeDescriptor else { return true }
        while !requested {
            var entries = [PolledDescriptor(fd, .readable), PolledDescriptor(wake, .readable)]
            let ready = Polling.poll(&entries, milliseconds: -1)
            if ready < 0 && errno != EINTR { return true }
            if ready > 0 && !entries[0].returned.isEmpty { return !requested }
        }
        return false
    }

    /// How many of those signals came since install, and the last one.
    public static func received() -> (count: Int, last: Signal?) {
        pushctl_stop_signals_drain()
        return (Int(pushctl_stop_signals_count()), Signal(number: pushctl_stop_signals_last()))
    }
}
