import PushCore
import PushEngine

/// The command that resumes a stopped journaled run, built by the command line from what it was
/// given: this run's arguments again with `--resume`, every secret given on the command line (a
/// JWT, a signer, a URL with credentials, a URI with a PIN) shown as the variable that would carry
/// it (`Redaction.commandLine`), so the hint, the annotation and the step summary show none of them.
public struct ResumeCommand {
    /// Nil when the run kept no journal (there is nothing to resume).
    public let text: String?

    public init(arguments: [String], journaled: Bool) {
        guard journaled, !arguments.isEmpty else {
            text = nil
            return
        }
        var words = arguments
        let resume = FlagNames.naming.name(.resume)
        if !arguments.contains(resume) { words.append(resume) }
        text = Redaction.commandLine(words, kinds: Setting.secretArguments(FlagNames.naming))
    }
}
