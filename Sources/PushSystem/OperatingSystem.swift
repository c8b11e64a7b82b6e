/// The operating system pushctl runs on, for what differs by more than a system call: where a
/// push certificate lives (macOS's Keychain) and whether Xcode's Simulator tools can be there.
/// A value, not only a compile-time branch, so that a test on Linux can ask for macOS's answers.
public enum OperatingSystem: String, Sendable, CaseIterable {
    case linux, macOS

    /// This build's: `os(macOS)` on Darwin, Linux otherwise (the only two pushctl is built for).
    public static var current: OperatingSystem {
        #if os(macOS)
            return .macOS
        #else
            return .linux
        #endif
    }
}
