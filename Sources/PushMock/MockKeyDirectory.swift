import Foundation
import NIOConcurrencyHelpers
import PushCore

/// A folder of provider keys for a class where nobody shares a private key: each student puts the
/// public half of their own key there (`KEYID.pem`, as `pushctl key generate` writes it; an
/// `AuthKey_KEYID.p8` works too), and the mock verifies their tokens with it. The folder is read
/// again when a token names a key id not seen yet, at most once a second; at most `fileLimit`
/// keys, each file at most `sizeLimit` bytes.
final class MockKeyDirectory: Sendable {
    let path: String
    static let fileLimit = 2000
    static let sizeLimit = 16 * 1024
    private struct State {
        var keys: [String: [UInt8]] = [:]
        var lastScan: Date = .distantPast
    }
    private let state = NIOLockedValueBox(State())

    init(path: String) {
        self.path = path
        rescan(force: true)
    }

    /// The X9.63 public key for `kid`, reading the folder again if it is new (rate-limited).
    func key(for kid: String) -> [UInt8]? {
        if let known = state.withLockedValue({ $0.keys[kid] }) { return known }
        rescan(force: false)
        return state.withLockedValue { $0.keys[kid] }
    }

    var keyIDs: [String] { state.withLockedValue { $0.keys.keys.sorted() } }

    /// The key id a file name carries: `KEYID.pem`, `AuthKey_KEYID.p8` or `AuthKey_KEYID.pem`.
    static func keyID(fileName name: String) -> String? {
        if let id = AppleIdentifier.keyID(fromKeyFileName: name) { return id }
        for suffix in [".pem", ".p8"] where name.hasSuffix(suffix) {
            var id = String(name.dropLast(suffix.count))
            if id.hasPrefix("AuthKey_") { id = String(id.dropFirst("AuthKey_".count)) }
            if AppleIdentifier.isWellFormed(id) { return id }
        }
        return nil
    }

    private func rescan(force: Bool) {
        let due = state.withLockedValue { current -> Bool in
            guard force || Date().timeIntervalSince(current.lastScan) >= 1 else { return false }
            current.lastScan = Date()
            return true
        }
        guard due, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        var found: [String: [UInt8]] = [:]
        for name in names.sorted().prefix(Self.fileLimit) {
            guard let id = Self.keyID(fileName: name) else { continue }
            let file = path + "/" + name
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                  (attributes[.size] as? Int ?? Int.max) <= Self.sizeLimit,
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let data = FileManager.default.contents(atPath: file),
                  let key = try? MockProviderKey(keyID: id, pem: String(decoding: data, as: UTF8.self))
            else { continue }
            found[id] = key.publicKeyX963
        }
        state.withLockedValue { $0.keys = found }
    }
}
