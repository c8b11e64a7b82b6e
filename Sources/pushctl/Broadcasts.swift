import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

/// How results of calls that are not for a device are shown on a terminal's stream.
enum CallOutput {
    static func line(_ r: PushResult, on fd: Int32 = Descriptors.standardOutput) -> String {
        ResultRenderer.line(
            for: r,
            style: TextResultStyle(
                colour: Console.useColour(on: fd), width: Console.width(of: fd), language: LanguageSetting.language, naming: FlagNames.naming))
    }

    /// json's explanations: English unless the user chose a language.
    static var jsonLanguage: Language { LanguageSetting.jsonLanguage }
}

/// `send --channel-id ID …`: one broadcast, POSTed to each channel, as the engine's plan.
enum BroadcastRun {
    static func run(_ c: SendCommand, env: EnvironmentVariables) throws {
        var o = try c.options(broadcast: true)
        (o.channelIDs, o.requestID) = (c.channelIds, c.requestId)
        let setup = try BroadcastSetup(o)
        if !c.quiet { setup.warnings.forEach(Console.warn) }
        if c.dryRun { return setup.dryRunLines.forEach(Console.out) }
        let plan = setup.plan
        // The results as a device send writes them: one renderer, one shape of result.
        let renderer = ResultRenderer(
            format: c.output, sink: StandardOutput.shared, quiet: c.quiet,
            style: TextResultStyle(
                colour: Console.useColour(on: Descriptors.standardOutput), width: Console.width(of: Descriptors.standardOutput),
                language: LanguageSetting.language, naming: FlagNames.naming),
            jsonLanguage: CallOutput.jsonLanguage)
        let shown = ClosureObserver { result in
            renderer.render(result)
            if c.output == .text { renderer.flush() }
        }
        let summary = try SendRun(plan: plan).run(
            observers: [shown] + (c.quiet ? [] : [StopNotice()]), stop: SignalStop(),
            grace: min(SendCommand.stopGrace, c.timeout))
        let status: Int32 = summary.stoppedBy.map(SignalStop.exitStatus) ?? ExitStatus(summary.outcome).rawValue
        renderer.finish(summary, exitStatus: status)
        if !c.quiet { Console.say(summary.line) }
        if status != 0 { throw ExitCode(status) }
    }
}
