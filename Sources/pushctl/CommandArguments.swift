import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushEngine

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
                Words("\(place) is not valid UTF-8 ('\(shown)'); pushctl would have to alter it",
                      es: "\(placeEs) no es UTF-8 válido ('\(shown)'); pushctl tendría que alterarlo"),
                hint: Words("check the terminal's or the script's encoding (UTF-8), or give the text in a payload file",
                            es: "comprueba la codificación de la terminal o del script (UTF-8), o da el texto en un archivo de carga útil"))
        }
    }
}
