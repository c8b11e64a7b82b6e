import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushctlCommandLine

@main
struct Pushctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushctl",
        abstract: "An APNs provider on the command line: signs ES256 JWTs and sends push notifications over HTTP/2.",
        discussion: """
            Examples:
              pushctl demo                      # the whole flow, offline, narrated
              pushctl send --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ \\
                --topic com.example.app --device-token "$TOKEN" --title Hello
              pushctl jwt --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ --explain
              pushctl mock --port 8443 --ca-out mock-ca.pem
              pushctl doctor                    # why sending fails on this machine
              pushctl report journal-*.jsonl    # a fleet's shards as one run

            Exit status: 0 accepted, 1 rejected by APNs, 64 usage, 65 bad input (nothing
            sent), 66 missing input file, 69 APNs unreachable, 73 output file not created,
            74 results not written (stdout closed), 75 retries exhausted or the journal
            held by another run.
            """,
        version: PushctlVersion.current,
        subcommands: [
            SendCommand.self, ReportCommand.self, JWTCommand.self, KeyCommand.self, CertCommand.self, ChannelCommand.self, DoctorCommand.self, MockCommand.self,
            DemoCommand.self, CheckCommand.self,
        ]
    )
    @OptionGroup var language: LanguageOption

    static func main() {
        answerVersionIfAsked()
        // A key's PEM (and the cache's key) leave the environment first: no child gets them (the
        // mock handed over to, a signer, xcrun), and pushctl still reads them from memory.
        ProcessEnvironment.keepPrivate(Setting.secretVariables)
        MockHandOver.handOverIfAsked()
        LanguageSetting.apply()
        EnvironmentCheck.warnAboutVariables()
        CommandArguments.warnAboutSecrets().forEach(Console.warn)
        runReportingParseMistakes(Pushctl.self)
    }
}
