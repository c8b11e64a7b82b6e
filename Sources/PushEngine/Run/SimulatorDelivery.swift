public import PushCore
import PushFiles
import PushSystem
import PushWords

/// `--simulator DEVICE`: the notification as an `.apns` file, pushed by `xcrun simctl push`
/// (Xcode, macOS).
public enum SimulatorDelivery {
    /// A notification written to a private temporary folder, and `simctl`'s arguments to push it.
    public struct Staged: Sendable {
        public let folder: String
        public let file: String
        public let arguments: [String]
    }

    /// Writes the `.apns` file to a private temporary folder (under TMPDIR).
    public static func stage(_ notification: SimulatorNotification, device: String, environment: EnvironmentVariables) throws(InputError) -> Staged {
        let folder = try TemporaryFolder.make(prefix: "pushctl-simulator", environment: environment)
        let file = folder + "/notification.apns"
        try write(notification.fileContents, to: file)
        return Staged(folder: folder, file: file, arguments: notification.simctlArguments(device: device, file: file))
    }

    /// `xcrun simctl push DEVICE BUNDLE FILE`, then the staged file and folder removed.
    public static func push(_ staged: Staged, device: String, environment: EnvironmentVariables) throws(InputError) {
        defer {
            FileSystem.remove(staged.file)
            FileSystem.removeDirectory(staged.folder)
        }
        guard let xcrun = ExecutablePath.find("xcrun", environment: environment) else {
            throw InputError(RunInputProblem.xcrunMissing, kind: .unavailable)
        }
        let status = try ChildCommand.run(xcrun, staged.arguments)
        guard status == 0 else {
            throw InputError(RunInputProblem.simctlFailed(status: status, device: OutsideText.display(device, limit: 60)), kind: .unavailable)
        }
    }

    /// The `.apns` file at `path` (replaced if there).
    public static func write(_ text: String, to path: String) throws(InputError) {
        try OutputFiles.write(Array(text.utf8), to: path, .simulatorFile)
    }
}

/// Another program, run to its end.
public enum ChildCommand {
    /// Runs it with this process's streams; its exit status.
    public static func run(_ program: String, _ arguments: [String]) throws(InputError) -> Int32 {
        switch ChildProcesses.spawn(ChildSpec(program, arguments)) {
        case .success(let pid):
            return ChildProcesses.wait(pid).status
        case .failure(let failure):
            throw InputError(RunInputProblem.cannotRun(program: program, SystemError.code(failure.code)), kind: .unavailable)
        }
    }

    /// What a program prints on stdout (at most `limit` bytes; stderr dropped), or nil if it
    /// cannot start or fails. For small, quick questions, such as another program's help.
    public static func output(_ program: String, _ arguments: [String], limit: Int = 256 * 1024) -> String? {
        guard case .success(let run) = ChildProcesses.run(ChildSpec(program, arguments), limit: limit, seconds: 10),
            run.end == .exited(0), !run.truncated
        else { return nil }
        return String(decoding: run.output, as: UTF8.self)
    }
}

/// A private temporary folder (mode 0700) under TMPDIR.
enum TemporaryFolder {
    static func make(prefix: String, environment: EnvironmentVariables) throws(InputError) -> String {
        let base = environment["TMPDIR"].nonEmpty ?? "/tmp"
        guard let made = FileSystem.makeTemporaryFolder(pathPrefix: "\(base)/\(prefix)-") else {
            throw InputError(OutputProblem.noTemporaryFolder(folder: base, SystemError.code(Errno.current)), kind: .cannotCreateOutput)
        }
        return made
    }
}
