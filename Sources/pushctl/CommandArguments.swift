import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

/// The raw command line, before Swift decodes it.
enum CommandArguments {
    /// Swift turns invalid UTF-8 in an argument into U+FFFD without a word, so a title or a
    /// payload would be sent other than as typed. Refuse it instead (65), naming the argument.
    static func requireUTF8() throws(InputError) {
        let argv = CommandLine.unsafeArgv
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = argv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: Bytes.cStringLength(raw))
            guard String(validatingCString: raw) == nil else { continue }
            let option = index > 1 ? argv[index - 1].map { String(cString: $0) } : nil
            let flag = option.flatMap { $0.hasPrefix("-") ? OutsideText.display($0, limit: 40) : nil }
            let place = flag.map { "the value of \($0)" } ?? "argument \(index)"
            let placeEs = flag.map { "el valor de \($0)" } ?? "el argumento \(index)"
            let shown = OutsideText.display(bytes: bytes, limit: 40)
            throw InputError(
                Words(
                    "\(place) is not valid UTF-8 ('\(shown)'); pushctl would have to alter it",
                    es: "\(placeEs) no es UTF-8 válido ('\(shown)'); pushctl tendría que alterarlo"),
                hint: Words(
                    "check the terminal's or the script's encoding (UTF-8), or give the text in a payload file",
                    es: "comprueba la codificación de la terminal o del script (UTF-8), o da el texto en un archivo de carga útil"))
        }
    }
}

extension CommandArguments {
    /// Secrets on the command line stay in /proc/PID/cmdline for the whole run, readable by every
    /// user of the machine: a URL's password (`--proxy`, `--metrics-push`: `http://user:password@…`)
    /// or a token's PIN (`--key-file 'pkcs11:…?pin-value=…'`). Each is said, shown as `Redaction`
    /// shows it, with the variable to move it to. `--jwt` and `--signer` are said in `--help`.
    static func warnAboutSecrets(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> [Words] {
        var warnings: [Words] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            let (flag, value): (String, String?) =
                argument.hasPrefix("--") && argument.contains("=")
                ? (String(argument.prefix { $0 != "=" }), String(argument.drop { $0 != "=" }.dropFirst()))
                : (argument, index + 1 < arguments.count ? arguments[index + 1] : nil)
            guard let value else { continue }
            if flag == FlagNames.naming.name(.proxy), Redaction.hasCredentials(value) {
                warnings.append(
                    Words(
                        "the proxy's password is on the command line (\(Redaction.url(value))), where every user of this machine can read it while pushctl runs: give the URL in PUSHCTL_PROXY, or the user:password in a file with \(Setting.proxyCredentials)",
                        es:
                            "la contraseña del proxy está en la línea de órdenes (\(Redaction.url(value))), donde cualquier usuario de esta máquina la puede leer mientras pushctl se ejecuta: da la URL en PUSHCTL_PROXY, o usuario:contraseña en un archivo con \(Setting.proxyCredentials)"
                    ))
            } else if flag == FlagNames.naming.name(.metricsPush), Redaction.hasCredentials(value) {
                let variable = Setting.metricsPush.variable ?? ""
                warnings.append(
                    Words(
                        "the Pushgateway's password is on the command line (\(Redaction.url(value))), where every user of this machine can read it while pushctl runs: give the URL in \(variable)",
                        es:
                            "la contraseña del Pushgateway está en la línea de órdenes (\(Redaction.url(value))), donde cualquier usuario de esta máquina la puede leer mientras pushctl se ejecuta: da la URL en \(variable)"
                    ))
            } else if flag == FlagNames.naming.name(.keyFile), let uri = PKCS11URI(value), uri.carriesPIN {
                warnings.append(
                    Words(
                        "the token's PIN is on the command line (\(uri.shown)), where every user of this machine can read it while pushctl runs: name a file holding it with pin-source=file:PATH, give the URI in PUSHCTL_KEY_FILE, or leave the PIN out and type it when asked",
                        es:
                            "el PIN del token está en la línea de órdenes (\(uri.shown)), donde cualquier usuario de esta máquina lo puede leer mientras pushctl se ejecuta: indica un archivo que lo contenga con pin-source=file:RUTA, da la URI en PUSHCTL_KEY_FILE, o quita el PIN y escríbelo cuando se pida"
                    ))
            }
        }
        return warnings
    }
}
