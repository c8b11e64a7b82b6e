/// What went wrong with an external signer (a command that signs a provider token's bytes, as a
/// KMS or an HSM does): which signer, as messages show it (by the variable that carries its
/// command, never its text), and what happened. The catalog says each and how to try it by hand.
public struct SignerProblem: InputProblem {
    /// How the signer ended without a usable signature.
    public enum Failure: Sendable, Equatable {
        /// It could not be started (the system's reason).
        case cannotStart(SystemReason)
        /// A stop signal ended it.
        case stopped
        /// It ran past its limit (seconds) and was stopped.
        case timedOut(seconds: Int, said: String?)
        /// Its shell could not run the command (126 or 127).
        case notRunnable(status: Int32, said: String?)
        /// It exited with a status other than 0.
        case failed(status: Int32, said: String?)
        /// A signal killed it.
        case killed(signal: Int32, said: String?)
        /// It printed nothing (`leftBehind`: a background job held its output when its shell exited).
        case printedNothing(leftBehind: Bool, said: String?)
        /// What it printed is no ES256 signature (`truncated`: more than was read).
        case notASignature(bytes: Int, truncated: Bool, leftBehind: Bool, said: String?)
        /// Its signature's r or s is 0 or not below P-256's order.
        case outOfRange
        /// Its signature does not verify with the public key given.
        case otherKey
    }

    /// The signer as messages show it (`PUSHCTL_SIGNER`-style: redacted, never the command's text).
    public let signer: String
    public let failure: Failure

    public init(signer: String, _ failure: Failure) {
        self.signer = signer
        self.failure = failure
    }

    /// A signer that could not be run is missing input, a stopped or slow one a temporary failure,
    /// the rest bad data.
    public var kind: InputError.Kind {
        switch failure {
        case .cannotStart, .notRunnable: return .missingInput
        case .stopped, .timedOut: return .temporaryFailure
        case .failed, .killed, .printedNothing, .notASignature, .outOfRange, .otherKey: return .badData
        }
    }
}

extension InputError {
    /// A signer problem, of the kind it is.
    public init(_ problem: SignerProblem) { self.init(problem, kind: problem.kind) }
}
