import Foundation
import PushApp
public import PushCore
import PushEngine
import PushFiles
import PushMock
import PushSystem
import PushWords

/// What a running mock tells the person who started it, as it happens.
public struct MockReporters: Sendable {
    /// A provider token refused (once per token): the reason and which check failed.
    public var tokenRefused: @Sendable (RejectionReason, String) -> Void
    /// An address holds as many connections as it may (said once, until they have all gone).
    public var addressAtLimit: @Sendable (String, Int) -> Void
    /// A problem with the key folder or the log that does not stop the mock.
    public var warning: @Sendable (MockWarning) -> Void
    /// What a device would drop from an accepted Live Activity push.
    public var liveActivityProblem: @Sendable (String) -> Void
    /// What the phone will do with an accepted request's payload, judged against `--app`: the
    /// request's path and the findings, worst first.
    public var phoneFindings: @Sendable (String, [AppFinding]) -> Void = { _, _ in }

    public init(
        tokenRefused: @escaping @Sendable (RejectionReason, String) -> Void, addressAtLimit: @escaping @Sendable (String, Int) -> Void,
        warning: @escaping @Sendable (MockWarning) -> Void, liveActivityProblem: @escaping @Sendable (String) -> Void
    ) {
        self.tokenRefused = tokenRefused
        self.addressAtLimit = addressAtLimit
        self.warning = warning
        self.liveActivityProblem = liveActivityProblem
    }
}

/// One run of `pushctl mock`: the server, the classroom's side (the CA file, the web view) and the
/// CA certificate on disk, started from ``MockSettings``; the banner to print; the stop.
///
/// A struct: as a public final class, it made Swift 6.3.1 crash optimizing pushctl-mock in a
/// release build (DeadFunctionAndGlobalElimination, with cross-module optimization).
public struct MockSession: Sendable {
    /// What to print once it listens (``BannerLayout/fitted(_:width:)`` fits it to a screen).
    public let banner: String
    private let server: MockAPNsServer
    private let classroom: Classroom
    private let caPath: String
    /// The folder made for the CA certificate (removed at the stop), when there was no `caOut`.
    private let caFolder: String?

    /// Starts everything, or stops what it started and throws: ``InputError`` for what the person
    /// can fix (its `kind` says the exit status).
    public static func start(_ settings: MockSettings, reporters: MockReporters) async throws -> MockSession {
        let faults = try settings.faults()
        var keys: [MockProviderKey] = []
        var clientCAPEMs: [String] = []
        for spec in settings.keyFiles { keys.append(try MockProviderKey.load(spec: spec)) }
        if let keyDir = settings.keyDirectory {
            guard FileOutput.isDirectory(keyDir) else {
                throw InputError(MockSettingProblem.keyFolderNotAFolder(path: keyDir), kind: .missingInput)
            }
        }
        for path in settings.clientCAPaths { clientCAPEMs.append(try MockSettings.readClientCA(path)) }

        // Beyond loopback, the certificate names every address of this machine and its name.
        let certificateNames = MockNetwork.certificateNames(listeningOn: settings.host, extra: settings.extraNames)
        let lens = try settings.appPath.map { path throws(InputError) in
            MockSettings.phoneLens(try AppReader().read(path), locale: settings.locale, environment: settings.environment)
        }
        let web = settings.webPort.map { _ in MockWebView(language: settings.language, lens: lens) }
        let server: MockAPNsServer
        do {
            var configuration = MockAPNsConfiguration(
                host: settings.host, port: settings.port, providerKeys: keys, teamID: settings.teamID,
                maxConcurrentStreams: settings.maxStreams, initialConcurrentStreams: settings.initialStreams, logPath: settings.logPath, faults: faults,
                recordLimit: 0, limits: settings.limits, connectionLimit: settings.maxConnections, onTokenRefused: reporters.tokenRefused)
            configuration.language = settings.language
            configuration.connectionsPerAddressLimit = settings.maxConnectionsPerAddress
            configuration.onAddressAtLimit = reporters.addressAtLimit
            configuration.clientCAPEMs = clientCAPEMs
            configuration.keyDirectory = settings.keyDirectory
            configuration.onKeyFolderProblem = reporters.warning
            configuration.logSizeLimit = Int64(settings.logMaxSizeMiB) << 20
            configuration.onLogProblem = reporters.warning
            configuration.environment = settings.environment
            configuration.channelLimit = max(0, min(settings.channelLimit, 1_000_000))
            configuration.onLiveActivityProblem = reporters.liveActivityProblem
            configuration.certificateNames = certificateNames
            if web != nil || lens != nil {
                // Each request to the web view, and what the phone will do with it to the terminal.
                let phoneFindings = reporters.phoneFindings
                configuration.onRecord = { record in
                    web?.publish(record)
                    guard let lens, (200...299).contains(record.status), let payload = try? JSONValue.parse(Array(record.body.utf8)) else { return }
                    let findings = lens.findings(payload, record.header(APNsHeader.pushType).flatMap(PushType.init(rawValue:)))
                    if !findings.isEmpty { phoneFindings(record.path, findings) }
                }
            }
            server = try await MockAPNsServer.start(configuration)
        } catch let error as InputError {
            await web?.shutdown()
            throw error
        }
        let classroom: Classroom
        do {
            classroom = try await settings.startClassroom(server: server, web: web, certificateNames: certificateNames)
        } catch let error as InputError {
            await web?.shutdown()
            try? await server.shutdown()
            throw error
        }

        let (caPath, caFolder): (String, String?)
        do throws(InputError) {
            (caPath, caFolder) = try settings.writeCACertificate(server.caCertificatePEM, port: server.port)
        } catch {
            await classroom.shutdown()
            try? await server.shutdown()
            throw error
        }
        let banner = settings.banner(caPath: caPath, caPEM: server.caCertificatePEM, keys: keys, faults: faults, classroom: classroom)
        return MockSession(banner: banner, server: server, classroom: classroom, caPath: caPath, caFolder: caFolder)
    }

