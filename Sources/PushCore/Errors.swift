/// What was wrong with what the user gave, as a code with its parameters: each area of the core
/// has its own enum of them (`PayloadProblem`, `DeviceTokenProblem`, `HeaderProblem`…), and a
/// library caller branches on the case. The words are not the core's: the catalog in PushWords
/// says each case, and what to do about it, in every language pushctl speaks.
public protocol InputProblem: Sendable, Equatable {}

/// Where a problem was: prefixed to its words ("AuthKey_X.p8: …", "tokens.txt, line 3: …").
public enum ProblemPlace: Sendable, Equatable {
    /// A file, a path or any name, shown as given.
    case named(String)
    /// A line of a file (1-based).
    case line(String, Int)
}

/// A problem with what the user gave: what was wrong (a typed code), where, and what kind of
/// problem it is.
///
/// The core says what kind of problem it is; the command line alone turns that into an exit
/// status (sysexits) and into its own words for flags.
public struct InputError: Error, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The request itself is malformed (missing or conflicting options).
        case usage
        /// Bad data (payload, token, header value, key contents): nothing was sent.
        case badData
        /// An input file is missing or unreadable: nothing was sent.
        case missingInput
        /// An output file could not be created or written.
        case cannotCreateOutput
        /// A service or a companion program could not be reached or started.
        case unavailable
        /// Worth trying again later (the input changed under the run, retries ran out).
        case temporaryFailure
    }

    /// What was wrong: one of the core's problem enums, or words a module above said.
    public var problem: any InputProblem { backing.problem }
    public let kind: Kind
    /// Where it was, the outermost first (`at(_:)` adds one in front).
    public private(set) var places: [ProblemPlace] = []

    /// The problem behind a reference (as jwt-kit's `JWTError` keeps its backing): an existential
    /// held inline would make every value that can carry an `InputError` (a transport failure, an
    /// attempt's outcome, a result) an address-only type, copied through its metadata on each push.
    private final class Backing: Sendable {
        let problem: any InputProblem
        init(_ problem: any InputProblem) { self.problem = problem }
    }
    private let backing: Backing

    public init(_ problem: some InputProblem, kind: Kind = .badData) {
        backing = Backing(problem)
        self.kind = kind
    }

    /// The same problem, said with where it was: "AuthKey_X.p8: …", "tokens.txt, line 3: …".
    public func at(_ place: ProblemPlace) -> InputError {
        var placed = self
        placed.places.insert(place, at: 0)
        return placed
    }

    /// The same problem, in a file (or anything else) named as given.
    public func at(_ name: String) -> InputError { at(.named(name)) }

    /// The problem when it is one of `type`'s cases: `error.problem(PayloadProblem.self)`.
    public func problem<Problem: InputProblem>(_ type: Problem.Type) -> Problem? { problem as? Problem }

    public static func == (lhs: InputError, rhs: InputError) -> Bool {
        lhs.kind == rhs.kind && lhs.places == rhs.places && lhs.problem.isSame(as: rhs.problem)
    }
}

extension InputProblem {
    /// Whether `other` is this very problem (the same case of the same type, with the same parameters).
    func isSame(as other: any InputProblem) -> Bool { (other as? Self) == self }
}
