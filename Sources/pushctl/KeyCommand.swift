import ArgumentParser
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make test keys.",
        discussion: """
            Examples:
              pushctl key generate                    # AuthKey_<random id>.p8 here
              pushctl key generate --key-id TEST123456 --out keys/
              pushctl mock --key-file keys/AuthKey_TEST123456.p8 --team-id DEF123GHIJ
            """,
        subcommands: [Generate.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write a test P-256 key in Apple's .p8 form (AuthKey_<ID>.p8, mode 0600). It is not an Apple key.",
            discussion: """
                APNs only accepts keys made in your Apple Developer account; a generated key is for
                `pushctl mock`, `pushctl demo`, tests and class. Prints the path of the new file.

                Examples:
                  pushctl key generate
                  pushctl key generate --key-id TEST123456 --out keys/
                """)

        @Option(help: ArgumentHelp("The 10-character key id to name it by (default: random).", valueName: "id"))
        var keyId: String?

        @Option(help: ArgumentHelp("A directory, or the file to write (default: the current directory).", valueName: "path"), completion: .file())
        var out: String?
        @OptionGroup var language: LanguageOption

        func run() throws {
            try reportingErrors {
                var generator = SystemRandomNumberGenerator()
                let keyID = try AppleIdentifier(.keyID, keyId ?? AppleIdentifier.random(using: &generator))
                let fileName = "AuthKey_\(keyID).p8"
                let path: String
                if let out, FileOutput.isDirectory(out) {
                    path = out.hasSuffix("/") ? out + fileName : out + "/" + fileName
                } else if let out, out.hasSuffix("/") || !(out.split(separator: "/").last?.contains(".") ?? false) {
                    // A folder that is not there yet (`--out keys/`): made, private, then the key in it.
                    try OutputFolder.make(out)
                    path = out.hasSuffix("/") ? out + fileName : out + "/" + fileName
                } else {
                    if let out, let slash = out.lastIndex(of: "/"), slash != out.startIndex { try OutputFolder.make(String(out[..<slash])) }
                    path = out ?? fileName
                }
                let key = ES256PrivateKey.generate()
                try write(key.pkcs8PEM, to: path)
                // The public half beside it, KEYID.pem: what a class mock's --key-dir takes (never the .p8).
                let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) + "/" : ""
                let publicPath = folder + "\(keyID).pem"
                let wrotePublic = (try? writePublic(key.publicKey.pem, to: publicPath)) != nil
                Console.out(path)
                Console.say(Words("wrote a test P-256 key, key id \(keyID), mode 0600\(wrotePublic ? ", and its public half \(publicPath)" : ""). This is NOT an Apple key: APNs will refuse tokens it signs (InvalidProviderToken). Use it with `pushctl mock` (a class mock's --key-dir takes the public half) or `pushctl jwt --explain`.",
                                  es: "creada una clave P-256 de prueba, key id \(keyID), modo 0600\(wrotePublic ? ", y su mitad pública \(publicPath)" : ""). NO es una clave de Apple: APNs rechazará los tokens que firme (InvalidProviderToken). Úsala con `pushctl mock` (el --key-dir de un mock de clase recibe la mitad pública) o `pushctl jwt --explain`."))
            }
        }

        /// The public half, mode 0644, never over an existing file.
        func writePublic(_ pem: String, to path: String) throws {
            guard FileOutput.writeNew(Array(pem.utf8), to: path, mode: 0o644) == nil else {
                throw InputError(Words("cannot write '\(path)'", es: "no se puede escribir '\(path)'"), kind: .cannotCreateOutput)
            }
        }

        /// Creates the file with mode 0600 from the start (never world-readable, even briefly),
        /// and never replaces an existing key.
        func write(_ pem: String, to path: String) throws(InputError) {
            guard let code = FileOutput.writeNew(Array(pem.utf8), to: path, mode: 0o600) else { return }
            let reason = code == Errno.exists ? Words("it already exists (pushctl never overwrites a key)", es: "ya existe (pushctl nunca sobrescribe una clave)") : SystemError.reason(code)
            throw InputError(Words("cannot write '\(path)': \(reason.en)", es: "no se puede escribir '\(path)': \(reason.es)"),
                             hint: code == Errno.exists ? Words("choose another --out or --key-id", es: "elige otro --out u otro --key-id") : nil, kind: .cannotCreateOutput)
        }
    }
}

/// Output folders the user names (`--out keys/`): made when missing, like `mkdir -p`, each new
/// level mode 0700 (a key goes in); an existing path that is not a folder is refused.
enum OutputFolder {
    static func make(_ path: String) throws(InputError) {
        var built = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            built += (built.isEmpty || built.hasSuffix("/") ? "" : "/") + part
            if let info = FileSystem.status(built) {
                guard info.kind == .directory else {
                    throw InputError(Words("cannot make the folder '\(OutsideText.display(path))': '\(OutsideText.display(built))' is a file",
                                           es: "no se puede crear la carpeta '\(OutsideText.display(path))': '\(OutsideText.display(built))' es un archivo"),
                                     kind: .cannotCreateOutput)
                }
                continue
            }
            guard FileSystem.makeDirectory(built, mode: 0o700) || Errno.current == Errno.exists else {
                let reason = SystemError.reason(Errno.current)
                throw InputError(Words("cannot make the folder '\(OutsideText.display(built))': \(reason.en)",
                                       es: "no se puede crear la carpeta '\(OutsideText.display(built))': \(reason.es)"), kind: .cannotCreateOutput)
            }
        }
    }
}
