import PushCore

/// The command that resumes a stopped journaled run: this one's arguments again with `--resume`,
/// the secrets it was given on the command line (a JWT, a proxy URL with a password) replaced by
/// their variables, so the hint shows none of them.
public struct ResumeCommand {
    /// Nil when the run kept no journal (there is nothing to resume).
    public let text: String?

    public init(arguments: [String], journaled: Bool) {
        guard journaled, let program = arguments.first else {
            text = nil
            return
        }
        let jwt = "\(Setting.jwt)"
        let proxy = "\(Setting.proxy)"
        let jwtVariable = "\"$\(Setting.jwt.variable ?? "")\""
        let proxyVariable = "\"$\(Setting.proxy.variable ?? "")\""
        var words = [program]
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            if argument == jwt || (argument == proxy && value?.contains("@") == true) {
                words += [argument, argument == jwt ? jwtVariable : proxyVariable]
                index += 2
                continue
            }
            if argument.hasPrefix(jwt + "=") {
                words.append(jwt + "=" + jwtVariable)
            } else if argument.hasPrefix(proxy + "="), argument.contains("@") {
                words.append(proxy + "=" + proxyVariable)
            } else {
                words.append(DryRun.quoted(argument))
            }
            index += 1
        }
        if !arguments.contains("\(Setting.resume)") { words.append("\(Setting.resume)") }
        text = words.joined(separator: " ")
    }
}
