public import PushCore

// The credentials a run was given: the choice of how to authenticate, keys and their sources,
// provider tokens given ready-made, certificates, and the test materials pushctl makes.

extension Words {
    /// "--key-file (or PUSHCTL_KEY_FILE)", with each language's "or".
    static func either(_ setting: Setting) -> Words { Words("\(setting.either("or"))", es: "\(setting.either("o"))") }
}

extension CredentialProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .missingProviderToken:
            return Words(
                "missing a provider token: give \(Setting.keyFile) with \(Setting.teamID) (and \(Setting.keyID) unless the file is AuthKey_<KEYID>.p8), or \(Setting.jwt)",
                es:
                    "falta el token del proveedor: da \(Setting.keyFile) con \(Setting.teamID) (y \(Setting.keyID) si el archivo no se llama AuthKey_<KEYID>.p8), o \(Setting.jwt)"
            )
        case .severalChoices(let settings):
            let names = Words.joined(settings.map(Words.named), separator: Words(verbatim: ", "))
            return Words("\(names) are each a way to authenticate: give one", es: "\(names) son cada uno una forma de autenticarse: da solo una")
        case .severalVariables(let variables, _):
            return Words(
                "\(variables.joined(separator: " and ")) are all set, so it is not clear how to authenticate",
                es: "\(variables.joined(separator: " y ")) están definidas a la vez, así que no está claro cómo autenticar")
        case .missingKeyFile:
            return Words("missing ", es: "falta ") + .either(.keyFile)
                + Words(": the .p8 key that signs the JWT", es: ": la clave .p8 que firma el JWT")
        case .missingKeyID(let fileNamed):
            let why =
                fileNamed
                ? Words("the key file's name does not carry it (AuthKey_<KEYID>.p8)", es: "el nombre del archivo de la clave no lo lleva (AuthKey_<KEYID>.p8)")
                : Words("a key with no file name has no id to take it from", es: "una clave sin nombre de archivo no tiene de dónde tomarlo")
            return Words("missing ", es: "falta ") + .either(.keyID) + Words(verbatim: ": ") + why
        case .missingTeamID:
            return Words("missing ", es: "falta ") + .either(.teamID)
                + Words(": your 10-character Team ID, e.g. DEF123GHIJ", es: ": tu Team ID de 10 caracteres, p. ej. DEF123GHIJ")
        case .certificateGivenAsKey(let path, let form):
            let shown = OutsideText.display(path, limit: 200)
            return Words("'\(shown)' is ", es: "'\(shown)' es ") + form.name + Words(", not a .p8 signing key", es: ", no una clave .p8 de firma")
        case .keyNotOpened(let detail):
            return Words("the key could not be opened: \(detail)", es: "no se pudo abrir la clave: \(detail)")
        case .missingKeyFileOrURI:
            return Words("missing ", es: "falta ") + .either(.keyFile)
        case .keyCannotSign(let shown, let detail):
            return Words("the key at \(shown) loads but could not sign: \(detail)", es: "la clave de \(shown) se carga pero no pudo firmar: \(detail)")
        case .keySignatureDoesNotVerify(let shown):
            return Words(
                "a token signed with \(shown) does not verify with its own public half",
                es: "un token firmado con \(shown) no se verifica con su propia mitad pública")
        case .pkcs11NoSupport:
            return Words(
                "this OpenSSL cannot reach a PKCS#11 token: it has neither libp11's pkcs11 engine nor a provider for pkcs11: URIs",
                es: "este OpenSSL no puede llegar a un token PKCS#11: no tiene el motor pkcs11 de libp11 ni un proveedor para URIs pkcs11:")
        case .pkcs11Module(let module, let detail):
            let why = detail.isEmpty ? "" : " (\(detail))"
            return Words("the PKCS#11 module \(module) could not be loaded\(why)", es: "no se pudo cargar el módulo PKCS#11 \(module)\(why)")
        case .pkcs11WrongPIN(let uri):
            return Words("the token refused the PIN given for \(uri)", es: "el token rechazó el PIN dado para \(uri)")
        case .pkcs11LockedPIN(let uri):
            return Words("the token's PIN is locked (\(uri))", es: "el PIN del token está bloqueado (\(uri))")
        case .pkcs11NoKey(let uri, let module, let detail, _):
            let why = detail.isEmpty ? "" : " (\(detail))"
            return Words(
                "no private key for \(uri) could be opened in the token (module \(module))\(why)",
                es: "no se pudo abrir ninguna clave privada para \(uri) en el token (módulo \(module))\(why)")
        case .pkcs11NotP256(let uri, let kind):
            return Words(
                "APNs keys are P-256 (prime256v1) EC keys; \(uri) is \(kind)", es: "las claves de APNs son claves EC P-256 (prime256v1); \(uri) es \(kind)")
        case .tokenKeyMismatch:
            return Words(
                "the token's signature does not verify with the key's public half: the token signs with another key than the one named",
                es: "la firma del token no se verifica con la mitad pública de la clave: el token firma con otra clave que la indicada")
        case .testSignatureDoesNotVerify:
            return Words(
                "a test signature does not verify with the key's own public half",
                es: "una firma de prueba no se verifica con la propia mitad pública de la clave")
        case .testSignatureFailed(let detail):
            return Words("a test signature failed: \(detail)", es: "falló una firma de prueba: \(detail)")
        case .providerTokenNotSigned(let detail):
            return Words("the provider token could not be signed: \(detail)", es: "no se pudo firmar el token del proveedor: \(detail)")
        case .providerTokenCannotBeRenewed:
            return Words(
                "the provider token given has expired and cannot be renewed without the key",
                es: "el token del proveedor dado ha caducado y no se puede renovar sin la clave")
        case .certificateSendsNoProviderToken:
            return Words(
                "APNs refused the provider token, but this run authenticates with a certificate and sends none",
                es: "APNs rechazó el token del proveedor, pero este envío se autentica con un certificado y no manda ninguno")
        case .jwtExpired(let issuedAt, let now):
            return Words("the JWT given with ", es: "el JWT dado con ") + .either(.jwt) + Words(" was ", es: " está ")
                + TokenAge.describeWords(issuedAt: issuedAt, now: now)
                + Words(
                    ": APNs would refuse every notification (ExpiredProviderToken)", es: ": APNs rechazaría todas las notificaciones (ExpiredProviderToken)")
        case .jwtRefused(let findings):
            return Words("the JWT given with ", es: "APNs rechazaría el JWT dado con ") + .either(.jwt)
                + Words(" would be refused by APNs: ", es: ": ") + Words.joined(findings.map(\.words), separator: Words(verbatim: "; "))
        case .certificateSettingsWithoutCertificate:
            return Words(
                "\(Setting.certificateKey) and \(Setting.certificatePassword) go with \(Setting.certificate.either("or"))",
                es: "\(Setting.certificateKey) y \(Setting.certificatePassword) van con \(Setting.certificate.either("o"))")
        case .certificatePasswordNotOneLine(let file):
            return Words(
                "the certificate password file '\(file)' must hold the password on one line",
                es: "el archivo de contraseña del certificado '\(file)' debe tener la contraseña en una línea")
        case .certificateExpired(let place, let notAfter, let subject):
            let date = UTCDate.format(unixSeconds: notAfter)
            let subject = OutsideText.display(subject, limit: 120)
            return Words(
                "the certificate in '\(place)' expired on \(date) (\(subject))", es: "el certificado de '\(place)' caducó el \(date) (\(subject))")
        case .certificateNotYetValid(let place, let notBefore):
            let date = UTCDate.format(unixSeconds: notBefore)
            return Words(
                "the certificate in '\(place)' is not valid until \(date); is this machine's clock right?",
                es: "el certificado de '\(place)' no es válido hasta el \(date); ¿está bien el reloj de esta máquina?")
        case .certificateEnvironment(let shown, let environment):
            let sandbox = environment == .sandbox
            return Words(
                "the certificate in '\(shown)' is for \(sandbox ? "production" : "development") only, but this run sends to \(sandbox ? "the sandbox" : "production") (\(environment.host)); APNs would answer BadCertificateEnvironment",
                es:
                    "el certificado de '\(shown)' es solo de \(sandbox ? "producción" : "desarrollo"), pero este envío va a \(sandbox ? "sandbox" : "producción") (\(environment.host)); APNs respondería BadCertificateEnvironment"
            )
        case .certificateTopicNeeded(let topics):
            let topics = topics.joined(separator: ", ")
            return Words(
                "the certificate covers several apps' topics: give \(Setting.topic) with one of them: \(topics)",
                es: "el certificado cubre topics de varias apps: da \(Setting.topic) con uno de ellos: \(topics)")
        case .certificateRefuses(let refusal):
            return refusal.words
        case .testCertificateNeedsTopic:
            return Words(
                "missing \(Setting.topic): the bundle id the certificate is for, e.g. com.example.app",
                es: "falta \(Setting.topic): el bundle id para el que es el certificado, p. ej. com.example.app")
        case .notATopic(let shown):
            return Words(
                "\(Setting.topic) '\(shown)' is not a bundle id or topic (letters, digits, dots and hyphens)",
                es: "\(Setting.topic) '\(shown)' no es un bundle id ni un topic (letras, dígitos, puntos y guiones)")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .severalVariables(_, let settings):
            let names = Words.joined(settings.map(Words.named), separator: Words(" or ", es: " o "))
            return Words("unset all but one, or choose with \(names)", es: "deja solo una, o elige con \(names)")
        case .missingKeyFile:
            return Words(
                "give the AuthKey_<KEYID>.p8 file from Certificates, Identifiers & Profiles › Keys",
                es: "indica el archivo AuthKey_<KEYID>.p8 de Certificates, Identifiers & Profiles › Keys")
        case .missingKeyID:
            return Words(
                "pass the 10-character Key ID Apple shows next to the key", es: "indica el Key ID de 10 caracteres que Apple muestra junto a la clave")
        case .certificateGivenAsKey(let path, _):
            let shown = OutsideText.display(path, limit: 200)
            return Words(
                "to authenticate with this certificate, give it as \(Setting.certificate) \(shown) (no \(Setting.keyFile)); to sign tokens, give the AuthKey_<KEYID>.p8 from Apple",
                es:
                    "para autenticarte con este certificado, dalo como \(Setting.certificate) \(shown) (sin \(Setting.keyFile)); para firmar tokens, da el AuthKey_<KEYID>.p8 de Apple"
            )
        case .pkcs11NoSupport:
            return Words(
                "install libp11's engine (Debian/Ubuntu: apt-get install libengine-pkcs11-openssl; macOS: brew install libp11)",
                es: "instala el motor de libp11 (Debian/Ubuntu: apt-get install libengine-pkcs11-openssl; macOS: brew install libp11)")
        case .pkcs11Module:
            return Words(
                "give the module's path with module-path=… in the URI or \(Setting.pkcs11Module) (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so); a module runs code in pushctl: name only one you trust",
                es:
                    "indica la ruta del módulo con module-path=… en la URI o \(Setting.pkcs11Module) (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so); un módulo ejecuta código en pushctl: indica solo uno de confianza"
            )
        case .pkcs11WrongPIN:
            return Words(
                "check the PIN (a few more wrong ones lock the token); keep it in a file named by pin-source=file:… in the URI",
                es: "comprueba el PIN (unos pocos errores más bloquean el token); guárdalo en un archivo indicado con pin-source=file:… en la URI")
        case .pkcs11LockedPIN:
            return Words(
                "unlock it with the security officer's PIN (the token's own tool, or OpenSC's pkcs11-tool)",
                es: "desbloquéalo con el PIN del responsable de seguridad (la herramienta del token, o pkcs11-tool de OpenSC)")
        case .pkcs11NoKey(_, _, _, let pinGiven):
            let variable = Setting.keyFile.variable ?? "a variable"
            return pinGiven
                ? Words(
                    "check the token's label, the object's label or id, and the PIN (OpenSC's pkcs11-tool lists a token's objects)",
                    es: "comprueba la etiqueta del token, la etiqueta o el id del objeto y el PIN (pkcs11-tool, de OpenSC, lista los objetos de un token)")
                : Words(
                    "the token may want a PIN: add pin-source=file:PATH to the URI (a file holding the PIN), or pin-value=… with the URI in \(variable) (never on the command line), or run on a terminal to be asked",
                    es:
                        "el token quizá pide un PIN: añade pin-source=file:RUTA a la URI (un archivo con el PIN), o pin-value=… con la URI en \(variable) (nunca en la línea de órdenes), o ejecútalo en una terminal para que se pida"
                )
        case .providerTokenCannotBeRenewed:
            return Words("mint a new one (pushctl jwt), or sign with the key", es: "genera uno nuevo (pushctl jwt), o firma con la clave")
        case .jwtExpired:
            return Words(
                "mint a new one (pushctl jwt), or pass \(Setting.keyFile) and pushctl signs and renews it",
                es: "genera uno nuevo (pushctl jwt), o da \(Setting.keyFile) y pushctl lo firma y lo renueva")
        case .jwtRefused:
            return Words(
                "check it with `pushctl jwt decode`, or pass \(Setting.keyFile) and pushctl signs a correct one",
                es: "compruébalo con `pushctl jwt decode`, o pasa \(Setting.keyFile) y pushctl firma uno correcto")
        case .certificateExpired:
            return Words(
                "make a new one in your Apple Developer account (Certificates, Identifiers & Profiles), or move to a .p8 key, which does not expire",
                es: "crea otro en tu cuenta de Apple Developer (Certificates, Identifiers & Profiles), o pasa a una clave .p8, que no caduca")
        case .certificateNotYetValid:
            return Words("check the clock (date -u), or wait until then", es: "comprueba el reloj (date -u), o espera hasta entonces")
        case .certificateEnvironment(_, let environment):
            let sandbox = environment == .sandbox
            return Words(
                "send to the other environment (\(Setting.environment)), or use a certificate made for \(sandbox ? "development (Sandbox)" : "production")",
                es: "envía al otro entorno (\(Setting.environment)), o usa un certificado hecho para \(sandbox ? "desarrollo (Sandbox)" : "producción")")
        case .certificateRefuses:
            return Words(
                "give \(Setting.topic) with a topic the certificate lists (pushctl cert inspect shows them), or use a .p8 key",
                es: "da \(Setting.topic) con un topic que el certificado incluya (pushctl cert inspect los muestra), o usa una clave .p8")
        case .missingProviderToken, .severalChoices, .missingTeamID, .keyNotOpened, .missingKeyFileOrURI, .keyCannotSign, .keySignatureDoesNotVerify,
            .pkcs11NotP256, .tokenKeyMismatch, .testSignatureDoesNotVerify, .testSignatureFailed, .providerTokenNotSigned,
            .certificateSendsNoProviderToken, .certificateSettingsWithoutCertificate, .certificatePasswordNotOneLine, .certificateTopicNeeded,
            .testCertificateNeedsTopic, .notATopic:
            return nil
        }
    }
}
