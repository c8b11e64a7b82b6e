public import PushCore

// Device tokens, and what people paste where one belongs.

extension DeviceTokenProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .pasted(let shown, let form):
            return Words("device token '\(shown)': ", es: "token del dispositivo '\(shown)': ") + form.words
        case .jsonObject(let shown):
            return Words("'\(shown)' is a JSON object, not a device token", es: "'\(shown)' es un objeto JSON, no un token del dispositivo")
        case .quoted(let shown, _):
            return Words("device token '\(shown)' is in quotes", es: "el token del dispositivo '\(shown)' está entre comillas")
        case .severalTokens(let shown, let count, let separator):
            let shownSeparator = Self.shown(separator)
            return Words(
                "'\(shown)' looks like \(count) device tokens separated by '\(shownSeparator)'",
                es: "'\(shown)' parece \(count) tokens del dispositivo separados por '\(shownSeparator)'")
        case .spreadsheetRow(let shown, let column, _):
            return Words(
                "'\(shown)' looks like a spreadsheet row; the device token is its column \(column)",
                es: "'\(shown)' parece una fila de una hoja de cálculo; el token del dispositivo es su columna \(column)")
        case .columnHeader(let shown):
            return Words(
                "'\(shown)' looks like a column's header, not a device token", es: "'\(shown)' parece la cabecera de una columna, no un token del dispositivo")
        case .dataValue(let shown):
            return Words("'\(shown)' is how Swift prints a Data value, not the token", es: "'\(shown)' es como Swift imprime un valor Data, no el token")
        case .notHex(let shown, let character, let position):
            return Words(
                "device token '\(shown)' has '\(character)' at position \(position); a token is hex (0-9, a-f)",
                es: "el token del dispositivo '\(shown)' tiene '\(character)' en la posición \(position); un token es hexadecimal (0-9, a-f)")
        case .tooLong(let shown):
            return Words(
                "device token '\(shown)' is longer than \(DeviceToken.maxHexLength) hex digits; Apple's are 64",
                es: "el token del dispositivo '\(shown)' tiene más de \(DeviceToken.maxHexLength) dígitos hexadecimales; los de Apple tienen 64")
        case .empty:
            return Words("the device token is empty", es: "el token del dispositivo está vacío")
        case .grouped(let shown):
            return Words(
                "'\(shown)' looks like more than one device token (digits separated by spaces)",
                es: "'\(shown)' parece más de un token del dispositivo (dígitos separados por espacios)")
        case .oddLength(let shown, let digits):
            return Words(
                "device token '\(shown)' has an odd number of hex digits (\(digits)); a token is whole bytes",
                es: "el token del dispositivo '\(shown)' tiene un número impar de dígitos hexadecimales (\(digits)); un token son bytes completos")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .pasted, .dataValue:
            return PastedForm.printTheToken
        case .jsonObject:
            return Words(
                "with a payload on each line, give the file as \(Setting.requestsFile); for the tokens alone: jq -r .token tokens.jsonl > tokens.txt",
                es: "con una carga útil en cada línea, da el archivo como \(Setting.requestsFile); solo los tokens: jq -r .token tokens.jsonl > tokens.txt")
        case .quoted(_, let quote):
            let strip = quote == "'" ? "\"'\"" : "'\"'"
            return Words(
                "give it without them (a tokens file: tr -d \(strip) < tokens.csv > tokens.txt)",
                es: "dalo sin ellas (un archivo de tokens: tr -d \(strip) < tokens.csv > tokens.txt)")
        case .severalTokens(_, _, let separator):
            let shownSeparator = Self.shown(separator)
            return Words(
                "give one token per \(Setting.deviceToken), or one per line in a tokens file: tr '\(shownSeparator)' '\\n' < tokens.csv > tokens.txt",
                es:
                    "da un token por cada \(Setting.deviceToken), o uno por línea en un archivo de tokens: tr '\(shownSeparator)' '\\n' < tokens.csv > tokens.txt"
            )
        case .spreadsheetRow(_, let column, let separator):
            let cut = separator == "\t" ? "cut -f\(column)" : "cut -d'\(separator)' -f\(column)"
            return Words(
                "a tokens file holds only tokens, one per line: \(cut) tokens.csv > tokens.txt",
                es: "un archivo de tokens solo lleva tokens, uno por línea: \(cut) tokens.csv > tokens.txt")
        case .columnHeader:
            return Words(
                "a tokens file holds only tokens: leave the header out (tail -n +2 tokens.csv > tokens.txt)",
                es: "un archivo de tokens solo lleva tokens: quita la cabecera (tail -n +2 tokens.csv > tokens.txt)")
        case .notHex:
            return Words(
                "copy the token as your app printed it (the hex of the Data from didRegisterForRemoteNotificationsWithDeviceToken)",
                es: "copia el token tal como lo imprimió tu app (el hexadecimal del Data de didRegisterForRemoteNotificationsWithDeviceToken)")
        case .tooLong:
            return Words(
                "check that this is one device token (one per line in a tokens file)",
                es: "comprueba que sea un solo token del dispositivo (uno por línea en un archivo de tokens)")
        case .empty:
            return Words(
                "pass the hex token your app received from registerForRemoteNotifications",
                es: "indica el token hexadecimal que tu app recibió de registerForRemoteNotifications")
        case .grouped:
            return Words(
                "give one token per \(Setting.deviceToken), or one per line in a tokens file",
                es: "da un token por cada \(Setting.deviceToken), o uno por línea en un archivo de tokens")
        case .oddLength:
            return Words("check that no character was lost when copying it", es: "comprueba que no se perdió ningún carácter al copiarlo")
        }
    }

    /// A separator as a command line writes it (a tab as `\t`).
    private static func shown(_ separator: String) -> String { separator == "\t" ? "\\t" : separator }
}

