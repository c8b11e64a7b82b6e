#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What poll(2) watches a descriptor for, and what it found.
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// Only returned: an error on the descriptor.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// Only returned: the other end hung up.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// Only returned: not an open descriptor.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// One entry of a poll(2) set: a `struct pollfd` (`<poll.h>`, the same three fields on Linux and
/// Darwin), so an array of them is handed to the system as it is, without a copy.
public struct PolledDescriptor: Sendable {
    private var entry: pollfd

    public init(_ descriptor: Descriptor, _ events: PollEvents) {
        entry = pollfd(fd: descriptor, events: events.rawValue, revents: 0)
    }

    public var descriptor: Descriptor { entry.fd }

    public var events: PollEvents {
        get { PollEvents(rawValue: entry.events) }
        set { entry.events = newValue.rawValue }
    }

    /// What the last poll found.
    public var returned: PollEvents { PollEvents(rawValue: entry.revents) }
}

public enum Polling {
    /// poll(2) over `entries` for up to `milliseconds` (-1: no limit): how many have something,
    /// 0 on time-out, -1 and errno (EINTR when a signal came). Linux and Darwin declare it alike
    /// (`int poll(struct pollfd *, nfds_t, int)`, `<poll.h>`; nfds_t is unsigned long on Linux,
    /// unsigned int on Darwin, which `nfds_t(…)` covers).
    public static func poll(_ entries: inout [PolledDescriptor], milliseconds: Int32) -> Int32 {
        entries.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: pollfd.self) { posixPoll($0.baseAddress, nfds_t($0.count), milliseconds) }
        }
    }

    /// Waits up to `milliseconds` for one descriptor: what poll found, or nil on time-out or error.
    public static func wait(for descriptor: Descriptor, _ events: PollEvents, milliseconds: Int32) -> PollEvents? {
        var entries = [PolledDescriptor(descriptor, events)]
        guard poll(&entries, milliseconds: milliseconds) > 0 else { return nil }
        return entries[0].returned
    }
}

/// poll(2), under a name `Polling.poll` does not shadow.
private func posixPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ milliseconds: Int32) -> Int32 {
    poll(fds, count, milliseconds)
}
