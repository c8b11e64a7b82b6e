import ArgumentParser
import PushctlCommandLine

/// What the phone will do with a notification, read from the app it is for, in its own executable
/// so that the sender links no swift-syntax: `pushctl check …` runs this as `pushctl-app check …`.
@main
struct PushctlApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushctl",
        abstract: "pushctl's app check: what the phone will do with a payload; pushctl runs this for `pushctl check`.",
        version: PushctlVersion.current,
        subcommands: [CheckCommand.self],
        defaultSubcommand: CheckCommand.self
    )

    static func main() {
        answerVersionIfAsked()
        LanguageSetting.apply()
        runReportingParseMistakes(PushctlApp.self)
    }
}