extension PastedForm {
    /// How to print the token in the app.
    public static let printTheToken = Words(
        "in the app, print the hex: deviceToken.map { String(format: \"%02x\", $0) }.joined()",
        es: "en la app, imprime el hexadecimal: deviceToken.map { String(format: \"%02x\", $0) }.joined()")
}

extension PastedForm.NotADeviceToken {
    public var words: Words {
        switch self {
        case .dataDescription:
            return Words(
                "this is how iOS 13 and later print a Data value ({length = 32, bytes = 0x… }), shortened with '...': it is not the token",
                es: "así imprime iOS 13 o posterior un valor Data ({length = 32, bytes = 0x… }), abreviado con '...': no es el token")
        case .uuid:
            return Words(
                "this is a UUID (an identifierForVendor, a Simulator's UDID or an apns-id), not a device token",
                es: "esto es un UUID (un identifierForVendor, el UDID de un simulador o un apns-id), no un token del dispositivo")
        case .fcmToken:
            return Words(
                "this is a Firebase Cloud Messaging (FCM) registration token, not an APNs device token: send it through FCM, or print the APNs token your app gets from iOS",
                es:
                    "esto es un token de registro de Firebase Cloud Messaging (FCM), no un token del dispositivo de APNs: envíalo por FCM, o imprime el token de APNs que tu app recibe de iOS"
            )
        case .base64(let count, let hex):
            return Words(
                "this is base64 (\(count) bytes), not hex; the same bytes in hex are \(hex)",
                es: "esto es base64 (\(count) bytes), no hexadecimal; los mismos bytes en hexadecimal son \(hex)")
        }
    }
}

extension PastedForm.EncodingMark: WordedProblem {
    public var words: Words {
        switch self {
        case .byteOrderMark:
            return Words(
                "a byte order mark (BOM) at the start: save the file as UTF-8 without BOM",
                es: "una marca de orden de bytes (BOM) al principio: guarda el archivo como UTF-8 sin BOM")
        case .utf16:
            return Words(
                "the file is UTF-16 (what Windows calls \"Unicode\"): save it as UTF-8",
                es: "el archivo está en UTF-16 (lo que Windows llama \"Unicode\"): guárdalo como UTF-8")
        }
    }
}

extension PastedForm.Certificate {
    public var name: Words {
        switch self {
        case .pkcs12: Words("a PKCS#12 file (.p12: a certificate with its key)", es: "un archivo PKCS#12 (.p12: un certificado con su clave)")
        case .der: Words("a certificate in DER form (like Apple's aps.cer)", es: "un certificado en formato DER (como el aps.cer de Apple)")
        case .pem: Words("a PEM certificate", es: "un certificado PEM")
        }
    }
}
