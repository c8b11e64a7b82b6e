/// One of N parts of a list of device tokens, so that N machines (a CI matrix, an indexed job)
/// each send their part and together send every token exactly once.
///
/// A token belongs to shard K of N when the 64-bit FNV-1a hash of its lower-case hex is K − 1
/// modulo N: stable across machines, runs and versions, and independent of the token's place in
/// the list, so every machine may read the same whole list.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1 to `count`.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(InputError) {
        guard (1...10_000).contains(count), (1...count).contains(index) else {
            throw InputError(ShardProblem.outOfRange(index: index, count: count), kind: .usage)
        }
        self.index = index
        self.count = count
    }

    /// `K/N`, e.g. `2/4`.
    public init(parsing text: String) throws(InputError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw InputError(ShardProblem.notKN(shown: OutsideText.display(text, limit: 20)), kind: .usage)
        }
        try self.init(index: k, count: n)
    }

    public func contains(_ token: DeviceToken) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in token.hex.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(count)) == index - 1
    }

    public var description: String { "\(index)/\(count)" }
}

/// What is wrong with a shard (`K/N`, `auto`, `auto/N`).
public enum ShardProblem: InputProblem {
    /// Not 1 ≤ K ≤ N ≤ 10000.
    case outOfRange(index: Int, count: Int)
    /// Not of the form K/N, auto or auto/N.
    case notKN(shown: String)
    /// `auto`, and no engine's index variable is set.
    case noEngine
    /// `auto`, and more than one engine's index variable is set (their names).
    case severalEngines([String])
    /// An engine's variable set but empty.
    case variableEmpty(name: String)
    /// An engine's variable that is not a whole number.
    case variableNotNumber(name: String, shown: String)
    /// An index outside what the count allows (`lowest...highest`, in the engine's own numbering).
    case indexOutOfRange(name: String, value: Int, lowest: Int, highest: Int)
    /// A count variable that is 0 or more than 10000.
    case countOutOfRange(name: String, value: Int)
    /// The engine's index is set and its count is not: `auto/N` gives it (Kubernetes never sets one).
    case countNeeded(ShardEngine, index: String)
    /// `auto/N` against an engine's count that says otherwise.
    case countDisagrees(name: String, value: Int, given: Int)
}

/// The job engines whose variables `--shard auto` reads: each runs N copies of one job and tells
/// each copy its index (and, but for Kubernetes, the count).
public enum ShardEngine: String, Sendable, CaseIterable {
    /// A `parallel: N` job: `CI_NODE_INDEX` (1 to N) and `CI_NODE_TOTAL`.
    case gitLab
    /// An array job: `AWS_BATCH_JOB_ARRAY_INDEX` (0 to N − 1) and `AWS_BATCH_JOB_ARRAY_SIZE`.
    case awsBatch
    /// An Indexed Job: `JOB_COMPLETION_INDEX` (0 to N − 1); the count is the Job's `completions`,
    /// which no variable carries.
    case kubernetes

    public var indexVariable: String {
        switch self {
        case .gitLab: "CI_NODE_INDEX"
        case .awsBatch: "AWS_BATCH_JOB_ARRAY_INDEX"
        case .kubernetes: "JOB_COMPLETION_INDEX"
        }
    }

    public var countVariable: String? {
        switch self {
        case .gitLab: "CI_NODE_TOTAL"
        case .awsBatch: "AWS_BATCH_JOB_ARRAY_SIZE"
        case .kubernetes: nil
        }
    }

    /// What the engine calls its first copy: 1 (GitLab) or 0.
    public var firstIndex: Int { self == .gitLab ? 1 : 0 }
}

/// The shard a run sends, and where it came from: typed (`K/N`), or read from a job engine's
/// variables (`auto`, `auto/N`), which a run says on stderr.
public struct ShardChoice: Sendable, Equatable {
    public let shard: Shard
    /// The engine whose variables gave it (nil: typed as K/N).
    public let engine: ShardEngine?
    /// The variables read, as `NAME=value`, in the order they were read.
    public let variables: [String]
    /// `auto/N`: the count given with `auto`.
    public let givenCount: Int?

    /// `K/N`, `auto` or `auto/N`; `auto` reads `environment`.
    public init(parsing text: String, environment: EnvironmentVariables) throws(InputError) {
        guard text == "auto" || text.hasPrefix("auto/") else {
            self.init(shard: try Shard(parsing: text))
            return
        }
        var given: Int?
        if text != "auto" {
            let count = text.dropFirst("auto/".count)
            guard let n = ShardChoice.number(count) else {
                throw InputError(ShardProblem.notKN(shown: OutsideText.display(text, limit: 20)), kind: .usage)
            }
            guard (1...10_000).contains(n) else { throw InputError(ShardProblem.outOfRange(index: 1, count: n), kind: .usage) }
            given = n
        }
        let set = ShardEngine.allCases.filter { environment[$0.indexVariable] != nil }
        guard let engine = set.first else { throw InputError(ShardProblem.noEngine, kind: .usage) }
        guard set.count == 1 else { throw InputError(ShardProblem.severalEngines(set.map(\.indexVariable)), kind: .usage) }
        try self.init(engine: engine, given: given, environment: environment)
    }

    init(shard: Shard) {
        self.shard = shard
        engine = nil
        variables = []
        givenCount = nil
    }

    /// The engine's index, and its count (or `given`), checked against each other.
    init(engine: ShardEngine, given: Int?, environment: EnvironmentVariables) throws(InputError) {
        let indexText = try ShardChoice.variable(engine.indexVariable, environment)
        var read = ["\(engine.indexVariable)=\(indexText)"]
        var count = given
        if let name = engine.countVariable, environment[name] != nil {
            let countText = try ShardChoice.variable(name, environment)
            read.append("\(name)=\(countText)")
            let total = Int(countText)!
            guard (1...10_000).contains(total) else { throw InputError(ShardProblem.countOutOfRange(name: name, value: total), kind: .usage) }
            if let given, given != total { throw InputError(ShardProblem.countDisagrees(name: name, value: total, given: given), kind: .usage) }
            count = total
        }
        guard let count else { throw InputError(ShardProblem.countNeeded(engine, index: indexText), kind: .usage) }
        let index = Int(indexText)!
        let highest = engine.firstIndex + count - 1
        guard (engine.firstIndex...highest).contains(index) else {
            throw InputError(ShardProblem.indexOutOfRange(name: engine.indexVariable, value: index, lowest: engine.firstIndex, highest: highest), kind: .usage)
        }
        shard = try Shard(index: index - engine.firstIndex + 1, count: count)
        self.engine = engine
        variables = read
        givenCount = given
    }

    /// A variable's value, a whole number of at most 6 digits (empty and anything else refused by name).
    static func variable(_ name: String, _ environment: EnvironmentVariables) throws(InputError) -> String {
        let value = environment[name] ?? ""
        guard !value.isEmpty else { throw InputError(ShardProblem.variableEmpty(name: name), kind: .usage) }
        guard let number = number(Substring(value)) else {
            throw InputError(ShardProblem.variableNotNumber(name: name, shown: OutsideText.display(value, limit: 20)), kind: .usage)
        }
        return String(number)
    }

    /// Decimal digits only (no sign, no space), at most 6 of them.
    static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