    /// Stops the servers, writes what is left of the log, and removes the CA folder made for this run.
    public func stop() async throws {
        await classroom.shutdown()
        try await server.shutdown()
        if let caFolder {
            FileSystem.remove(caPath)
            FileSystem.removeDirectory(caFolder)
        }
    }
}

extension MockSettings {
    /// Writes the CA certificate to --ca-out (a symbolic link there refused), else into a private
    /// folder made for this run (``privateFolder(port:)``); its path. Written whole to a new file
    /// renamed into place: nothing is opened through a link, even one planted meanwhile. Its
    /// path, and the folder made for it (removed at the end) when there was no --ca-out.
    func writeCACertificate(_ pem: String, port: Int) throws(InputError) -> (path: String, folder: String?) {
        if let caOut { try MockOutputFiles.refuseSymbolicLink(caOut, .caCertificate) }
        let folder = caOut == nil ? try Self.privateFolder(port: port) : nil
        let path = caOut ?? (folder ?? "") + "/mock-ca.pem"
        do { try OutputFiles.replace(Array(pem.utf8), at: path, .caCertificate, mode: 0o644) } catch {
            if let folder { FileSystem.removeDirectory(folder) }
            throw error
        }
        return (path, folder)
    }

    /// A new folder only this user can enter (mkdtemp, 0700), `pushctl-mock-PORT-XXXXXX`: in
    /// $XDG_RUNTIME_DIR when it is this user's and private, else in TMPDIR (/tmp). A name anyone
    /// can predict in a shared folder could already be a link to another file.
    static func privateFolder(port: Int) throws(InputError) -> String {
        let base = ProcessEnvironment.value("XDG_RUNTIME_DIR").flatMap { isPrivateFolder($0) ? $0 : nil } ?? FileManager.default.temporaryDirectory.path
        let prefix = (base.hasSuffix("/") ? base : base + "/") + "pushctl-mock-\(port)-"
        guard let folder = FileSystem.makeTemporaryFolder(pathPrefix: prefix) else {
            throw InputError(MockServerProblem.cannotMakeCAFolder(base: base, SystemError.code(Errno.current)), kind: .cannotCreateOutput)
        }
        return folder
    }

    /// A folder (not a link to one) owned by this user, which nobody else may enter or write.
    static func isPrivateFolder(_ path: String) -> Bool {
        guard path.hasPrefix("/"), let status = FileSystem.linkStatus(path) else { return false }
        return status.kind == .directory && status.owner == CurrentProcess.effectiveUser && status.permissions & 0o077 == 0
    }
}
