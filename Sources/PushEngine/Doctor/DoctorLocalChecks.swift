import PushCore
import PushCrypto
import PushCurl
import PushFiles
import PushSystem
import PushWords

/// The checks of this machine alone: libcurl, the key, the certificate, and on a Mac the
/// Simulator's tools.
extension Doctor {
    func libcurl() -> DoctorCheck {
        guard CurlRuntime.initialise() else {
            return DoctorCheck(
                subject: .libcurl, status: .fail, found: Words("libcurl could not be initialised", es: "no se pudo inicializar libcurl"),
                hint: Words("reinstall libcurl (Debian: libcurl4-openssl-dev)", es: "reinstala libcurl (Debian: libcurl4-openssl-dev)"))
        }
        let build = CurlBuild.current
        let details: [(String, JSONValue)] = [
            ("version", .string(build.version)), ("tls", .string(build.tlsLibrary)), ("http2", .bool(build.http2)),
        ]
        if let refusal = LibcurlCheck.refusal(build) {
            return DoctorCheck(subject: .libcurl, status: .fail, found: refusal.words, hint: refusal.hintWords, details: details)
        }
        return DoctorCheck(subject: .libcurl, status: .pass, found: LibcurlCheck.summary(build), details: details)
    }

    /// The key file given by its setting or its variable (even when another way to authenticate
    /// was chosen: doctor checks each one given).
    var keyPath: String? { values.flags[.keyFile] ?? Setting.keyFile.variable.flatMap { values.environment[$0] }.nonEmpty }

    /// The certificate loads with its key, is within its validity, and what it covers.
    func certificate() -> (check: DoctorCheck, identity: ClientIdentity?) {
        guard let path = certificatePath else {
            // On a Mac with neither a key nor a certificate given, where the certificate is.
            return (
                DoctorCheck(
                    subject: .certificate, status: .skip,
                    found: Words("no \(Setting.certificate.either("or")) given", es: "no se dio \(Setting.certificate.either("ni"))"),
                    hint: machine.system == .macOS && keyPath == nil ? Self.keychain : nil), nil
            )
        }
        let shown = OutsideText.display(path, limit: 120)
        let identity: ClientIdentity
        do {
            identity = try CertificateCredential.identity(path: path, values, options.credentials)
        } catch {
            var hint = error.hintWords ?? Words("export the certificate with its key as .p12", es: "exporta el certificado con su clave como .p12")
            if machine.system == .macOS && !hint.en.contains("Keychain Access") { hint = hint + Words(verbatim: "; ") + Self.keychain }
            return (DoctorCheck(subject: .certificate, status: .fail, found: error.words, hint: hint, details: [("path", .string(shown))]), nil)
        }
        let c = identity.certificate
        let now = machine.now()
        var details: [(String, JSONValue)] = [
            ("path", .string(shown)), ("bundleId", c.uid.map(JSONValue.string) ?? .null),
            ("topics", .array(c.allowedTopics.map(JSONValue.string))), ("environments", .string(c.environmentsDescription)),
            ("notAfter", .string(UTCDate.format(unixSeconds: c.notAfter))), ("daysLeft", .integer(c.daysLeft(now: now))),
        ]
        let topics = c.allowedTopics.map { OutsideText.display($0, limit: 80) }.joined(separator: ", ")
        let covers =
            Words(verbatim: "\(shown): ") + (c.uid.map { Words(verbatim: OutsideText.display($0, limit: 80)) } ?? Words("no bundle id", es: "sin bundle id"))
            + Words(verbatim: ", ") + c.environments + Words(verbatim: ", topics \(topics)")
        let notAfter = UTCDate.format(unixSeconds: c.notAfter)
        switch c.validity(now: now) {
        case .expired:
            var hint = Words(
                "make a new one in your Apple Developer account, or move to a .p8 key",
                es: "crea otro en tu cuenta de Apple Developer, o pasa a una clave .p8")
            if machine.system == .macOS { hint = hint + Words(verbatim: "; ") + Self.keychain }
            return (
                DoctorCheck(
                    subject: .certificate, status: .fail, found: covers + Words("; expired on \(notAfter)", es: "; caducó el \(notAfter)"),
                    hint: hint, details: details), nil
            )
        case .notYetValid:
            let notBefore = UTCDate.format(unixSeconds: c.notBefore)
            return (
                DoctorCheck(
                    subject: .certificate, status: .fail, found: covers + Words("; not valid until \(notBefore)", es: "; no es válido hasta el \(notBefore)"),
                    hint: Words("check this machine's clock", es: "comprueba el reloj de esta máquina"), details: details), nil
            )
        case .expiresSoon(let days):
            details.append(("expiresSoon", .bool(true)))
            return (
                DoctorCheck(
                    subject: .certificate, status: .pass,
                    found: covers
                        + Words("; expires in \(days) days (\(notAfter)): renew it soon", es: "; caduca en \(days) días (\(notAfter)): renuévalo pronto"),
                    details: details), identity
            )
        case .valid:
            let days = c.daysLeft(now: now)
            return (
                DoctorCheck(
                    subject: .certificate, status: .pass, found: covers + Words("; valid for \(days) more days", es: "; válido \(days) días más"),
                    details: details), identity
            )
        }
    }

