import Foundation
import NIOConcurrencyHelpers
import PushCore
import PushSystem
import PushWords

/// What every connection of one server shares: the checks, the faults and their counters,
/// the journal, the broadcast channels. Thread-safe; the event loops call it concurrently.
final class MockServerCore: Sendable, FaultCounters {
    let check: RequestCheck
    let journal: RequestJournal
    let maxConcurrentStreams: Int
    let initialConcurrentStreams: Int
    let limits: MockProtocolLimits
    let broadcasts: MockBroadcasts
    let onLiveActivityProblem: (@Sendable (String) -> Void)?
    /// The language of what the mock says about a request.
    let language: Language
    let connectionLimit: Int
    let connectionsPerAddressLimit: Int
    let onAddressAtLimit: (@Sendable (String, Int) -> Void)?
    let clock: @Sendable () -> Double
    /// The APNs rules every connection applies, with this server's counters.
    var rules: APNsRules {
        APNsRules(check: check, maxConcurrentStreams: maxConcurrentStreams, broadcasts: broadcasts, counters: self, language: language)
    }

    private let faultsBox: NIOLockedValueBox<MockFaults>
    private let counters = NIOLockedValueBox(Counters())
    private let connectionCounter = NIOLockedValueBox(0)

    private struct Counters {
        var streamsSeen = 0
        var attempts: [DeviceToken: Int] = [:]
        var answersReplaced = 0
    }

    init(configuration: MockAPNsConfiguration, journal: RequestJournal) {
        check = RequestCheck(
            verifier: ProviderTokenVerifier(
                keys: configuration.providerKeys, directory: configuration.keyDirectory, teamID: configuration.teamID, onRefusal: configuration.onTokenRefused,
                onKeyFolderProblem: configuration.onKeyFolderProblem ?? { _ in }, language: configuration.language),
            environment: configuration.environment)
        self.journal = journal
        maxConcurrentStreams = configuration.maxConcurrentStreams
        initialConcurrentStreams = configuration.initialConcurrentStreams
        limits = configuration.limits
        broadcasts = MockBroadcasts(limit: configuration.channelLimit, language: configuration.language)
        language = configuration.language
        onLiveActivityProblem = configuration.onLiveActivityProblem
        connectionLimit = configuration.connectionLimit
        connectionsPerAddressLimit = configuration.connectionsPerAddressLimit
        onAddressAtLimit = configuration.onAddressAtLimit
        clock = configuration.clock
        faultsBox = NIOLockedValueBox(configuration.faults)
    }

    var faults: MockFaults {
        get { faultsBox.withLockedValue { $0 } }
        set {
            faultsBox.withLockedValue { $0 = newValue }
            counters.withLockedValue { $0 = Counters() }
        }
    }

    func nextConnectionID() -> Int {
        connectionCounter.withLockedValue {
            $0 += 1
            return $0
        }
    }

    private struct ConnectionCount {
        var open = 0
        var byAddress: [String: Int] = [:]
        /// Addresses told about (``onAddressAtLimit``) whose connections have not all gone yet.
        var reported: Set<String> = []
        /// The most open at once since the heap was last trimmed.
        var peak = 0
        var trimScheduled = false
    }

    private let connections = NIOLockedValueBox(ConnectionCount())
    private let trimQueue = DispatchQueue(label: "pushctl.mock.trim")

    private static func trimHeap() { Memory.returnFreePages() }

    /// Takes a new connection, or says no when ``MockAPNsConfiguration/connectionLimit`` are open,
    /// or ``MockAPNsConfiguration/connectionsPerAddressLimit`` from `address`.
    func connectionOpened(from address: String) -> Bool {
        let (taken, report) = connections.withLockedValue { count -> (Bool, Bool) in
            guard count.open < connectionLimit else { return (false, false) }
            guard count.byAddress[address, default: 0] < connectionsPerAddressLimit else {
                return (false, count.reported.insert(address).inserted)
            }
            count.open += 1
            count.byAddress[address, default: 0] += 1
            count.peak = max(count.peak, count.open)
            return (true, false)
        }
        if report { onAddressAtLimit?(address, connectionsPerAddressLimit) }
        return taken
    }

    /// When a burst of connections has gone (all of them, or a thousand since the peak), gives the
    /// heap's free pages back to the system: glibc otherwise keeps what 2,000 TLS connections
    /// freed, hundreds of MB, in its arenas for good.
    func connectionClosed(from address: String) {
        let trim = connections.withLockedValue { count -> Bool in
            count.open -= 1
            count.byAddress[address, default: 1] -= 1
            if count.byAddress[address] == 0 {
                count.byAddress[address] = nil
                count.reported.remove(address)
            }
            guard !count.trimScheduled, count.open == 0 || count.peak - count.open >= 1000 else { return false }
            count.trimScheduled = true
            return true
        }
        guard trim else { return }
        trimQueue.asyncAfter(deadline: .now() + .milliseconds(200)) { [connections] in
            Self.trimHeap()
            connections.withLockedValue { count in
                count.trimScheduled = false
                count.peak = count.open
            }
        }
    }

    func countStream() -> Int {
        counters.withLockedValue {
            $0.streamsSeen += 1
            return $0.streamsSeen
        }
    }

    func countReplacedAnswer() -> Int {
        counters.withLockedValue {
            $0.answersReplaced += 1
            return $0.answersReplaced
        }
    }

    func countAttempt(to token: DeviceToken) -> Int {
        counters.withLockedValue { counters -> Int in
            let next = (counters.attempts[token] ?? 0) + 1
            counters.attempts[token] = next
            return next
        }
    }
}
