public import PushCore

/// The command that resumes a stopped journaled run: this one's arguments again with `--resume`,
/// every secret it was given on the command line (a JWT, a signer, a URL with credentials, a URI
/// with a PIN) shown as the variable that would carry it (`Redaction.commandLine`), so the hint, the
/// annotation and the step summary show none of them.
public struct ResumeCommand {
    /// Nil when the run kept no journal (there is nothing to resume).
    public let text: String?

    /// `naming`: how the program spells its settings (pushctl: its flags), as the arguments do.
    public init(arguments: [String], journaled: Bool, naming: SettingNaming = .plain) {
        guard journaled, !arguments.isEmpty else {
            text = nil
            return
        }
        var words = arguments
        let resume = naming.name(.resume)
        if !arguments.contains(resume) { words.append(resume) }
        text = Redaction.commandLine(words, kinds: Setting.secretArguments(naming))
    }

    /// The variables a shown command line stands its secrets in for (`"$PUSHCTL_JWT"`), in order, once each.
    public static func variables(in command: String) -> [String] {
        var found: [String] = []
        var rest = Substring(command)
        while let start = rest.firstRange(of: "\"$") {
            let name = rest[start.upperBound...].prefix { $0 == "_" || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") }
            if !name.isEmpty, !found.contains(String(name)) { found.append(String(name)) }
            rest = rest[start.upperBound...]
        }
        return found
    }
}
