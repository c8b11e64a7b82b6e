#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

public enum Clocks {
    /// Nanoseconds on a clock that never goes back (durations, deadlines, back-offs). Linux:
    /// clock_gettime(CLOCK_MONOTONIC). Darwin: clock_gettime_nsec_np(CLOCK_UPTIME_RAW) (`<time.h>`,
    /// macOS 10.12), the clock Dispatch's uptime reads. Neither counts a machine's sleep.
    public static func monotonicNanoseconds() -> UInt64 {
        #if canImport(Darwin)
            return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        #endif
    }

    /// The monotonic clock in seconds.
    public static func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }

    /// UNIX seconds (time(3), the same on both).
    public static func unixSeconds() -> Int64 { Int64(time(nil)) }

    /// UNIX time with its fraction (clock_gettime(CLOCK_REALTIME), `<time.h>` on both).
    public static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sleeps this thread for `seconds` (nanosleep(2), resumed after a signal).
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&wanted, &remaining) != 0 && errno == EINTR { wanted = remaining }
    }
}
