import ArgumentParser
import PushctlSupport
import PushSystem
import PushCore
import PushWords
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
        let (payload, _) = try SendSetup.payload(c.payloadInput, now: now)
        var spec = PushSpec(topic: topic, pushType: c.effectivePushType, priority: c.priority.map(GivenNumber.text), collapseID: c.collapseId,
                            expiration: c.expiration.map(GivenNumber.text), apnsID: c.apnsId, name: { "--" + $0.rawValue })
        spec.lint = !c.noLint
        spec.now = now
        let template = try PushTemplate(spec, payload: payload)
        if !c.quiet { template.warnings(sending: 1).map(\.words).forEach(Console.warn) }
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
        FileSystem.remove(file)
        FileSystem.removeDirectory(folder)
        guard status == 0 else {
            throw InputError(Words("xcrun simctl push exited with \(status): is the Simulator '\(OutsideText.display(device, limit: 60))' booted, and the app installed on it?",
                                   es: "xcrun simctl push terminó con \(status): ¿está arrancado el Simulador '\(OutsideText.display(device, limit: 60))' y la app instalada en él?"),
                             hint: Words("xcrun simctl list devices booted shows the booted ones", es: "xcrun simctl list devices booted muestra los que están arrancados"),
                             kind: .unavailable)
        }
        if !quiet { Console.say(Words("pushed to the Simulator \(device)", es: "enviada al Simulador \(device)")) }
    }

    static func write(_ text: String, to path: String) throws(InputError) {
        let fd = Descriptors.openForWriting(path, .truncating)
        let bytes = Array(text.utf8)
        guard fd >= 0, FileOutput.writeAll(fd, bytes) == bytes.count else {
            let why = SystemError.reason(Errno.current)
            if fd >= 0 { Descriptors.close(fd) }
            throw InputError(Words("cannot write the Simulator file '\(OutsideText.display(path, limit: 200))': \(why.en)",
                                   es: "no se puede escribir el archivo del Simulador '\(OutsideText.display(path, limit: 200))': \(why.es)"),
                             kind: .cannotCreateOutput)
        }
        Descriptors.close(fd)
    }
}

/// Runs a program to its end with this process's streams; its exit status.
enum ChildCommand {
    static func run(_ program: String, _ arguments: [String]) throws(InputError) -> Int32 {
        switch ChildProcesses.spawn(ChildSpec(program, arguments)) {
        case let .success(pid):
            return ChildProcesses.wait(pid).status
        case let .failure(failure):
            throw InputError(Words("cannot run \(program): \(SystemError.reason(failure.code).en)", es: "no se puede ejecutar \(program): \(SystemError.reason(failure.code).es)"),
                             kind: .unavailable)
        }
    }

    /// What a program prints on stdout (at most `limit` bytes; stderr dropped), or nil if it
    /// cannot start or fails. For small, quick questions, such as another program's help.
    static func output(_ program: String, _ arguments: [String], limit: Int = 256 * 1024) -> String? {
        guard case let .success(run) = ChildProcesses.run(ChildSpec(program, arguments), limit: limit, seconds: 10),
              run.end == .exited(0), !run.truncated else { return nil }
        return String(decoding: run.output, as: UTF8.self)
    }
}

/// A private temporary folder (mode 0700) under TMPDIR.
enum TemporaryFolder {
    static func make(prefix: String) throws(InputError) -> String {
        let base = Console.environment["TMPDIR"].nonEmpty ?? "/tmp"
        guard let made = FileSystem.makeTemporaryFolder(pathPrefix: "\(base)/\(prefix)-") else {
            let reason = SystemError.reason(Errno.current)
            throw InputError(Words("cannot make a temporary folder in \(base): \(reason.en)",
                                   es: "no se puede crear una carpeta temporal en \(base): \(reason.es)"),
                             hint: Words("set TMPDIR to a writable folder", es: "indica en TMPDIR una carpeta con permiso de escritura"),
                             kind: .cannotCreateOutput)
        }
        return made
    }
}
