public import PushCore
import PushFiles
public import PushWords

extension BatchSummary {
    /// What a person is told after the summary line: how to resume a stopped run (or to journal
    /// the next one), the in-doubt ones a resume sends again, tokens of the other environment,
    /// and why nothing connected. `journalable` is false for a run that cannot keep a journal (a
    /// followed stream, read once): it is not told to use one.
    public func advice(resumeCommand: String?, journalable: Bool = true, environment: APNsEnvironment?, endpoint: String?) -> [Words] {
        var out: [Words] = []
        if stoppedBy != nil {
            if let command = resumeCommand {
                out.append(
                    Words("\(notSent + inDoubt) not answered; resume with: \(command)", es: "\(notSent + inDoubt) sin respuesta; para reanudar: \(command)"))
                let variables = Redaction.variables(in: command)
                if !variables.isEmpty {
                    let names = variables.joined(separator: ", ")
                    out.append(
                        Words(
                            "first set \(names) to what this run was given: secrets stay off the command line",
                            es: "antes define \(names) con lo que recibió este envío: los secretos no van en la línea de órdenes"))
                }
                if inDoubt > 0 {
                    out.append(
                        Words(
                            "the \(inDoubt) in doubt are sent again (APNs may already have them: a device could get one twice); add \(Setting.skipInDoubt) to leave them out",
                            es:
                                "las \(inDoubt) en duda se vuelven a enviar (puede que APNs ya las tenga: un dispositivo podría recibir alguna dos veces); añade \(Setting.skipInDoubt) para dejarlas fuera"
                        ))
                }
            } else if journalable {
                out.append(
                    Words(
                        "run with \(Setting.journal) PATH next time, and a stopped run can be resumed without sending anything twice",
                        es: "la próxima vez usa \(Setting.journal) RUTA y podrás reanudar un envío detenido sin enviar nada dos veces"))
            }
        }
        if movedToOtherEnvironment > 0, let environment {
            let (other, flag) = environment == .sandbox ? ("production", Setting.production) : ("sandbox", Setting.sandbox)
            let n = movedToOtherEnvironment
            out.append(
                Words(
                    "\(n) \(n == 1 ? "token belongs" : "tokens belong") to \(other): send \(n == 1 ? "it" : "them") with \(flag)",
                    es: "\(n) \(n == 1 ? "token es" : "tokens son") de \(other): \(n == 1 ? "envíalo" : "envíalos") con \(flag)"))
        }
        if let cause = unreachableCause { out.append(cause.hint(endpoint: endpoint)) }
        return out
    }
}

extension JobReport {
    /// Under GitHub Actions: the Markdown appended to GITHUB_STEP_SUMMARY (`warn` when it cannot
    /// be), and with GITHUB_ACTIONS=true the annotations as workflow commands (`annotate`: GitHub
    /// reads stderr as well as stdout, and stdout stays the results).
    public func publish(_ env: EnvironmentVariables, warn: (Words) -> Void, annotate: (String) -> Void) {
        if let path = env["GITHUB_STEP_SUMMARY"].nonEmpty {
            do throws(InputError) { try appendMarkdown(to: path) } catch { warn(error.words) }
        }
        if env["GITHUB_ACTIONS"] == "true" { annotations.forEach(annotate) }
    }
}

extension RunMetrics {
    /// The metrics file written (not written: an output error, 73) and pushed to a Pushgateway
    /// (not taken: `warn`, the run's result stands).
    public func publish(file: String?, gateway: String?, warn: (Words) -> Void) throws(InputError) {
        if let gateway, let problem = push(to: gateway) { warn(problem) }
        if let file { try write(to: file) }
    }
}
