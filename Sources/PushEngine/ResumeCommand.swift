import PushCore

/// The command that resumes a stopped journaled run: this one's arguments again with `--resume`,
/// every secret it was given on the command line (a JWT, a signer, a URL with credentials, a URI
/// with a PIN) shown as the variable that would carry it (`Redaction.commandLine`), so the hint, the
/// annotation and the step summary show none of them.
public struct ResumeCommand {
    /// Nil when the run kept no journal (there is nothing to resume).
    public let text: String?

    public init(arguments: [String], journaled: Bool) {
        guard journaled, !arguments.isEmpty else {
            text = nil
            return
        }
        var words = arguments
        if !arguments.contains("\(Setting.resume)") { words.append("\(Setting.resume)") }
        text = Redaction.commandLine(words, kinds: Setting.secretArguments)
    }
}
