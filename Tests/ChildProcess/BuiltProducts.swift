import Foundation

/// A class of this module's, to find the test bundle it was linked into.
private final class BundleMarker {}

/// Where `swift build` put the executables the tests run: beside the test bundle (`.build/<triple>/debug`).
public enum BuiltProducts {
    /// The folder the running test bundle was loaded from, and the ones above it.
    private static let searchFolders: [URL] = {
        #if os(Linux)
            let start = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
            // macOS runs the tests inside xctest or swiftpm-testing-helper: the bundle this code was
            // linked into, not the process, says where (swiftpm-testing-helper dlopens it, so it need
            // not be among Bundle.allBundles).
            let bundle = Bundle(for: BundleMarker.self)
            let start = bundle.bundleURL.deletingLastPathComponent()
        #endif
        var folders: [URL] = []
        var folder = start
        for _ in 0..<4 {
            folders.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        return folders
    }()

    /// The built executable `name`, or nil when it was not built.
    public static func path(of name: String) -> String? {
        searchFolders.map { $0.appendingPathComponent(name).path }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Where the search started, for a message when nothing was found.
    public static var searchedFrom: String { searchFolders.first?.path ?? "?" }
}

/// A program the tests use (curl, openssl, nghttp, tinyproxy…), found on PATH as a shell would
/// (Debian puts them in /usr/bin, Homebrew in /opt/homebrew/bin); the bare name when it is nowhere,
/// so that starting it fails with that name.
public enum Tool {
    public static func path(_ name: String) -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/usr/sbin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/\(name)"
    }
}
