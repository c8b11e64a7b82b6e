/// What the mock APNs server listens for: itself, and the classroom's servers beside it.
public enum MockListener: Sendable, Equatable {
    /// The mock APNs itself (HTTP/2 over TLS).
    case apns
    /// The live web view.
    case webView
    /// The plain HTTP server of its CA certificate.
    case caCertificate

    /// The setting that picks its port.
    public var portSetting: Setting {
        switch self {
        case .apns: return .mockPort
        case .webView: return .webViewPort
        case .caCertificate: return .caPort
        }
    }
}

/// Why a port could not be listened on.
public enum ListenRefusal: Sendable, Equatable {
    /// Another server (another mock?) has it.
    case inUse
    /// A port below 1024, without administrator rights.
    case privileged
    /// The host is not an address of this machine.
    case noSuchAddress
    /// Any other reason: the system's text for it.
    case other(String)
}

/// A file the mock writes.
public enum MockOutputFile: Sendable, Equatable {
    /// The request log (one JSON line per request).
    case log
    /// The CA certificate clients trust.
    case caCertificate
}

/// What stops the mock APNs server from starting or writing its files: a port it cannot listen on,
/// a file it will not write. The catalog says each and what to do.
public enum MockServerProblem: InputProblem {
    /// `listener` cannot listen on `host` port `port`.
    case cannotListen(MockListener, host: String, port: Int, ListenRefusal)
    /// A symbolic link where the mock would write a file (it writes through none).
    case symbolicLink(MockOutputFile, path: String)
    /// The log file could not be opened for appending.
    case cannotOpenLog(path: String, SystemReason)
    /// No private folder for the CA certificate could be made in `base` (the temporary folder).
    case cannotMakeCAFolder(base: String, SystemReason)
}
