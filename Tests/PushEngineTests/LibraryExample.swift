// The README's "Use it as a library" example, compiled with the tests; a test checks the README
// shows exactly this code between the markers.
// example-start
import PushCore
import PushEngine
import PushWords

/// Sends one alert to some devices and returns the tokens APNs called dead.
func sendAlert(
    to devices: [String], keyPath: String, endpoint: String = "https://api.sandbox.push.apple.com",
    caFile: String? = nil
) throws -> [String] {
    let template = try PushTemplate(
        PushSpec(topic: "com.example.app"),
        payload: Payload(json: .object([("aps", .object([("alert", .string("Hello from Swift"))]))])))
    let signer = SigningAuthorization(
        keyFile: try KeyFile(path: keyPath),
        keyID: try AppleIdentifier(.keyID, "ABC123DEFG"), teamID: try AppleIdentifier(.teamID, "DEF123GHIJ"),
        cache: nil)
    let (tokens, _) = try NotificationSource.tokens(devices, template: template, shard: nil)
    let plan = SendPlan(
        notifications: tokens, destination: try .endpoint(endpoint, caCertificate: caFile),
        connection: ConnectionSettings(), authorization: signer, policy: RetryPolicy())
    var dead: [String] = []
    let summary = try SendRun(plan: plan).run { result in
        // Typed: a RejectionReason to switch on, not a name to parse.
        if result.reason?.meansTokenIsDead == true, let token = result.token { dead.append(token.hex) }
    }
    print(summary.line.text(.en))  // "2 tokens: 1 accepted, 1 rejected (Unregistered 1) in 95 ms"
    return dead
}

/// The lines of a tokens list that are not device tokens, each with why in Spanish; blank lines pass.
func unusableTokens(_ lines: [String]) -> [(line: String, why: String)] {
    lines.compactMap { line -> (line: String, why: String)? in
        do throws(InputError) {
            _ = try DeviceToken(parsing: line)
            return nil
        } catch {
            // The core returns a code: branch on it; the catalog (PushWords) says it in words.
            if case .empty? = error.problem(DeviceTokenProblem.self) { return nil }
            return (line, error.words.text(.es))
        }
    }
}

/// Why a key file cannot sign, in the language chosen for this call; nil when it can.
func whyKeyCannotSign(_ path: String, in language: Language) -> String? {
    do throws(InputError) {
        _ = try KeyFile(path: path).privateKey()
        return nil
    } catch {
        // A file that cannot be read is a FileProblem: its path and the system's reason, typed.
        switch error.problem(FileProblem.self) {
        case .notFound(_, let missing, _)?:
            return Words("no key at \(missing)", es: "no hay ninguna clave en \(missing)").text(language)
        case .cannotOpen(_, _, .permissionDenied)?:
            return Words("the key is not readable by this user", es: "este usuario no puede leer la clave").text(language)
        case .some:
            return error.words.text(language)
        case nil:
            break
        }
        // Not the file but what it holds: a SigningKeyProblem (an encrypted key, an RSA key…).
        if case .publicKeyGiven? = error.problem(SigningKeyProblem.self) {
            return Words("this is the public half; sign with the .p8", es: "es la mitad pública; firma con el .p8").text(language)
        }
        return error.words.text(language)  // the catalog says every code in both languages
    }
}

/// Takes a journal for this run, or says why not in the language chosen for this call.
func takeJournal(_ path: String, in language: Language) -> (lock: JournalLock?, refusal: String?) {
    do throws(InputError) {
        return (try JournalLock(journal: path), nil)
    } catch {
        // Another run holding it is a code too, with who holds it.
        if case .held(_, let holder?, _)? = error.problem(JournalProblem.self) {
            return (nil, Words("in use by pid \(holder.pid)", es: "en uso por el pid \(holder.pid)").text(language))
        }
        return (nil, error.words.text(language))
    }
}

/// Whether this process's `PUSHCTL_*` variables say how to authenticate; if not, what to set, in
/// the language and with the names this caller's users know (its own settings screen's labels).
func credentialAdvice(_ variables: EnvironmentVariables, in language: Language) -> String? {
    do throws(InputError) {
        _ = try Credentials.resolve(SettingValues(environment: variables), CredentialOptions())
        return nil
    } catch {
        switch error.problem(CredentialProblem.self) {
        case .severalVariables(let set, _)?:
            return Words("keep one of \(set.joined(separator: ", "))", es: "deja solo una de \(set.joined(separator: ", "))").text(language)
        default:
            // Any other problem, said by the catalog with this caller's names for the settings.
            let names = SettingNaming([.keyFile: "Key file", .teamID: "Team ID", .keyID: "Key ID", .jwt: "Token"])
            return error.words.text(language, naming: names)
        }
    }
}
// example-end
