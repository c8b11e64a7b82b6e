import ArgumentParser
import PushctlSupport
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto

/// `--key-file --key-id --team-id`, each falling back to its PUSHCTL_* variable.
struct AuthOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The .p8 private key from Apple (env PUSHCTL_KEY_FILE).", valueName: "path"), completion: .file(extensions: ["p8", "pem"]))
    var keyFile: String?

    @Option(help: ArgumentHelp("The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).", valueName: "id"))
    var keyId: String?

    @Option(help: ArgumentHelp("The 10-character Team ID (env PUSHCTL_TEAM_ID).", valueName: "id"))
    var teamId: String?

    struct Resolved {
        let keyFile: String
        let keyID: AppleIdentifier
        let teamID: AppleIdentifier
        /// The key id given contradicts the file's name `AuthKey_<ID>.p8`.
        var mismatch: AppleIdentifier.KeyFileNameMismatch? = nil
    }

    /// Flags win over the environment. A missing value is a usage error (64); a
    /// malformed one is bad input (65).
    func resolve() throws(InputError) -> Resolved {
        let env = Console.environment
        guard let keyFile = keyFile ?? env["PUSHCTL_KEY_FILE"].nonEmpty else {
            throw InputError(Words("missing --key-file (or PUSHCTL_KEY_FILE): the .p8 key that signs the JWT",
                                   es: "falta --key-file (o PUSHCTL_KEY_FILE): la clave .p8 que firma el JWT"),
                             hint: Words("see `pushctl jwt sign --help`", es: "consulta `pushctl jwt sign --help`"), kind: .usage)
        }
        guard let keyIDText = keyId ?? env["PUSHCTL_KEY_ID"].nonEmpty ?? AppleIdentifier.keyID(fromKeyFileName: keyFile) else {
            throw InputError(Words("missing --key-id (or PUSHCTL_KEY_ID): the key file's name does not carry it (AuthKey_<KEYID>.p8)",
                                   es: "falta --key-id (o PUSHCTL_KEY_ID): el nombre del archivo de la clave no lo lleva (AuthKey_<KEYID>.p8)"),
                             hint: Words("pass the 10-character Key ID Apple shows next to the key",
                                         es: "indica el Key ID de 10 caracteres que Apple muestra junto a la clave"), kind: .usage)
        }
        guard let teamIDText = teamId ?? env["PUSHCTL_TEAM_ID"].nonEmpty else {
            throw InputError(Words("missing --team-id (or PUSHCTL_TEAM_ID): your 10-character Team ID, e.g. DEF123GHIJ",
                                   es: "falta --team-id (o PUSHCTL_TEAM_ID): tu Team ID de 10 caracteres, p. ej. DEF123GHIJ"), kind: .usage)
        }
        let source = keyId != nil ? "--key-id" : "PUSHCTL_KEY_ID"
        return Resolved(
            keyFile: keyFile,
            keyID: try AppleIdentifier(.keyID, keyIDText),
            teamID: try AppleIdentifier(.teamID, teamIDText),
            mismatch: AppleIdentifier.KeyFileNameMismatch(keyFile: keyFile, keyID: keyIDText, source: source))
    }
}

enum KeyLoading {
    /// Reads and parses a signing key (through the engine's `KeyFile`); errors name the file.
    static func privateKey(at path: String) throws(InputError) -> ES256PrivateKey {
        let key = try keyFile(at: path).privateKey()
        InputFiles.sharingWarning(path).map(Console.warn)
        return key
    }

    /// The key file's bytes; a certificate given as the key is named, and pointed at --cert.
    static func keyFile(at path: String) throws(InputError) -> KeyFile {
        let file = try KeyFile(path: path)
        if let form = PastedForm.certificate(in: file.bytes) {
            let shown = OutsideText.display(path, limit: 200)
            throw InputError(Words("'\(shown)' is \(form.name.text(.en)), not a .p8 signing key",
                                   es: "'\(shown)' es \(form.name.text(.es)), no una clave .p8 de firma"),
                             hint: Words("to authenticate with this certificate, give it as --cert \(shown) (no --key-file); to sign tokens, give the AuthKey_<KEYID>.p8 from Apple",
                                         es: "para autenticarte con este certificado, dalo como --cert \(shown) (sin --key-file); para firmar tokens, da el AuthKey_<KEYID>.p8 de Apple"))
        }
        return file
    }

    static func verificationKey(at path: String) throws(InputError) -> ES256PublicKey {
        let bytes = try InputFiles.read(path, what: "key file")
        do {
            return try ES256PublicKey(pem: bytes)
        } catch {
            throw error.at(path)
        }
    }
}