    /// Where a Mac keeps a push certificate, and how it leaves as a file pushctl reads.
    static var keychain: Words {
        Words(
            "on a Mac, a push certificate lives in the Keychain: in Keychain Access, select it with its private key, choose File › Export Items… and save a .p12, then give it with \(Setting.certificate)",
            es:
                "en un Mac, el certificado de push vive en el llavero: en Acceso a Llaveros, selecciónalo junto con su clave privada, elige Archivo › Exportar ítems… y guarda un .p12; luego dalo con \(Setting.certificate)"
        )
    }

    /// The key loads, its ids have Apple's shapes, and a token signed with it verifies.
    func key() -> (check: DoctorCheck, signer: SigningAuthorization?) {
        // A key not in a file (a PKCS#11 token, an external signer, PUSHCTL_KEY): checked where it is.
        if let checked = SigningKey.check(values, options.credentials) {
            return (
                DoctorCheck(
                    subject: .key, status: checked.passed ? .pass : .fail, found: checked.found, hint: checked.hint,
                    details: checked.details.map { ($0.0, JSONValue.string($0.1)) }), checked.authorization
            )
        }
        guard let path = keyPath else {
            return (
                DoctorCheck(
                    subject: .key, status: .skip,
                    found: Words(
                        "no \(Setting.keyFile.either("or")) given, so no key to check",
                        es: "no se dio \(Setting.keyFile.either("ni")): no hay clave que comprobar"),
                    hint: Words(
                        "add \(Setting.keyFile) AuthKey_<KEYID>.p8 \(Setting.teamID) ID to check the key too",
                        es: "añade \(Setting.keyFile) AuthKey_<KEYID>.p8 \(Setting.teamID) ID para comprobar también la clave")), nil
            )
        }
        let shown = OutsideText.display(path, limit: 120)
        func failed(_ error: InputError) -> (check: DoctorCheck, signer: SigningAuthorization?) {
            (
                DoctorCheck(
                    subject: .key, status: .fail, found: error.words,
                    hint: error.hintWords ?? Words("check the file Apple gave you (a .p8)", es: "comprueba el archivo que te dio Apple (un .p8)"),
                    details: [("path", .string(shown))]), nil
            )
        }
        do {
            let file = try SigningKey.file(at: path)
            let key = try file.privateKey()
            let resolved = try SigningKey.identity(values)
            let unsigned = UnsignedProviderToken(keyID: resolved.keyID, teamID: resolved.teamID, issuedAt: machine.now())
            let token: ProviderToken
            do { token = try unsigned.signed(by: key) } catch {
                return failed(InputError(CredentialProblem.keyCannotSign(shown: shown, detail: "\(error)")))
            }
            guard key.publicKey.isValidSignature(token.signature, for: Array(unsigned.signingInput.utf8)) else {
                return failed(InputError(CredentialProblem.keySignatureDoesNotVerify(shown: shown)))
            }
            var found = Words(
                "\(shown) loads (P-256); key id \(resolved.keyID) and team id \(resolved.teamID) have Apple's shape; a token signed with it verifies",
                es:
                    "\(shown) se carga (P-256); el key id \(resolved.keyID) y el team id \(resolved.teamID) tienen la forma de Apple; un token firmado con ella se verifica"
            )
            if let named = AppleIdentifier.keyID(fromKeyFileName: path).map({ OutsideText.display($0, limit: 20) }), named != resolved.keyID.value {
                found =
                    found
                    + Words(
                        "; note: the file is named for key \(named), but the key id used is \(resolved.keyID)",
                        es: "; ojo: el archivo lleva el nombre de la clave \(named), pero el key id que se usa es \(resolved.keyID)")
            }
            let warning = InputFiles.sharingWarning(path)
            let cache = ProviderTokenCache.standard(environment: values.environment, warn: { _ in })
            let signer = SigningAuthorization(keyFile: file, keyID: resolved.keyID, teamID: resolved.teamID, cache: cache)
            return (
                DoctorCheck(
                    subject: .key, status: .pass, found: warning.map { found + Words(verbatim: "; ") + $0.words } ?? found,
                    details: [
                        ("path", .string(shown)), ("keyId", .string(resolved.keyID.value)),
                        ("teamId", .string(resolved.teamID.value)),
                    ]), signer
            )
        } catch {
            return failed(error)
        }
    }

