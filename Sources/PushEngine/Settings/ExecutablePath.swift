public import PushCore
import PushSystem

/// A program found on PATH, as a shell would: the first folder that holds it, executable.
public enum ExecutablePath {
    public static func find(_ name: String, environment: EnvironmentVariables) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let path = "\(folder)/\(name)"
            if FileSystem.isExecutable(path) { return path }
        }
        return nil
    }
}
