import PushCore
import PushEngine
import PushFiles
import PushWords
import PushctlCommandLine

/// `send --simulator-file PATH` and `send --simulator UDID|booted`: the notification the other flags
/// describe, checked as for APNs (size, push type, lint), for the iOS Simulator instead — the
/// quickest test a developer has, with no Apple account, key or device.
enum SimulatorRun {
    static func run(_ c: SendCommand, env: EnvironmentVariables) throws {
        guard let topic = c.topic ?? env["PUSHCTL_TOPIC"].nonEmpty else {
            throw InputError(
                Words(
                    "the Simulator needs the app's bundle id: give --topic (or PUSHCTL_TOPIC), e.g. com.example.app",
                    es: "el Simulador necesita el bundle id de la app: indica --topic (o PUSHCTL_TOPIC), p. ej. com.example.app"),
                kind: .usage)
        }
        let now = WallClock.now()
        let (payload, _) = try SendSetup.payload(c.payloadInput, now: now, naming: FlagNames.naming)
        let (pushType, priority, expiration) = try c.headerFields()
        var spec = PushSpec(
            topic: topic, pushType: pushType, priority: priority, collapseID: c.collapseId, expiration: expiration, apnsID: c.apnsId,
            name: SendCommand.flagName)
        spec.lint = !c.noLint
        spec.now = now
        let template = try PushTemplate(spec, payload: payload)
        if !c.quiet { template.warnings(sending: 1).map(\.words).forEach(Console.warn) }
        if !c.deviceTokens.isEmpty && !c.quiet {
            Console.warn(
                Words(
                    "the Simulator needs no device token; --device-token is not used",
                    es: "el Simulador no necesita token del dispositivo; --device-token no se usa"))
        }
        let notification = SimulatorNotification(template)
        if let path = c.simulatorFile {
            try SimulatorDelivery.write(notification.fileContents, to: path)
            if !c.quiet {
                Console.say(
                    Words(
                        "wrote \(path) for \(notification.bundleID): drag it onto a Simulator window, or run: xcrun simctl push booted \(notification.bundleID) \(DryRun.quoted(path))",
                        es:
                            "escrito \(path) para \(notification.bundleID): arrástralo a una ventana del Simulador, o ejecuta: xcrun simctl push booted \(notification.bundleID) \(DryRun.quoted(path))"
                    ))
            }
        }
        if let device = c.simulator {
            let staged = try SimulatorDelivery.stage(notification, device: device, environment: env)
            if c.dryRun {
                Console.out((["xcrun"] + staged.arguments).map(DryRun.quoted).joined(separator: " "))
                return
            }
            try SimulatorDelivery.push(staged, device: device, environment: env)
            if !c.quiet { Console.say(Words("pushed to the Simulator \(device)", es: "enviada al Simulador \(device)")) }
        }
    }
}
