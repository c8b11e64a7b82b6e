public import PushCore

// What a command writes: its files and folders, its temporary files, and the results it reads back.

extension TemporaryFilePurpose {
    /// What the temporary file was to do: "keep the checked lines of tokens.txt".
    public var words: Words {
        switch self {
        case .spool(let role, let path):
            return Words("spool ", es: "copiar ") + role.words + Words(" from ", es: " desde ") + Words.path(path)
        case .keepCheckedLines(let path):
            if path == "-" {
                return Words("keep the checked lines of standard input", es: "guardar las líneas comprobadas de la entrada estándar")
            }
            let shown = OutsideText.display(path, limit: 200)
            return Words("keep the checked lines of \(shown)", es: "guardar las líneas comprobadas de \(shown)")
        case .cacheJWT:
            return Words("cache the JWT", es: "guardar el JWT en la caché")
        }
    }
}

extension OutputFile {
    /// "the metrics file", "el archivo de métricas".
    public var words: Words {
        switch self {
        case .metricsFile: return Words("the metrics file", es: "el archivo de métricas")
        case .deadTokenFile: return Words("the dead-token file", es: "el archivo de tokens muertos")
        case .retryFile: return Words("the retry file", es: "el archivo de reintentos")
        case .caCertificate: return Words("the CA certificate", es: "el certificado de la CA")
        case .simulatorFile: return Words("the Simulator file", es: "el archivo del Simulador")
        case .signingKey: return Words("the signing key", es: "la clave de firma")
        case .publicKey: return Words("the public key", es: "la clave pública")
        case .testCertificate: return Words("the test certificate's file", es: "el archivo del certificado de prueba")
        case .stepSummary: return Words("the step summary (GITHUB_STEP_SUMMARY)", es: "el resumen del paso (GITHUB_STEP_SUMMARY)")
        }
    }
}

extension OutputProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .exists(let file, let path):
            let exists =
                file == .signingKey
                ? Words("it already exists (pushctl never overwrites a key)", es: "ya existe (pushctl nunca sobrescribe una clave)")
                : Words("it already exists (pushctl never overwrites it)", es: "ya existe (pushctl nunca lo sobrescribe)")
            return Self.cannotWrite(file, path) + exists
        case .cannotWrite(let file, let path, let reason):
            return Self.cannotWrite(file, path) + reason.words
        case .notAFile(let file, let path):
            return Self.cannotWrite(file, path)
                + Words(
                    "it is not a regular file (a device, a pipe or a folder), and pushctl replaces only files",
                    es: "no es un archivo normal (es un dispositivo, una tubería o una carpeta), y pushctl solo reemplaza archivos")
        case .folderIsAFile(let path, let file):
            let shown = OutsideText.display(path)
            let part = OutsideText.display(file)
            return Words("cannot make the folder '\(shown)': '\(part)' is a file", es: "no se puede crear la carpeta '\(shown)': '\(part)' es un archivo")
        case .cannotMakeFolder(let path, let reason):
            let shown = OutsideText.display(path)
            return Words("cannot make the folder '\(shown)': ", es: "no se puede crear la carpeta '\(shown)': ") + reason.words
        case .noTemporaryFolder(let folder, let reason):
            return Words("cannot make a temporary folder in \(folder): ", es: "no se puede crear una carpeta temporal en \(folder): ") + reason.words
        case .noTemporaryFile(let purpose, let folder, let reason):
            return Words("cannot ", es: "no se puede ") + purpose.words
                + Words(": no temporary file in \(folder) (", es: ": no hay archivo temporal en \(folder) (") + reason.words + Words(verbatim: ")")
        case .temporaryWriteFailed(let purpose, let reason):
            return Words("cannot ", es: "no se puede ") + purpose.words
                + Words(": writing the temporary file failed (", es: ": falló la escritura del archivo temporal (") + reason.words + Words(verbatim: ")")
        case .cannotSpool(let path, let reason):
            return Words("cannot spool ", es: "no se puede volcar ") + Words.path(path)
                + Words(" to a temporary file: ", es: " a un archivo temporal: ") + reason.words
        case .cannotWriteDeadTokenFile(let path, let reason):
            return Words("could not write the dead-token file '\(path)': ", es: "no se pudo escribir el archivo de tokens muertos '\(path)': ")
                + reason.words + Words("; the dead tokens are in the results", es: "; los tokens muertos están en los resultados")
        case .notAResultsFile(let path):
            let shown = OutsideText.display(path, limit: 200)
            return Words(
                "cannot read the journal or results file '\(shown)': it is not a regular file or a pipe",
                es: "no se puede leer el diario o archivo de resultados '\(shown)': no es un archivo normal ni una tubería")
        case .noDeviceResults(let paths):
            let shown = paths.map { "'\(OutsideText.display($0, limit: 120))'" }.joined(separator: ", ")
            return Words("no device results in \(shown)", es: "no hay resultados de dispositivos en \(shown)")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .exists(let file, _):
            return file == .signingKey
                ? Words("choose another \(Setting.outputFolder) or \(Setting.keyID)", es: "elige otro \(Setting.outputFolder) u otro \(Setting.keyID)")
                : Words("choose another \(Setting.outputFolder) directory", es: "elige otra carpeta para \(Setting.outputFolder)")
        case .noTemporaryFolder:
            return Words("set TMPDIR to a writable folder", es: "indica en TMPDIR una carpeta con permiso de escritura")
        case .noTemporaryFile:
            return Words("set TMPDIR to a writable directory", es: "apunta TMPDIR a una carpeta en la que se pueda escribir")
        case .temporaryWriteFailed:
            return Words("free some space, or set TMPDIR to a folder with room", es: "libera espacio o apunta TMPDIR a una carpeta con sitio")
        case .cannotSpool:
            return Words("check the space in $TMPDIR", es: "comprueba el espacio libre en $TMPDIR")
        case .notAFile:
            return Words("give the path of a regular file, or of one not made yet", es: "indica la ruta de un archivo normal, o de uno que aún no exista")
        case .cannotWrite(.stepSummary, _, _):
            return nil
        case .cannotWrite:
            return Words("give a path in a folder you can write", es: "indica una ruta en una carpeta donde puedas escribir")
        case .notAResultsFile:
            return Words(
                "give the journals (\(Setting.journal)) or the saved results themselves",
                es: "indica los diarios (\(Setting.journal)) o los resultados guardados en sí")
        case .noDeviceResults:
            return Words(
                "give the runs' journals (\(Setting.journal)) or their results as JSON Lines, one object a line",
                es: "indica los diarios de los envíos (\(Setting.journal)) o sus resultados en JSON Lines, un objeto por línea")
        case .folderIsAFile, .cannotMakeFolder, .cannotWriteDeadTokenFile:
            return nil
        }
    }

    /// "cannot write the signing key 'k.p8': "
    private static func cannotWrite(_ file: OutputFile, _ path: String) -> Words {
        let shown = OutsideText.display(path, limit: 200)
        return Words("cannot write ", es: "no se puede escribir ") + file.words + Words(verbatim: " '\(shown)': ")
    }
}
