import ArgumentParser
import PushctlSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushCore
import PushFiles
import PushEngine

/// `send --simulator-file PATH` and `send --simulator UDID|booted`: the notification the other flags
/// describe, checked as for APNs (size, push type, lint), for the iOS Simulator instead — the
/// quickest test a developer has, with no Apple account, key or device.
enum SimulatorRun {
    static func run(_ c: SendCommand, env: EnvironmentVariables) throws {
        guard let topic = c.topic ?? env["PUSHCTL_TOPIC"].nonEmpty else {
            throw InputError(Words("the Simulator needs the app's bundle id: give --topic (or PUSHCTL_TOPIC), e.g. com.example.app",
                                   es: "el Simulador necesita el bundle id de la app: indica --topic (o PUSHCTL_TOPIC), p. ej. com.example.app"),
                             kind: .usage)
        }
        let now = WallClock.now()
        let (payload, _) = try SendRequest.payload(c, now: now)
        var spec = PushSpec(topic: topic, pushType: c.effectivePushType, priority: c.priority.map(GivenNumber.text), collapseID: c.collapseId,
                            expiration: c.expiration.map(GivenNumber.text), apnsID: c.apnsId, name: { "--" + $0.rawValue })
        spec.lint = !c.noLint
        spec.now = now
        let template = try PushTemplate(spec, payload: payload)
        if !c.quiet { template.warnings(sending: 1).forEach(Console.warn) }
        if !c.deviceTokens.isEmpty && !c.quiet {
            Console.warn(Words("the Simulator needs no device token; --device-token is not used",
                               es: "el Simulador no necesita token del dispositivo; --device-token no se usa"))
        }
        let notification = SimulatorNotification(template)
        if let path = c.simulatorFile {
            try write(notification.fileContents, to: path)
            if !c.quiet {
                Console.say(Words("wrote \(path) for \(notification.bundleID): drag it onto a Simulator window, or run: xcrun simctl push booted \(notification.bundleID) \(DryRun.quoted(path))",
                                  es: "escrito \(path) para \(notification.bundleID): arrástralo a una ventana del Simulador, o ejecuta: xcrun simctl push booted \(notification.bundleID) \(DryRun.quoted(path))"))
            }
        }
        if let device = c.simulator { try push(notification, to: device, dryRun: c.dryRun, quiet: c.quiet) }
    }

    /// `xcrun simctl push DEVICE BUNDLE FILE`, the file written to a private temporary folder.
    static func push(_ notification: SimulatorNotification, to device: String, dryRun: Bool, quiet: Bool) throws {
        let folder = try TemporaryFolder.make(prefix: "pushctl-simulator")
        let file = folder + "/notification.apns"
        try write(notification.fileContents, to: file)
        let arguments = notification.simctlArguments(device: device, file: file)
        if dryRun {
            Console.out((["xcrun"] + arguments).map(DryRun.quoted).joined(separator: " "))
            return
        }
        guard let xcrun = ExecutablePath.find("xcrun", environment: Console.environment) else {
            throw InputError(Words("xcrun is not on PATH: `--simulator` runs `xcrun simctl push`, which comes with Xcode on macOS",
                                   es: "xcrun no está en el PATH: `--simulator` ejecuta `xcrun simctl push`, que viene con Xcode en macOS"),
                             hint: Words("on macOS, install Xcode (xcode-select --install for the tools); elsewhere, write the file with --simulator-file and drag it onto a Simulator",
                                         es: "en macOS, instala Xcode (xcode-select --install para las herramientas); en otro sistema, escribe el archivo con --simulator-file y arrástralo al Simulador"),
                             kind: .unavailable)
        }
        let status = try ChildCommand.run(xcrun, arguments)
        unlink(file)
        rmdir(folder)
        guard status == 0 else {
            throw InputError(Words("xcrun simctl push exited with \(status): is the Simulator '\(OutsideText.display(device, limit: 60))' booted, and the app installed on it?",
                                   es: "xcrun simctl push terminó con \(status): ¿está arrancado el Simulador '\(OutsideText.display(device, limit: 60))' y la app instalada en él?"),
                             hint: Words("xcrun simctl list devices booted shows the booted ones", es: "xcrun simctl list devices booted muestra los que están arrancados"),
                             kind: .unavailable)
        }
        if !quiet { Console.say(Words("pushed to the Simulator \(device)", es: "enviada al Simulador \(device)")) }
    }

    static func write(_ text: String, to path: String) throws(InputError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let bytes = Array(text.utf8)
        guard fd >= 0, FileOutput.writeAll(fd, bytes) == bytes.count else {
            let why = SystemError.reason(errno)
            if fd >= 0 { close(fd) }
            throw InputError(Words("cannot write the Simulator file '\(OutsideText.display(path, limit: 200))': \(why.en)",
                                   es: "no se puede escribir el archivo del Simulador '\(OutsideText.display(path, limit: 200))': \(why.es)"),
                             kind: .cannotCreateOutput)
        }
        close(fd)
    }
}

/// A program found on PATH, as a shell would.
enum ExecutablePath {
    static func find(_ name: String, environment: EnvironmentVariables) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let path = "\(folder)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}

/// Runs a program to its end with this process's streams; its exit status.
enum ChildCommand {
    static func run(_ program: String, _ arguments: [String]) throws(InputError) -> Int32 {
        let (code, pid) = spawn(program, arguments, actions: nil)
        guard code == 0 else {
            throw InputError(Words("cannot run \(program): \(SystemError.reason(code).en)", es: "no se puede ejecutar \(program): \(SystemError.reason(code).es)"),
                             kind: .unavailable)
        }
        return exitStatus(of: pid)
    }

    /// posix_spawn with the arguments as C strings: its error code (0 when started) and the pid.
    private static func spawn(_ program: String, _ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?) -> (Int32, pid_t) {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        return (posix_spawn(&pid, program, actions, nil, argv, environ), pid)
    }

    /// Waits for the child: its exit status, or 128 + the signal that ended it.
    private static func exitStatus(of pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

extension ChildCommand {
    /// What a program prints on stdout (at most `limit` bytes; stderr dropped), or nil if it
    /// cannot start or fails. For small, quick questions, such as another program's help.
    static func output(_ program: String, _ arguments: [String], limit: Int = 256 * 1024) -> String? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let (code, pid) = spawn(program, arguments, actions: &actions)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard code == 0 else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < limit {
            let n = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        if bytes.count >= limit { kill(pid, SIGKILL) }
        return exitStatus(of: pid) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }
}

/// A private temporary folder (mode 0700) under TMPDIR.
enum TemporaryFolder {
    static func make(prefix: String) throws(InputError) -> String {
        let base = Console.environment["TMPDIR"].nonEmpty ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            let reason = SystemError.reason(errno)
            throw InputError(Words("cannot make a temporary folder in \(base): \(reason.en)",
                                   es: "no se puede crear una carpeta temporal en \(base): \(reason.es)"),
                             hint: Words("set TMPDIR to a writable folder", es: "indica en TMPDIR una carpeta con permiso de escritura"),
                             kind: .cannotCreateOutput)
        }
        return String(cString: made)
    }
}
