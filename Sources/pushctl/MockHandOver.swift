import ArgumentParser
import PushEngine
import PushFiles
import PushSystem
import PushWords
import PushctlCommandLine

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `pushctl mock` and `pushctl demo` run the local APNs, which lives in its own executable,
/// `pushctl-mock`, so that the sender CI installs carries no server (no SwiftNIO, no BoringSSL):
/// a smaller binary, a faster build and a faster start. `pushctl check` reads the app with
/// swift-syntax and Foundation, in `pushctl-app`, for the same reasons. pushctl hands those
/// commands over with exec, so arguments, signals (Ctrl-C), output and the exit status are the
/// companion's own.
enum MockHandOver {
    /// Each companion executable and the commands it runs.
    static let companions: [(executable: String, commands: Set<String>)] = [("pushctl-mock", ["mock", "demo"]), ("pushctl-app", ["check"])]

    /// The companion that runs `command`.
    static func companion(for command: String) -> String? { companions.first { $0.commands.contains(command) }?.executable }

    /// Called first thing: `pushctl mock …` or `pushctl demo …` becomes `pushctl-mock mock …`.
    static func handOverIfAsked() {
        guard let arguments = mockArguments(Array(CommandLine.arguments.dropFirst())), let command = arguments.first,
            let executable = companion(for: command)
        else { return }
        guard let path = locate(executable) else {
            Console.error(
                Words(
                    "`pushctl \(command)` runs \(executable), which is not installed beside pushctl (looked in \(ownDirectory ?? "pushctl's folder") and on PATH); build it with `swift build --product \(executable)` or install them all with Scripts/install.sh",
                    es:
                        "`pushctl \(command)` ejecuta \(executable), que no está instalado junto a pushctl (se buscó en \(ownDirectory ?? "la carpeta de pushctl") y en el PATH); compílalo con `swift build --product \(executable)` o instálalos todos con Scripts/install.sh"
                ))
            CurrentProcess.exit(ExitStatus.unavailable.rawValue)
        }
        CurrentProcess.replace(with: path, arguments: arguments)
        let reason = SystemError.reason(Errno.current)
        Console.error(Words("could not run \(path): \(reason)", es: "no se pudo ejecutar \(path): \(reason)"))
        CurrentProcess.exit(ExitStatus.unavailable.rawValue)
    }

    /// The command line pushctl-mock gets for `mock …` or `demo …`, or nil for any other command.
    /// pushctl's own `--lang` may come first (`pushctl --lang es demo`, a class's first command):
    /// it moves after the command, where pushctl-mock reads it (before it, pushctl-mock would take
    /// `demo` for an argument of its default command, the mock).
    static func mockArguments(_ arguments: [String]) -> [String]? {
        var leading: [String] = []
        var rest = arguments[...]
        while let option = LanguageSetting.option(at: rest), option.value != nil {
            leading += rest.prefix(option.width)
            rest = rest.dropFirst(option.width)
        }
        guard let command = rest.first, companion(for: command) != nil else { return nil }
        return [command] + leading + rest.dropFirst()
    }

    /// The folder pushctl itself runs from (symlinks resolved).
    static var ownDirectory: String? {
        guard let exe = CurrentProcess.executablePath else {
            return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        }
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }

    /// The options of `pushctl-mock COMMAND` (or `pushctl-app COMMAND`), read from its help (for shell completion).
    static func options(of command: String) -> [String] {
        guard let executable = companion(for: command), let path = locate(executable), let help = ChildCommand.output(path, [command, "--help"]) else {
            return []
        }
        return KnownOptions(help: help).names.filter { $0.hasPrefix("--") && $0 != "--help" }.sorted()
    }

    /// Beside pushctl first (a build folder, an install prefix), then on PATH.
    static func locate(_ executable: String) -> String? {
        var candidates: [String] = []
        if let dir = ownDirectory { candidates.append(dir + "/" + executable) }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") where !dir.isEmpty {
            candidates.append(String(dir) + "/" + executable)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// `pushctl mock` in `pushctl --help` and the completions; running it hands over to pushctl-mock
/// before argument parsing (see `MockHandOver`), so this body runs only if that did not happen.
struct MockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Run a strict local APNs over TLS + HTTP/2 (runs pushctl-mock; `pushctl mock --help` for its options).")

    // Completion asks pushctl-mock for its options, so they complete in every shell.
    @Argument(parsing: .captureForPassthrough, completion: .custom { _, _, _ in MockHandOver.options(of: "mock") })
    var arguments: [String] = []

    func run() throws { MockHandOver.handOverIfAsked() }
}

/// `pushctl check`, handed over to pushctl-app like `mock` to pushctl-mock: the sender links no
/// swift-syntax, and reads nothing of an app unless asked.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a payload against the app it is for: what the phone will do with it; sends nothing (runs pushctl-app).")

    @Argument(
        parsing: .captureForPassthrough, help: ArgumentHelp("--app PATH [payload.json] and the options `pushctl check --help` lists.", valueName: "arguments"),
        completion: .custom { _, _, _ in MockHandOver.options(of: "check") })
    var arguments: [String] = []

    func run() throws { MockHandOver.handOverIfAsked() }
}

/// `pushctl demo`, handed over to pushctl-mock like `mock`.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk through the whole flow offline: key, JWT, HTTP/2 request, APNs' answers (runs pushctl-mock).")

    @Argument(parsing: .captureForPassthrough, completion: .custom { _, _, _ in MockHandOver.options(of: "demo") })
    var arguments: [String] = []

    func run() throws { MockHandOver.handOverIfAsked() }
}
