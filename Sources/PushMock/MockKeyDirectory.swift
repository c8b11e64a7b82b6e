import Foundation
import NIOConcurrencyHelpers
import PushCore
import PushFiles
import PushSystem
import PushWords

/// A folder of provider keys for a class where nobody shares a private key: each student puts the
/// public half of their own key there (`KEYID.pem`, as `pushctl key generate` writes it; an
/// `AuthKey_KEYID.p8` works too), and the mock verifies their tokens with it.
///
/// Keys added, changed or removed while the mock runs are seen within a second: a lookup at most
/// once a second per key id looks at the folder (its modification time: a file added, removed or
/// renamed) and at that key's own file (written again in place). Only files that changed are
/// parsed again; a malformed one is warned about once (per version of the file) and skipped. At
/// most `fileLimit` keys, each file at most `sizeLimit` bytes.
final class MockKeyDirectory: Sendable {
    let path: String
    static let fileLimit = 20_000
    static let sizeLimit = 16 * 1024

    /// Identifies one version of a file (or of the folder's list of names).
    struct Stamp: Equatable {
        let inode: UInt64
        let size: Int64
        let seconds: Int64
        let nanoseconds: Int64
    }

    private struct Entry {
        let stamp: Stamp
        let keyID: String
        /// nil: the file is malformed (already warned about).
        let key: [UInt8]?
    }

    private struct State {
        var entries: [String: Entry] = [:]  // by file name
        var keys: [String: (file: String, key: [UInt8])] = [:]  // by key id
        var folder: Stamp?
        var checked: [String: Date] = [:]  // by key id looked up
    }

    private let state = NIOLockedValueBox(State())
    /// A scan runs at a time; lookups meanwhile answer from what is known.
    private let scanning = NIOLockedValueBox(false)
    private let warn: @Sendable (MockWarning) -> Void

    init(path: String, warn: @escaping @Sendable (MockWarning) -> Void = { _ in }) {
        self.path = path
        self.warn = warn
        scan()
    }

    /// The X9.63 public key for `kid` as the folder holds it now (looked at again at most once a
    /// second for each key id).
    func key(for kid: String) -> [UInt8]? {
        let now = Date()
        let (due, file) = state.withLockedValue { current -> (Bool, String?) in
            let last = current.checked[kid] ?? .distantPast
            guard now.timeIntervalSince(last) >= 1 else { return (false, nil) }
            if current.checked.count >= Self.fileLimit * 2 { current.checked.removeAll(keepingCapacity: true) }
            current.checked[kid] = now
            return (true, current.keys[kid]?.file)
        }
        if due {
            let folderChanged = Self.stamp(path) != state.withLockedValue { $0.folder }
            let fileChanged = file.map { name in Self.stamp(path + "/" + name) != state.withLockedValue { $0.entries[name]?.stamp } } ?? false
            if folderChanged || fileChanged { scan() }
        }
        return state.withLockedValue { $0.keys[kid]?.key }
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

    /// Reads the folder again: unchanged files keep their parsed key, changed ones are parsed
    /// again, removed ones are forgotten.
    private func scan() {
        guard
            scanning.withLockedValue({ busy in
                if busy { return false }
                busy = true
                return true
            })
        else { return }
        defer { scanning.withLockedValue { $0 = false } }
        let folder = Self.stamp(path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            state.withLockedValue { $0.folder = folder }
            return
        }
        let known = state.withLockedValue { $0.entries }
        var entries: [String: Entry] = [:]
        var problems: [MockWarning] = []
        for name in names.sorted() where entries.count < Self.fileLimit {
            guard let id = Self.keyID(fileName: name) else { continue }
            let file = path + "/" + name
            guard let stamp = Self.stamp(file, regularOnly: true) else { continue }
            if let old = known[name], old.stamp == stamp {
                entries[name] = old
                continue
            }
            guard stamp.size <= Self.sizeLimit else {
                problems.append(.keyFileTooLarge(name: name, limitKiB: Self.sizeLimit / 1024))
                entries[name] = Entry(stamp: stamp, keyID: id, key: nil)
                continue
            }
            guard let data = try? InputFiles.read(file, what: .keyFile),
                let key = try? MockProviderKey(keyID: id, pem: String(decoding: data, as: UTF8.self))
            else {
                problems.append(.keyFileNotAKey(name: name, keyID: id))
                entries[name] = Entry(stamp: stamp, keyID: id, key: nil)
                continue
            }
            entries[name] = Entry(stamp: stamp, keyID: id, key: key.publicKeyX963)
        }
        var keys: [String: (file: String, key: [UInt8])] = [:]
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard let key = entry.key, keys[entry.keyID] == nil else { continue }
            keys[entry.keyID] = (name, key)
        }
        state.withLockedValue { current in
            current.entries = entries
            current.keys = keys
            current.folder = folder
        }
        problems.forEach(warn)
    }

    /// The file's identity and version (following a link), nil when it is not there (or, with
    /// `regularOnly`, not a regular file).
    static func stamp(_ path: String, regularOnly: Bool = false) -> Stamp? {
        guard let info = FileSystem.status(path) else { return nil }
        if regularOnly && info.kind != .regular { return nil }
        return Stamp(inode: info.inode, size: info.size, seconds: info.modifiedSeconds, nanoseconds: info.modifiedNanoseconds)
    }
}
