import ArgumentParser
import PushEngine
import PushWords
import PushctlCommandLine

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
                let key = try TestMaterials.writeKey(keyID: keyId, out: out)
                let also = key.publicPath.map { Words(", and its public half \($0)", es: ", y su mitad pública \($0)") } ?? Words(verbatim: "")
                Console.out(key.path)
                Console.say(
                    Words(
                        "wrote a test P-256 key, key id \(key.keyID), mode 0600\(also). This is NOT an Apple key: APNs will refuse tokens it signs (InvalidProviderToken). Use it with `pushctl mock` (a class mock's --key-dir takes the public half) or `pushctl jwt --explain`.",
                        es:
                            "creada una clave P-256 de prueba, key id \(key.keyID), modo 0600\(also). NO es una clave de Apple: APNs rechazará los tokens que firme (InvalidProviderToken). Úsala con `pushctl mock` (el --key-dir de un mock de clase recibe la mitad pública) o `pushctl jwt --explain`."
                    ))
            }
        }
    }
}
