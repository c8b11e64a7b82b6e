import PushSystem

/// The one wall clock the sender reads, in UNIX seconds: every "now" in pushctl comes from here,
/// and the token manager takes it as a parameter so that a test can stand at any minute.
public enum WallClock {
    public static func now() -> Int64 { Clocks.unixSeconds() }
}
