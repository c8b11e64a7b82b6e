public import PushCore
import PushWords

/// A CA certificate file to trust besides the system's (`pushctl mock` writes one).
public enum CACertificateFile {
    /// Reads it through the one file reader, and says what is wrong with it before anything connects.
    public static func check(_ path: String) throws(InputError) {
        let bytes = try InputFiles.read(path, what: "CA certificate file")
        let shown = OutsideText.display(path, limit: 200)
        guard !bytes.allSatisfy(\.isASCIIWhitespace) else {
            throw InputError(
                Words("the CA file '\(shown)' is empty", es: "el archivo de la CA '\(shown)' está vacío"),
                hint: Words(
                    "pass the CA certificate in PEM form, e.g. \(Setting.mockCA)",
                    es: "indica el certificado de la CA en formato PEM, p. ej. \(Setting.mockCA)"))
        }
        guard PastedForm.contains(bytes, PastedForm.pemCertificateMarker) else {
            throw InputError(
                Words("the CA file '\(shown)' holds no PEM certificate", es: "el archivo de la CA '\(shown)' no contiene ningún certificado PEM"),
                hint: Words(
                    "pass the CA certificate in PEM form, e.g. \(Setting.mockCA)",
                    es: "indica el certificado de la CA en formato PEM, p. ej. \(Setting.mockCA)"))
        }
    }
}
