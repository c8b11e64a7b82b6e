import ArgumentParser
import PushApp
import PushCore
import PushFiles
import PushSystem
import PushWords
import PushctlCommandLine

/// `check --app PATH [payload.json]`: with a payload, what the phone will do with it (exit 65 if
/// it will fail there); without one, what pushctl found in the app.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a payload against the app it is for: what the phone will do with it; sends nothing.",
        discussion: """
            Reads the app's String Catalogs and Localizable strings, Info.plist, entitlements, Notification Service \
            Extensions, sounds and ActivityAttributes types (parsed with swift-syntax). Without a payload, lists what it found. \
            Exit 65 if the phone would fail on the payload, 0 otherwise.
            """)

    @Option(
        help: ArgumentHelp("The app's source folder (an Xcode project's) or a built .app (env PUSHCTL_APP).", valueName: "path"),
        completion: .directory)
    var app: String?

    @Argument(
        help: ArgumentHelp("The payload JSON file, or - for stdin; without it, lists what the app has.", valueName: "payload.json"),
        completion: .file(extensions: ["json"]))
    var payload: String?

    @Option(help: ArgumentHelp("The language the alert is read in, e.g. es or pt-BR (default: the app's development region).", valueName: "locale"))
    var locale: String?

    @Option(help: ArgumentHelp("apns-push-type (default: what the payload implies).", valueName: "type"))
    var pushType: String?

    @Flag(help: "It will be sent to the sandbox (development): checked against aps-environment.") var sandbox = false
    @Flag(help: "It will be sent to production: checked against aps-environment.") var production = false

    @Option(help: ArgumentHelp("text (default) or json.", valueName: "format")) var output: CheckOutput = .text

    @OptionGroup var language: LanguageOption

    func validate() throws {
        if sandbox && production {
            throw ValidationError(Words("--sandbox and --production contradict each other", es: "--sandbox y --production se contradicen"))
        }
        if let pushType, PushType(rawValue: pushType) == nil {
            throw ValidationError(
                Words(
                    "--push-type \(OutsideText.display(pushType, limit: 40)) is not one of \(PushType.allCases.map(\.rawValue).joined(separator: ", "))",
                    es: "--push-type \(OutsideText.display(pushType, limit: 40)) no es uno de \(PushType.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
    }

    func run() throws { try reportingErrors(check) }

    func check() throws {
        let (words, _) = try LanguageSetting.resolve(arguments: Array(CommandLine.arguments.dropFirst()), environment: Console.environment)
        guard let path = app ?? Console.environment["PUSHCTL_APP"].nonEmpty else {
            throw InputError(
                Words("check needs the app: --app PATH (or PUSHCTL_APP)", es: "check necesita la app: --app RUTA (o PUSHCTL_APP)"),
                hint: Words("give the app's source folder or a built .app", es: "indica la carpeta del código de la app o una .app compilada"), kind: .usage)
        }
        let profile = try AppReader().read(path)
        guard let payload else {
            if output == .json { Console.out(AppListing.json(profile).pretty) } else { Self.printWrapped(AppListing.text(profile, in: words)) }
            return
        }
        // Read and parsed as send reads a payload file, with the same words for what is wrong.
        let value = try Payload(bytes: try InputFiles.read(payload, what: .payloadFile), source: payload).json
        let options = AppCheck.Options(
            pushType: pushType.flatMap(PushType.init(rawValue:)), locale: locale, environment: sandbox ? .sandbox : production ? .production : nil)
        let findings = AppCheck(app: profile).findings(for: value, options: options)
        switch output {
        case .json:
            // The alert in the app's words, for a preview (send --dry-run --app lays it out).
            let alert = NotificationPreview.alertText(payload: value) { key, arguments in profile.text(key: key, arguments: arguments, locale: locale) }
            var json = AppListing.json(findings, profile: profile, locale: profile.locale(locale), in: words)
            if case .object(var members) = json {
                members.append(("appName", profile.displayName.map(JSONValue.string) ?? .null))
                if let alert {
                    members.append(
                        (
                            "alert",
                            .object(
                                [("title", alert.title), ("subtitle", alert.subtitle), ("body", alert.body)].map { ($0.0, $0.1.map(JSONValue.string) ?? .null) }
                            )
                        ))
                }
                json = .object(members)
            }
            Console.out(json.pretty)
        case .text: Self.printWrapped(AppListing.text(findings, in: words))
        }
        if findings.contains(where: { $0.severity == .willFail }) { throw ExitCode(ExitStatus.dataError.rawValue) }
    }

    /// Text for people, each line wrapped to the terminal (a log or a pipe keeps whole lines).
    static func printWrapped(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            Console.wrapped(String(line), fitting: Descriptors.standardOutput).forEach(Console.out)
        }
    }
}

enum CheckOutput: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
