public import PushCore

// A run's journal: who holds it, and what is wrong with taking, reading or writing it.

extension JournalHolder {
    /// "pid 1234 on ci-runner-7, since 2026-11-27 17:00:03 UTC"
    public var words: Words {
        let date = UTCDate.format(unixSeconds: since)
        let on = host.isEmpty ? "" : " on \(host)"
        let en = host.isEmpty ? "" : " en \(host)"
        return Words("pid \(pid)\(on), since \(date)", es: "pid \(pid)\(en), desde \(date)")
    }
}

extension JournalDifference {
    public var words: Words {
        func show(_ s: String?) -> String { s.map { OutsideText.display($0, limit: 80) } ?? "—" }
        switch self {
        case .input: return Words("the notifications' input differs", es: "la entrada de notificaciones es distinta")
        case .payload: return Words("the payload differs", es: "la carga útil es distinta")
        case .topic(let was, let now): return Words("the topic was \(show(was)), now \(show(now))", es: "el topic era \(show(was)), ahora \(show(now))")
        case .pushType(let was, let now):
            return Words("the push type was \(show(was)), now \(show(now))", es: "el tipo de notificación era \(show(was)), ahora \(show(now))")
        case .destination(let was, let now):
            return Words("it was sent to \(show(was)), now to \(show(now))", es: "se envió a \(show(was)), ahora a \(show(now))")
        case .shard(let was, let now): return Words("the shard was \(show(was)), now \(show(now))", es: "el fragmento era \(show(was)), ahora \(show(now))")
        }
    }
}

extension JournalProblem: WordedProblem {
    public var words: Words {
        func shown(_ path: String) -> String { OutsideText.display(path, limit: 200) }
        switch self {
        case .held(let journal, let holder, _):
            let who = holder?.words ?? Words("who holds it is not written yet", es: "aún no consta quién lo tiene")
            return Self.heldBy(shown(journal), who)
        case .heldThroughAnotherPath(let journal):
            return Self.heldBy(
                shown(journal), Words("through another path to the same file, such as a hard link", es: "por otra ruta al mismo archivo, como un enlace duro"))
        case .cannotCreateLock(let journal, let lockFile, let reason):
            return Words(
                "cannot create the journal '\(shown(journal))' (its lock '\(shown(lockFile))'): \(reason.words)",
                es: "no se puede crear el diario '\(shown(journal))' (su bloqueo '\(shown(lockFile))'): \(reason.words)")
        case .cannotLock(let journal, let lockFile, let reason):
            return Words(
                "cannot lock the journal '\(shown(journal))' ('\(shown(lockFile))'): \(reason.words)",
                es: "no se puede bloquear el diario '\(shown(journal))' ('\(shown(lockFile))'): \(reason.words)")
        case .cannotOpen(let journal, let reason):
            return Words(
                "cannot open the journal '\(shown(journal))': \(reason.words)", es: "no se puede abrir el diario '\(shown(journal))': \(reason.words)")
        case .cannotCreate(let journal, let reason):
            return Words(
                "cannot create the journal '\(shown(journal))': \(reason.words)", es: "no se puede crear el diario '\(shown(journal))': \(reason.words)")
        case .cannotWrite(let journal, let reason):
            return Words(
                "could not write the journal '\(shown(journal))': \(reason.words); the results are in the output",
                es: "no se pudo escribir el diario '\(shown(journal))': \(reason.words); los resultados están en la salida")
        case .notAJournal(let journal):
            return Words(
                "'\(shown(journal))' is not a pushctl journal (its first line does not name a run)",
                es: "'\(shown(journal))' no es un diario de pushctl (su primera línea no identifica un envío)")
        case .empty(let journal):
            return Words("'\(shown(journal))' is not a pushctl journal (it is empty)", es: "'\(shown(journal))' no es un diario de pushctl (está vacío)")
        case .damaged(let journal, let line):
            return Words(
                "the journal '\(shown(journal))' is damaged at line \(line) (not a result pushctl wrote)",
                es: "el diario '\(shown(journal))' está dañado en la línea \(line) (no es un resultado escrito por pushctl)")
        case .alreadyHoldsARun(let journal):
            return Words(
                "the journal '\(shown(journal))' already holds a run; pushctl never overwrites one",
                es: "el diario '\(shown(journal))' ya contiene un envío; pushctl nunca lo sobrescribe")
        case .ofAnotherRun(let journal, let differences):
            return Words("the journal '\(shown(journal))' is of a different run: ", es: "el diario '\(shown(journal))' es de otro envío: ")
                + Words.joined(differences.map(\.words), separator: Words(verbatim: "; "))
        }
    }

    public var hintWords: Words? {
        switch self {
        case .held(_, _, let lockFile):
            let shown = OutsideText.display(lockFile, limit: 200)
            return Words(
                "try again when that run has ended (exit 75: a temporary failure), or give this run another journal; a holder on another machine that has gone leaves no lock behind unless the file system keeps locks on one machine only (NFS with nolock): then remove '\(shown)'",
                es:
                    "vuelve a intentarlo cuando ese envío termine (salida 75: un fallo temporal), o da a este envío otro diario; quien lo tenía en otra máquina y ya no está no deja el bloqueo, salvo que el sistema de archivos guarde los bloqueos en una sola máquina (NFS con nolock): entonces borra '\(shown)'"
            )
        case .heldThroughAnotherPath:
            return Words(
                "try again when that run has ended (exit 75: a temporary failure), or give this run a journal of its own",
                es: "vuelve a intentarlo cuando ese envío termine (salida 75: un fallo temporal), o da a este envío un diario propio")
        case .cannotCreateLock, .cannotLock:
            return Words(
                "give a journal path in a folder you can write, on a file system that keeps locks (a local disk)",
                es: "indica una ruta de diario en una carpeta donde puedas escribir, en un sistema de archivos que admita bloqueos (un disco local)")
        case .cannotOpen:
            return Words(
                "give the path of a journal file in a folder you can write (pushctl writes through no symbolic link)",
                es: "indica la ruta de un archivo de diario en una carpeta donde puedas escribir (pushctl no escribe a través de enlaces simbólicos)")
        case .cannotCreate: return Words("give a path in a folder you can write", es: "indica una ruta en una carpeta donde puedas escribir")
        case .cannotWrite, .empty: return nil
        case .notAJournal:
            return Words(
                "give the file that \(Setting.journal) wrote, or another path for a new journal",
                es: "indica el archivo que escribió \(Setting.journal), u otra ruta para un diario nuevo")
        case .damaged:
            return Words(
                "only its last line may be cut short (a crash mid-write); start a new journal, or repair that line",
                es: "solo su última línea puede estar cortada (un fallo a mitad de escritura); empieza un diario nuevo, o repara esa línea")
        case .alreadyHoldsARun:
            return Words(
                "add \(Setting.resume) to carry on with that run, or give another path for a new journal",
                es: "añade \(Setting.resume) para continuar ese envío, o indica otra ruta para un diario nuevo")
        case .ofAnotherRun:
            return Words(
                "resume with the same tokens, payload, topic, push type and destination, or give another path for a new journal",
                es: "reanuda con los mismos tokens, carga útil, topic, tipo y destino, o indica otra ruta para un diario nuevo")
        }
    }

    private static func heldBy(_ shown: String, _ who: Words) -> Words {
        Words("the journal '\(shown)' is held by another run (", es: "el diario '\(shown)' lo tiene otro envío (")
            + who + Words("); one run per journal, and nothing was sent", es: "); un envío por diario, y no se envió nada")
    }
}
