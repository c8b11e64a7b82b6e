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
            throw InputError(
                Words(
                    "xcrun is not on PATH: `\(Setting.simulator)` runs `xcrun simctl push`, which comes with Xcode on macOS",
                    es: "xcrun no está en el PATH: `\(Setting.simulator)` ejecuta `xcrun simctl push`, que viene con Xcode en macOS"),
                hint: Words(
                    "on macOS, install Xcode (xcode-select --install for the tools); elsewhere, write the file with \(Setting.simulatorFile) and drag it onto a Simulator",
                    es:
                        "en macOS, instala Xcode (xcode-select --install para las herramientas); en otro sistema, escribe el archivo con \(Setting.simulatorFile) y arrástralo al Simulador"
                ),
                kind: .unavailable)
        }
        let status = try ChildCommand.run(xcrun, staged.arguments)
        guard status == 0 else {
            throw InputError(
                Words(
                    "xcrun simctl push exited with \(status): is the Simulator '\(OutsideText.display(device, limit: 60))' booted, and the app installed on it?",
                    es:
                        "xcrun simctl push terminó con \(status): ¿está arrancado el Simulador '\(OutsideText.display(device, limit: 60))' y la app instalada en él?"
                ),
                hint: Words("xcrun simctl list devices booted shows the booted ones", es: "xcrun simctl list devices booted muestra los que están arrancados"),
                kind: .unavailable)
        }
    }

    /// The `.apns` file at `path` (replaced if there).
    public static func write(_ text: String, to path: String) throws(InputError) {
        let fd = Descriptors.openForWriting(path, .truncating)
        let bytes = Array(text.utf8)
        guard fd >= 0, FileOutput.writeAll(fd, bytes) == bytes.count else {
            let why = SystemError.reason(Errno.current)
            if fd >= 0 { Descriptors.close(fd) }
            throw InputError(
                Words(
                    "cannot write the Simulator file '\(OutsideText.display(path, limit: 200))': \(why)",
                    es: "no se puede escribir el archivo del Simulador '\(OutsideText.display(path, limit: 200))': \(why)"),
                kind: .cannotCreateOutput)
        }
        Descriptors.close(fd)
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
            throw InputError(
                Words(
                    "cannot run \(program): \(SystemError.reason(failure.code))",
                    es: "no se puede ejecutar \(program): \(SystemError.reason(failure.code))"),
                kind: .unavailable)
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
            let reason = SystemError.reason(Errno.current)
            throw InputError(
                Words(
                    "cannot make a temporary folder in \(base): \(reason)",
                    es: "no se puede crear una carpeta temporal en \(base): \(reason)"),
                hint: Words("set TMPDIR to a writable folder", es: "indica en TMPDIR una carpeta con permiso de escritura"),
                kind: .cannotCreateOutput)
        }
        return made
    }
}
