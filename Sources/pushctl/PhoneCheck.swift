import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

/// `send --app`: what the phone will do with the notification, judged against the app before
/// anything is sent. The app is read by `pushctl check` in its own executable (`pushctl-app`:
/// swift-syntax and Foundation's plist reader), so the sender links neither and reads nothing of
/// the app unless `--app` is given; it asks for the findings as JSON.
struct PhoneCheck {
    /// One finding as the child said it: its machine form (severity, field, code, parameters; the
    /// same in every language) and its words in the run's language.
    struct Finding {
        let severity: AppFindingSeverity
        let field: String
        let machine: JSONValue
        let message: String
        let fix: String
    }

    let findings: [Finding]
    /// The app's words for the alert, for the preview: title, subtitle, body (nil when none).
    let alert: (title: String?, subtitle: String?, body: String?)?
    let appName: String?

    var willFail: Bool { findings.contains { $0.severity == .willFail } }

    /// The findings' machine forms, for `--output json`'s summary and the journal.
    var machine: [JSONValue] { findings.map(\.machine) }

    /// The executable that reads apps.
    static let companion = "pushctl-app"
    /// At most this much of the child's answer is read.
    static let answerLimit = 1 << 20
    /// Reading a large app folder (thousands of Swift files) is bounded too.
    static let seconds = 60.0

    /// Asks `pushctl-app check` about `payload` sent as `pushType` to `environment`.
    static func run(
        app: String, payload: Payload, pushType: PushType, environment: APNsEnvironment?, locale: String?, language: Language
    ) throws -> PhoneCheck {
        guard let program = MockHandOver.locate(companion) else {
            throw InputError(
                Words(
                    "--app needs pushctl-app, which is not installed beside pushctl",
                    es: "--app necesita pushctl-app, que no está instalado junto a pushctl"),
                hint: Words(
                    "build it with `swift build --product pushctl-app`, or install them all with Scripts/install.sh",
                    es: "compílalo con `swift build --product pushctl-app`, o instálalos todos con Scripts/install.sh"),
                kind: .unavailable)
        }
        var arguments = ["check", "--app", app, "--output", "json", "--push-type", pushType.rawValue, "--lang", language.rawValue]
        if let environment { arguments.append(environment == .production ? "--production" : "--sandbox") }
        if let locale { arguments += ["--locale", locale] }
        arguments.append("-")
        var spec = ChildSpec(program, arguments)
        spec.ownProcessGroup = true
        guard
            case .success(let run) = ChildProcesses.run(
                spec, input: payload.bytes, limit: answerLimit, seconds: seconds, stopDescriptor: StopSignals.wakeDescriptor)
        else {
            throw InputError(Words("cannot run \(program)", es: "no se puede ejecutar \(program)"), kind: .unavailable)
        }
        let answer = try? JSONValue.parse(run.output)
        if case .exited(let status) = run.end, status == 64 || status == 66, !run.errors.isEmpty {
            // pushctl-app refused what it was given (an app path that is not there or not a folder):
            // its words, in the run's language already, and its exit status.
            for line in String(decoding: run.errors.prefix(4000), as: UTF8.self).split(separator: "\n").prefix(8) {
                Console.err(OutsideText.display(line, limit: 1000))
            }
            throw ExitCode(status)
        }
        guard case .exited(let status) = run.end, status == 0 || status == 65, let answer, case .array(let items)? = answer["findings"] else {
            let said = OutsideText.display(String(decoding: run.errors.prefix(4000), as: UTF8.self), limit: 1000)
            throw InputError(
                Words("--app: \(said.isEmpty ? "pushctl-app did not answer" : said)", es: "--app: \(said.isEmpty ? "pushctl-app no respondió" : said)"),
                kind: run.end == .exited(66) ? .missingInput : (run.end == .exited(64) ? .usage : .unavailable))
        }
        let findings = items.compactMap { item -> Finding? in
            guard let severity = item["severity"]?.stringValue.flatMap(AppFindingSeverity.init(rawValue:)) else { return nil }
            let machine = JSONValue.object((item.objectMembers ?? []).filter { !["message", "fix"].contains($0.0) })
            return Finding(
                severity: severity, field: item["field"]?.stringValue ?? "", machine: machine,
                message: item["message"]?.stringValue ?? "", fix: item["fix"]?.stringValue ?? "")
        }
        let alert = answer["alert"].map { ($0["title"]?.stringValue, $0["subtitle"]?.stringValue, $0["body"]?.stringValue) }
        return PhoneCheck(findings: findings, alert: alert, appName: answer["appName"]?.stringValue)
    }

    /// Each finding as the terminal shows it: the severity coloured, the field, the words, the fix.
    func lines() -> [(Console.Colour, Words, String)] {
        findings.map { finding in
            let colour: Console.Colour = finding.severity == .willFail ? .red : (finding.severity == .willLookWrong ? .yellow : .dim)
            let fix = finding.fix.isEmpty ? "" : "; " + finding.fix
            return (colour, finding.severity.words, OutsideText.display("\(finding.field): \(finding.message)\(fix)", limit: 2000))
        }
    }
}