    /// On a Mac: whether Xcode's `simctl` answers (`xcrun simctl help`), which a push to a booted
    /// Simulator runs. Not having it fails nothing: most sends never need it.
    func simulator() -> DoctorCheck {
        let hint = Words(
            "\(Setting.simulator) needs Xcode: install it from the App Store, open it once, and select it with sudo xcode-select -s /Applications/Xcode.app",
            es:
                "\(Setting.simulator) necesita Xcode: instálalo desde la App Store, ábrelo una vez y selecciónalo con sudo xcode-select -s /Applications/Xcode.app"
        )
        guard let xcrun = machine.findProgram("xcrun", values.environment) else {
            return DoctorCheck(
                subject: .simulator, status: .skip,
                found: Words(
                    "no xcrun on PATH: Xcode's command-line tools are not here",
                    es: "no hay xcrun en el PATH: aquí no están las herramientas de línea de comandos de Xcode"),
                hint: hint, details: [("xcrun", .null), ("simctl", .bool(false))])
        }
        let shown = OutsideText.display(xcrun, limit: 120)
        guard case .success(let run) = ChildProcesses.run(ChildSpec(xcrun, ["simctl", "help"]), seconds: options.timeout), run.end == .exited(0) else {
            return DoctorCheck(
                subject: .simulator, status: .skip,
                found: Words(
                    "\(shown) is here, but xcrun simctl did not answer: it comes with Xcode, not with the command-line tools alone",
                    es: "\(shown) está, pero xcrun simctl no respondió: viene con Xcode, no solo con las herramientas de línea de comandos"),
                hint: hint, details: [("xcrun", .string(shown)), ("simctl", .bool(false))])
        }
        return DoctorCheck(
            subject: .simulator, status: .pass,
            found: Words(
                "xcrun simctl answers (Xcode): \(Setting.simulator) booted pushes to the booted Simulator",
                es: "xcrun simctl responde (Xcode): \(Setting.simulator) booted envía al Simulador arrancado"),
            details: [("xcrun", .string(shown)), ("simctl", .bool(true))])
    }
}
