import ArgumentParser
import PushctlCommandLine

/// The local APNs and the narrated demo, in their own executable so that the sender carries no
/// server. `pushctl mock …` and `pushctl demo …` run this as `pushctl-mock mock …` and
/// `pushctl-mock demo …`; help and errors read as pushctl's.
@main
struct PushctlMock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushctl",
        abstract: "pushctl's local APNs (mock) and offline walk-through (demo); pushctl runs this for `pushctl mock` and `pushctl demo`.",
        version: PushctlVersion.current,
        subcommands: [MockCommand.self, DemoCommand.self],
        defaultSubcommand: MockCommand.self
    )

    static func main() {
        answerVersionIfAsked()
        LanguageSetting.apply()
        runReportingParseMistakes(PushctlMock.self)
    }
}
