import Foundation
import PushApp
import PushCore
import PushMock
import PushMockSession
import PushWords

/// The demo's app: one Swift file declaring a Live Activity, written into the demo's private
/// folder and read as `--app` reads an app's project folder.
struct DemoApp {
    /// What the class sees on the projector, and what the file holds.
    static let declaration = """
        struct MatchAttributes: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                var score: String
                var endsAt: Date
            }
            var homeTeam: String
        }
        """

    let check: AppCheck
    let lens: PhoneLens

    /// Writes the app's file under `folder` and reads the folder back.
    static func write(in folder: String) throws(InputError) -> DemoApp {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try Data(("import ActivityKit\n\n" + declaration + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/MatchActivity.swift"))
        } catch {
            throw InputError(
                Words("cannot write the demo's app in \(folder)", es: "no se puede escribir la app de la demo en \(folder)"),
                hint: Words("set TMPDIR to a writable directory", es: "define TMPDIR como una carpeta en la que se pueda escribir"),
                kind: .cannotCreateOutput)
        }
        let profile = try AppReader().read(folder)
        return DemoApp(check: AppCheck(app: profile), lens: MockSettings.phoneLens(profile, locale: nil, environment: .sandbox))
    }
}
