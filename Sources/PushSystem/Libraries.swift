#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shared libraries the user names (a PKCS#11 module): loaded to see that they can be, before a C
/// library that would load them anyway fails without saying why.
public enum SharedLibrary {
    /// dlopen(3) of `path` (RTLD_NOW | RTLD_LOCAL), then dlsym(3) of `symbol`: nil when both work,
    /// else dlerror(3)'s text. The library stays loaded, as its user loads it next. Loading runs
    /// the library's own code (its initialisers): only a path from trusted configuration is given.
    /// Darwin's `<dlfcn.h>` declares the same three calls and flags (`RTLD_NOW`, `RTLD_LOCAL` as Int32).
    public static func loadProblem(_ path: String, symbol: String) -> String? {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return lastError() ?? "dlopen failed" }
        guard dlsym(handle, symbol) != nil else { return lastError() ?? "\(symbol) not found" }
        return nil
    }

    private static func lastError() -> String? {
        guard let text = dlerror() else { return nil }
        return String(validatingCString: text)
    }
}
