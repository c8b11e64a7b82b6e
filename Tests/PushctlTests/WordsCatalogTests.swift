import Foundation
import PushCore
import PushWords
import Testing

/// Words people read exist in English and Spanish: every `Words(_:es:)` in the sources has a
/// Spanish side that is there and not a copy of the English (a lone technical word aside), and the
/// English-only error literals left over from before `Words` only ever go down. PushCore says no
/// words at all: it returns codes, and PushWords' catalog says every case of every code in both
/// languages.
@Suite struct WordsCatalogTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static func swiftFiles() throws -> [(String, String)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { path in
            (path, try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8))
        }
    }

    @Test("every Words(_:es:) has a Spanish side, and not the English copied")
    func bothLanguages() throws {
        let pair = /Words\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*es:\s*"((?:[^"\\]|\\.)*)"\s*\)/
        var checked = 0
        var problems: [String] = []
        for (path, text) in try Self.swiftFiles() {
            for match in text.matches(of: pair) {
                checked += 1
                let english = String(match.output.1)
                let spanish = String(match.output.2)
                if spanish.trimmingCharacters(in: .whitespaces).isEmpty && !english.trimmingCharacters(in: .whitespaces).isEmpty {
                    problems.append("\(path): no Spanish for \"\(english.prefix(60))\"")
                } else if spanish == english && english.contains(" ") {
                    problems.append("\(path): the Spanish is the English: \"\(english.prefix(60))\"")
                }
            }
        }
        #expect(checked > 300, "the catalog was read: \(checked) pairs")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// English-only literals still in the sources (`InputError("…")`, `ValidationError("…")`):
    /// each conversion to Words lowers this ceiling; a new one fails here.
    static let englishOnlyCeiling = 0

    @Test("no English-only error literal is left (message or hint)")
    func englishOnlyErrorsDoNotGrow() throws {
        var count = 0
        for (_, text) in try Self.swiftFiles() {
            count += text.components(separatedBy: "InputError(\"").count - 1
            count += text.components(separatedBy: "ValidationError(\"").count - 1
            // The message on the next line: `InputError(\n    "…"`.
            count += text.matches(of: /InputError\(\s*\n\s*"/).count
            // A hint given as a bare literal (`hint: "…"`) reads the same in both languages.
            count += text.matches(of: /[,(]\s*hint:\s*"/).count
        }
        #expect(
            count <= Self.englishOnlyCeiling, "\(count) English-only error literals (ceiling \(Self.englishOnlyCeiling)): write new messages with Words(_:es:)")
    }

    static let core = sources.appendingPathComponent("PushCore")

    @Test("PushCore holds no words: no Words(…), no es: sentence, no Language")
    func coreSaysNoWords() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.core.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 30, "the core's files were read: \(files.count)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.core.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.contains(/\bWords\(/) || line.contains(/\bes:/) || line.contains(/\bLanguage\b/) {
                    found.append("PushCore/\(file):\(index + 1) \(line.trimmingCharacters(in: .whitespaces).prefix(70))")
                }
            }
        }
        #expect(found.isEmpty, "say it with a code, and its words in PushWords' catalog: \(found.joined(separator: "; "))")
    }

    @Test("every case of every core code is said in English and Spanish (a missing case or an untranslated one fails)")
    func everyCodeInBothLanguages() throws {
        let declared = try Self.declaredCases()
        // Every problem enum of the core is here (found by its conformance), and the other codes by name.
        let problems = Set(declared.filter(\.value.isProblem).keys)
        let codes = problems.union(CodeSamples.otherCodes)
        var covered: [String: Set<String>] = [:]
        var problemsFound: [String] = []
        for sample in CodeSamples.all {
            covered[sample.type, default: []].insert(Self.caseName(sample.value))
            let said = sample.words.en.trimmingCharacters(in: .whitespaces)
            let dicho = sample.words.es.trimmingCharacters(in: .whitespaces)
            if said.isEmpty || dicho.isEmpty || (said == dicho && said.contains(" ")) {
                problemsFound.append("\(sample.type).\(Self.caseName(sample.value)): \"\(said.prefix(50))\" / \"\(dicho.prefix(50))\"")
            }
            if let hint = sample.hint, hint.es.isEmpty || (hint.en == hint.es && hint.en.contains(" ")) {
                problemsFound.append("\(sample.type).\(Self.caseName(sample.value)) hint: \"\(hint.en.prefix(50))\"")
            }
        }
        for name in codes.sorted() {
            guard let cases = declared[name]?.cases else {
                problemsFound.append("\(name): no such enum in PushCore")
                continue
            }
            let missing = cases.subtracting(covered[name] ?? [])
            if !missing.isEmpty { problemsFound.append("\(name): no sample of \(missing.sorted().joined(separator: ", "))") }
        }
        for name in problems.sorted() where !CodeSamples.all.contains(where: { $0.type == name && $0.isWorded }) {
            problemsFound.append("\(name): an InputProblem the catalog does not say (extend it with WordedProblem)")
        }
        #expect(problems.count >= 10, "the core's problem enums were found: \(problems.sorted())")
        #expect(problemsFound.isEmpty, "\(problemsFound.joined(separator: "\n"))")
    }

    /// A case's name: the label Mirror gives a case with values, else the case itself.
    static func caseName(_ value: Any) -> String {
        if let label = Mirror(reflecting: value).children.first?.label { return label }
        return String(describing: value)
    }

    /// Each enum of PushCore by its name: the cases it declares, and whether it is an `InputProblem`.
    static func declaredCases() throws -> [String: (cases: Set<String>, isProblem: Bool)] {
        var found: [String: (cases: Set<String>, isProblem: Bool)] = [:]
        let files = try FileManager.default.contentsOfDirectory(atPath: core.path).filter { $0.hasSuffix(".swift") }
        for file in files {
            let lines = try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() {
                guard let match = line.firstMatch(of: /^\s*(?:public |private |fileprivate )?(?:indirect )?enum (\w+)([^{]*)\{/) else { continue }
                found[String(match.output.1)] = (cases(lines, from: index), match.output.2.contains("InputProblem"))
            }
        }
        return found
    }

    /// The cases declared directly in the enum whose declaration is `lines[start]`.
    static func cases(_ lines: [String], from start: Int) -> Set<String> {
        var names: Set<String> = []
        var depth = 0
        for index in start..<lines.count {
            let line = lines[index]
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? line
            if depth == 1, let match = code.firstMatch(of: /^\s*(?:indirect )?case (.*)$/) {
                // `case a, b(x: Int, y: String), c`: the names before each top-level comma.
                var level = 0
                var current = ""
                for character in match.output.1 {
                    if character == "(" { level += 1 } else if character == ")" { level -= 1 }
                    if character == "," && level == 0 {
                        names.insert(current)
                        current = ""
                        continue
                    }
                    current.append(character)
                }
                names.insert(current)
            }
            depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
            if index > start && depth <= 0 { break }
        }
        return Set(names.map { String($0.prefix { $0 != "(" && $0 != "=" && $0 != ":" }).trimmingCharacters(in: .whitespaces) })
    }
}

/// A representative value of every case of every code the core returns, and its words.
struct CodeSamples {
    let type: String
    let value: Any
    let words: Words
    let hint: Words?
    /// Said through `WordedProblem`, as an `InputError` says its problem.
    let isWorded: Bool

    init<Problem: WordedProblem>(problem: Problem) {
        type = String(describing: Problem.self)
        value = problem
        words = InputError(problem).words
        hint = InputError(problem).hintWords
        isWorded = true
    }

    init<Code>(_ code: Code, _ words: (Code) -> Words) {
        type = String(describing: Code.self)
        value = code
        self.words = words(code)
        hint = nil
        isWorded = false
    }

    /// The codes that are not problems, checked by name.
    static let otherCodes: Set<String> = [
        "PayloadWarning", "LiveActivityProblem", "JSONSyntaxProblem", "JSONMistake", "JSONKind", "ProviderTokenFinding",
        "IssuedAtVerdict", "ProviderTokenDefect", "CertificateRefusal", "NotADeviceToken", "Certificate", "NearMiss", "Why",
        "ResultExplanation", "StopNote", "RetryLimit", "AbandonReason", "TransportFailure", "SummaryNoun", "ProblemPlace",
        "SignatureForm", "SystemReason", "FileRole", "KeyDamage", "JournalDifference", "Failure", "TemporaryFilePurpose", "OutputFile",
        "MockWarning",
    ]

    static var all: [CodeSamples] { problems + warnings + json + tokens + results + files }

    static let diagnosis = JSONDiagnosis(bytes: Array("{'a':1}".utf8), error: JSONParseError(.expectedKey, offset: 1))
    static let finding = LiveActivityFinding(.noEvent)

    static var problems: [CodeSamples] {
        let apple: [AppleIdentifierProblem] = [.malformed(.keyID, shown: nil, nearMiss: nil), .malformed(.teamID, shown: "abc", nearMiss: .lowerCase("ABC"))]
        let header: [HeaderProblem] = [
            .controlCharacter(name: "apns-topic", byte: 10, position: 3), .tooLong(name: "apns-topic", bytes: 3000, limit: 2048),
            .unknownPushType(name: "apns-push-type", shown: "alrt", meant: .alert), .priority(name: "apns-priority", shown: "7"),
            .backgroundPriority(name: "apns-priority"), .notABundleID(name: "apns-topic", shown: "a b"),
            .collapseIDTooLong(name: "apns-collapse-id", bytes: 70), .collapseIDEmpty(name: "apns-collapse-id"),
            .expiration(name: "apns-expiration", shown: "2026-12-01", date: DateGiven.suggestion("2026-12-01", name: "--expiration")),
            .notAUUID(name: "apns-id", shown: "x"),
        ]
        let broadcast: [BroadcastProblem] = [
            .topicHasSuffix(name: "apns-topic", shown: "a.voip", pushType: .voip, bundleID: "a"), .notAChannelID(name: "apns-channel-id", shown: "!"),
            .requestIDNotUUID(name: "apns-request-id", shown: "x"), .pushTypeNotLiveActivity(name: "apns-push-type", shown: "alert"),
            .priority(name: "apns-priority", shown: "1"), .expiration(name: "apns-expiration", shown: "x", date: nil), .tooLarge(bytes: 6000), .startsActivity,
        ]
        let payload: [PayloadProblem] = [
            .empty(source: "a.json"), .notUTF8(source: "a.json"), .notJSON(source: "a.json", diagnosis), .notObject(source: "a.json", .array),
            .tooLarge(bytes: 5000, pushType: .alert), .negativeBadge(-1), .interruptionLevel(shown: "loud", meant: nil),
            .customNotKeyValue(shown: "x"), .customAps, .customNotJSON(key: "k", diagnosis), .liveActivityDropped([finding]),
        ]
        let token: [DeviceTokenProblem] = [
            .pasted(shown: "x", .uuid), .jsonObject(shown: "{}"), .quoted(shown: "'ab'", quote: "'"), .severalTokens(shown: "a,b", count: 2, separator: ","),
            .spreadsheetRow(shown: "a\t1", column: 1, separator: "\t"), .columnHeader(shown: "token"), .dataValue(shown: "32 bytes"),
            .notHex(shown: "xy", character: "x", position: 1), .tooLong(shown: "ab…cd"), .empty, .grouped(shown: "ab cd"), .oddLength(shown: "abc", digits: 3),
        ]
        let jwt: [ProviderTokenProblem] = [
            .empty, .parts(count: 2), .partEmpty(part: 1, name: "header"), .partNotBase64URL(part: 2, name: "claims"),
            .partNotJSON(part: 1, name: "header", JSONParseError(.unexpectedEnd, offset: 0)), .partNotObject(part: 2, name: "claims", .array),
            .signatureEmpty, .signatureNotBase64URL, .cannotSign("EVP_DigestSign failed"),
        ]
        let line: [RequestLineProblem] = [
            .notObject(.array), .unknownField(shown: "tokn", meant: "token"), .repeatedField("token"), .noToken, .tokenNotString, .noPayload,
            .payloadNotObject(.string), .fieldNotString(.topic, .number), .fieldNotInteger(.priority, .boolean), .noTopic, .spansLines, .notJSON(diagnosis),
        ]
        let marks: [PastedForm.EncodingMark] = [.byteOrderMark, .utf16]
        let endpoint = EndpointProblem.notAnHTTPSURL(shown: "http://x", .notHTTPS, meant: "https://x")
        let shards: [ShardProblem] = [
            .outOfRange(index: 3, count: 2), .notKN(shown: "x"), .noEngine, .severalEngines(["CI_NODE_INDEX", "JOB_COMPLETION_INDEX"]),
            .variableEmpty(name: "CI_NODE_INDEX"), .variableNotNumber(name: "CI_NODE_INDEX", shown: "x"),
            .indexOutOfRange(name: "CI_NODE_INDEX", value: 4, lowest: 1, highest: 3), .countOutOfRange(name: "CI_NODE_TOTAL", value: 0),
            .countNeeded(.kubernetes, index: "2"), .countNeeded(.awsBatch, index: "0"), .countDisagrees(name: "CI_NODE_TOTAL", value: 3, given: 4),
        ]
        let conflicts: [OptionConflict] = [
            .noCollapseIDWithoutJournal, .rateAndSpread, .rateNotNumber(shown: "x"), .spreadNotDuration(shown: "x"), .followNeedsFile,
            .notWithFollow(.journal), .certificateAndToken, .bothEnvironments, .endpointAndEnvironment, .resumeWithoutJournal, .skipInDoubtWithoutResume,
            .notWithSimulator(.journal),
            .metricsPushNotURL(shown: "x"), .metricsWithBroadcast, .journalWithBroadcast, .detectWithEndpoint, .detectNeedsDeviceTokens,
            .connectToForm(shown: "a:1"), .portNotApple, .outOfRange(.retries, lowest: 0, highest: 100, given: "101"),
            .secondsOutOfRange(.timeout, highest: 3600, given: "0.0"), .standardInputTwice(.tokensFile), .channelsWithDevices, .broadcastHeaders,
            .requestIDWithoutChannels, .payloadTwice, .recipientsTwice, .requestsFileCarriesPayloads, .apnsIDWithRequestsFile,
            .liveActivityNeeded(flag: "--timestamp"), .liveActivityEvent(shown: "begin"), .liveActivityPushType(shown: "alert"),
            .notWithLiveActivity(flag: "--badge"),
        ]
        let languages: [LanguageProblem] = [.settingWithoutValue, .settingUnknown(given: "fr"), .variableUnknown(given: "fr")]
        return conflicts.map(CodeSamples.init(problem:)) + apple.map(CodeSamples.init(problem:)) + header.map(CodeSamples.init(problem:))
            + languages.map(CodeSamples.init(problem:)) + mocks
            + broadcast.map(CodeSamples.init(problem:))
            + payload.map(CodeSamples.init(problem:)) + token.map(CodeSamples.init(problem:)) + jwt.map(CodeSamples.init(problem:))
            + line.map(CodeSamples.init(problem:)) + marks.map(CodeSamples.init(problem:)) + [CodeSamples(problem: endpoint)]
            + shards.map(CodeSamples.init(problem:))
    }

    /// The mock's problems: its settings, and what stops it from listening or writing its files.
    static var mocks: [CodeSamples] {
        let settings: [MockSettingProblem] = [
            .port(given: 70_000), .streamLimit(given: -1, highest: Int(Int32.max)), .initialStreamLimit(given: 9, streamLimit: 5), .connectionLimit(given: 0),
            .answerStatus(given: 99), .answerCount(given: -1), .bodyPadding(given: -1, highest: 16 << 20),
            .responseDelay(givenMilliseconds: -1, highestMilliseconds: 3_600_000), .retryAfterControlCharacter, .tokenUpdateInterval(givenSeconds: -1),
            .badDeviceTokenLimit(given: 0), .idleTimeout(givenMilliseconds: 0), .setupTimeout(givenMilliseconds: 0), .resetLimits, .failureForm(given: "x"),
            .failFirstForm(given: "x"), .shortToken(short: "abcd", bytes: 2), .unknownReason(given: "Nope"), .unknownKeyID(given: "key.pem"),
            .notAP256Key(keyID: "ABC123DEFG"), .keyFolderNotAFolder(path: "keys"), .clientCAWithoutPEM(path: "ca.pem"), .notAHostName(given: "a b"),
        ]
        let server: [MockServerProblem] = [
            .cannotListen(.apns, host: "127.0.0.1", port: 8443, .inUse), .cannotListen(.webView, host: "0.0.0.0", port: 80, .privileged),
            .cannotListen(.caCertificate, host: "10.9.9.9", port: 8080, .noSuchAddress), .cannotListen(.apns, host: "::1", port: 1, .other("Resource busy")),
            .symbolicLink(.log, path: "mock.log"), .symbolicLink(.caCertificate, path: "ca.pem"), .cannotOpenLog(path: "mock.log", .permissionDenied),
            .cannotMakeCAFolder(base: "/tmp", .noSpace),
        ]
        let warnings: [MockWarning] = [
            .keyFileTooLarge(name: "BIG1234567.pem", limitKiB: 16), .keyFileNotAKey(name: "BROKEN1234.pem", keyID: "BROKEN1234"),
            .logNotRotated(path: "mock.log", .readOnlyFileSystem), .logNotReopened(InputError(MockServerProblem.symbolicLink(.log, path: "mock.log"))),
        ]
        return settings.map(CodeSamples.init(problem:)) + server.map(CodeSamples.init(problem:)) + warnings.map { CodeSamples($0, \.words) }
    }

    static var warnings: [CodeSamples] {
        let payload: [PayloadWarning] = [
            .noAps, .apsNotObject(.string), .backgroundWithAlert, .liveActivityKeys(pushType: .alert), .liveActivity(finding),
            .broadcastExpirationDefaulted,
        ]
        let lint: [LiveActivityProblem] = [
            .noAps, .misspeltKey(shown: "stale", meant: "stale-date"), .unknownKey(shown: "mood"), .unknownEvent(shown: "begin"), .noEvent,
            .eventNotString(.number), .noTimestamp, .timestampNotInteger(.string, now: 1_700_000_000), .contentStateNotObject(.array),
            .noContentState(.update), .startWithoutAlert, .startWithoutAttributesType, .startWithoutAttributes, .startOnly(key: "attributes", event: .update),
            .dismissalDateNotEnd, .dismissalDateTooFar(date: 1_800_000_000, now: 1_700_000_000), .dismissalDateNotSeconds(.string),
            .staleDatePast(date: 1_600_000_000), .staleDateNotSeconds(.string), .relevanceScoreNotNumber(.string),
            .contentStateDate(path: "content-state.endDate", seconds: 1_800_000_000), .priorityBudget,
        ]
        return payload.map { CodeSamples($0, \.words) } + lint.map { CodeSamples($0, \.words) }
            + lint.map { CodeSamples($0, \.fix) }
    }

    static var json: [CodeSamples] {
        let syntax: [JSONSyntaxProblem] = [
            .textAfterValue, .invalidLiteral, .tooDeep(levels: 512), .unexpectedEnd, .unexpectedCharacter("@"), .expectedKey, .expectedColon,
            .unterminatedObject, .expectedCommaOrBrace, .unterminatedArray, .expectedCommaOrBracket, .truncatedUnicodeEscape, .invalidUnicodeEscape,
            .notUTF8, .unterminatedString, .controlCharacter, .unterminatedEscape, .unpairedSurrogate, .invalidCodePoint, .invalidEscape,
            .invalidNumber, .numberOutOfRange,
        ]
        let mistakes: [JSONMistake] = [
            .encodingMark(.byteOrderMark), .typographicQuotes, .singleQuotes, .comment, .trailingComma, .pythonLiteral, .unquotedKey,
            .unclosedString, .incomplete, .unclosed(missing: "}]"), .missingComma, .textAfterValue, .missingColon, .parser(.invalidNumber),
        ]
        return syntax.map { CodeSamples($0, \.words) } + mistakes.map { CodeSamples($0, \.words) } + JSONKind.allCases.map { CodeSamples($0, \.words) }
    }

    static var tokens: [CodeSamples] {
        let findings: [ProviderTokenFinding] =
            [.algorithm, .type("\"JWS\""), .keyID("ABC123DEFG"), .issuer("DEF123GHIJ"), .defect(.algorithm(nil))]
            + ProviderTokenFinding.IssuedAtVerdict.allCases.map { .age(issuedAt: 1000, now: 1600, fraction: false, $0) }
        let defects: [ProviderTokenDefect] = [.algorithm(.string("HS256")), .keyID(nil), .issuer(.integer(1)), .issuedAt(.string("1"))]
        let refusals: [CertificateRefusal] = [.needsTokenAuthentication(.liveactivity), .topicNotCovered(shown: "b", pushType: .alert, covered: ["a"])]
        let pasted: [PastedForm.NotADeviceToken] = [.dataDescription, .uuid, .fcmToken, .base64(bytes: 32, hex: "ab")]
        let certificates: [PastedForm.Certificate] = [.pkcs12, .der, .pem]
        let nearMisses: [AppleIdentifierProblem.NearMiss] = [.blanksAround("ABC123DEFG"), .lowerCase("ABC123DEFG")]
        let forms: [SignatureForm] = [.raw, .der, .unrecognized]
        return findings.map { CodeSamples($0, \.words) }
            + ProviderTokenFinding.IssuedAtVerdict.allCases.map { verdict in
                CodeSamples(verdict) { ProviderTokenFinding.age(issuedAt: 1000, now: 1000, fraction: true, $0).words }
            } + defects.map { CodeSamples($0, \.words) } + refusals.map { CodeSamples($0, \.words) } + pasted.map { CodeSamples($0, \.words) }
            + certificates.map { CodeSamples($0, \.name) } + nearMisses.map { CodeSamples($0, \.words) }
            + EndpointProblem.Why.allCases.map { CodeSamples($0, \.words) } + forms.map { CodeSamples($0) { $0.words(byteCount: 64) } }
    }

    static var files: [CodeSamples] {
        let reasons: [SystemReason] = [
            .noSuchFile, .permissionDenied, .notPermitted, .isDirectory, .notDirectory, .exists, .nameTooLong, .symbolicLinkLoop, .noSpace,
            .quotaExceeded, .readOnlyFileSystem, .tooManyOpenFiles, .inputOutput, .brokenPipe, .notExecutable,
        ]
        let roles: [FileRole] = [
            .keyFile, .tokensFile, .requestsFile, .payloadFile, .certificateFile, .certificateKeyFile, .certificatePasswordFile,
            .proxyCredentialsFile, .journal, .journalOrResultsFile, .caCertificateFile, .appFile, .token, .settingFile(.contentState),
        ]
        let problems: [FileProblem] = [
            .notFound(.keyFile, path: "a.p8", .noSuchFile), .directory(.payloadFile, path: "x"), .cannotOpen(.tokensFile, path: "t", .permissionDenied),
            .cannotRead(.requestsFile, path: "-", .inputOutput), .stoppedReading(.tokensFile, path: "-"), .tooLarge(.keyFile, path: "k", limitKiB: 1024),
            .emptyCACertificate(path: "ca.pem"), .noPEMCertificate(path: "ca.pem"),
        ]
        let keys: [SigningKeyProblem] = [
            .empty, .notPEM, .damagedBeginLine, .lostLineBreaks, .encryptedTraditional(label: "EC PRIVATE KEY"), .encryptedPKCS8, .publicKeyGiven,
            .certificateGiven, .rsa, .otherType("ED25519"), .unnamedCurve, .otherCurve("secp384r1"), .ecParameters, .otherBlock(label: "X"),
            .unreadablePrivateKey, .unreadablePublicKey, .unreadableCertificate, .damaged(.halvesDisagree), .coordinateSize, .notOnCurve,
        ]
        let certificates: [CertificateProblem] = [
            .empty(source: "c.p12"), .unrecognized(source: "c"), .p12WithoutCertificate(source: "c.p12"), .p12WithoutKey(source: "c.p12"),
            .p12NeedsPassword(source: "c.p12"), .p12WrongPassword(source: "c.p12"), .p12LegacyEncryption(source: "c.p12", detail: "unsupported"),
            .p12Unreadable(source: "c.p12", detail: nil), .keyWithoutCertificate(source: "k.pem"), .noPEMCertificate(source: "c.pem"),
            .noPrivateKey(source: "c.pem"), .keyGivenTwice(source: "c.pem"), .keyNeedsPassword(source: "k.pem"), .keyWrongPassword(source: "k.pem"),
            .noPEMKey(source: "k.pem"), .keyDoesNotMatch(subject: "CN=x", source: "c.pem"), .cannotReencodeKey, .testCertificateNeedsTopic,
            .testCertificatesFailed,
        ]
        let differences: [JournalDifference] = [
            .input, .payload, .topic(was: "a", now: nil), .pushType(was: "alert", now: "background"), .destination(was: "https://a", now: "https://b"),
            .shard(was: "1/2", now: "2/2"),
        ]
        let journals: [JournalProblem] = [
            .held(journal: "j.jsonl", holder: JournalHolder(pid: 7, host: "ci", since: 1_700_000_000), lockFile: "j.jsonl.lock"),
            .held(journal: "j.jsonl", holder: nil, lockFile: "j.jsonl.lock"), .heldThroughAnotherPath(journal: "j.jsonl"),
            .cannotCreateLock(journal: "j", lockFile: "j.lock", .permissionDenied), .cannotLock(journal: "j", lockFile: "j.lock", .notPermitted),
            .cannotOpen(journal: "j", .symbolicLinkLoop), .cannotCreate(journal: "j", .noSpace), .cannotWrite(journal: "j", .noSpace),
            .notAJournal(journal: "j"), .empty(journal: "j"), .damaged(journal: "j", line: 3), .alreadyHoldsARun(journal: "j"),
            .ofAnotherRun(journal: "j", differences: differences),
        ]
        let signerFailures: [SignerProblem.Failure] = [
            .cannotStart(.noSuchFile), .stopped, .timedOut(seconds: 10, said: "waiting"), .notRunnable(status: 127, said: nil),
            .failed(status: 1, said: "denied"), .killed(signal: 9, said: nil), .printedNothing(leftBehind: true, said: nil),
            .notASignature(bytes: 12, truncated: true, leftBehind: false, said: "x"), .outOfRange, .otherKey,
        ]
        let signers = signerFailures.map { CodeSamples(problem: SignerProblem(signer: "$PUSHCTL_SIGNER", $0)) }
        let signerCases = signerFailures.map { failure in CodeSamples(failure) { SignerProblem(signer: "$PUSHCTL_SIGNER", $0).words } }
        let damage = SigningKeyProblem.KeyDamage.allCases.map { CodeSamples($0, \.words) }
        // The system's own text reads the same in both languages: sampled for its case, not checked as a translation.
        let other = CodeSamples(SystemReason.other("Resource busy")) { _ in Words("Resource busy", es: "Recurso ocupado") }
        let files: [CodeSamples] =
            OutputFile.allCases.map { CodeSamples($0, \.words) }
            + OutputFile.allCases.map { file in CodeSamples(file) { OutputProblem.exists($0, path: "k.p8").words } }
        return reasons.map { CodeSamples($0, \.words) } + [other] + roles.map { CodeSamples($0, \.words) }
            + problems.map(CodeSamples.init(problem:)) + keys.map(CodeSamples.init(problem:)) + certificates.map(CodeSamples.init(problem:))
            + damage + journals.map(CodeSamples.init(problem:)) + differences.map { CodeSamples($0, \.words) }
            + signers + signerCases + [
                CodeSamples(SharedKeyFile(path: "k.p8", mode: 0o644), \.words)
            ] + [AppFolderProblem.missing(path: "MyApp"), .notAFolder(path: "MyApp/A.swift")].map(CodeSamples.init(problem:))
            + credentials.map(CodeSamples.init(problem:)) + runInputs.map(CodeSamples.init(problem:)) + outputs.map(CodeSamples.init(problem:))
            + connections.map(CodeSamples.init(problem:)) + purposes.map { CodeSamples($0, \.words) } + files
    }

    static let purposes: [TemporaryFilePurpose] = [.spool(.tokensFile, path: "-"), .keepCheckedLines(path: "-"), .keepCheckedLines(path: "r.jsonl"), .cacheJWT]

    static var runInputs: [RunInputProblem] {
        [
            .missingTopic, .missingChannelTopic, .missingDeviceToken, .missingPayload, .payloadFileIsJSON(shown: "{\"aps\""), .apnsIDForSeveral(count: 3),
            .outputIsInput(shown: "t.txt", input: .tokensFile), .outputIsInput(shown: "r.jsonl", input: .requestsFile), .journalNeedsDigest,
            .engineFailed(detail: "EPIPE"), .noDeviceTokens(path: "-"), .noNotifications(name: "r.jsonl"), .lineTooLong(limit: 8192),
            .followedLineTooLong(limit: 8192), .stoppedReading(path: "-"), .cannotRead(path: "t.txt", .inputOutput),
            .changedDuringRun(.file("t.txt"), count: 3, sent: 2), .notUnixSeconds(setting: .staleDate, given: "2026-12-01", example: 1_700_003_600),
            .relevanceScoreNotNumber(shown: "high"), .jsonArgumentTooLarge(.contentState, file: "s.json"), .jsonArgumentTooLarge(.attributes, file: nil),
            .jsonArgumentNotJSON(.contentState, file: nil, diagnosis), .xcrunMissing, .simctlFailed(status: 2, device: "booted"),
            .cannotRun(program: "xcrun", .notExecutable),
        ]
    }

    static var outputs: [OutputProblem] {
        [
            .exists(.signingKey, path: "k.p8"), .exists(.testCertificate, path: "c.p12"), .cannotWrite(.signingKey, path: "k.p8", .permissionDenied),
            .folderIsAFile(path: "keys/a", file: "keys"), .cannotMakeFolder(path: "keys", .readOnlyFileSystem),
            .cannotWrite(.simulatorFile, path: "a.apns", .noSpace), .noTemporaryFolder(folder: "/tmp", .noSpace),
            .noTemporaryFile(.cacheJWT, folder: "/tmp", .noSpace), .temporaryWriteFailed(.keepCheckedLines(path: "-"), .noSpace),
            .cannotSpool(path: "-", .noSpace), .cannotWrite(.deadTokenFile, path: "dead.txt", .permissionDenied),
            .cannotWriteDeadTokenFile(path: "dead.txt", .noSpace), .notAResultsFile(path: "/dev/zero"), .noDeviceResults(paths: ["a.jsonl", "b.jsonl"]),
            .cannotWrite(.metricsFile, path: "m.prom", .readOnlyFileSystem), .cannotWrite(.retryFile, path: "r", .noSpace),
            .cannotWrite(.caCertificate, path: "ca.pem", .permissionDenied), .notAFile(.metricsFile, path: "/dev/full"),
            .cannotWrite(.stepSummary, path: "s.md", .noSpace),
            .cannotWrite(.testCertificate, path: "c.pem", .noSpace), .cannotWrite(.publicKey, path: "K.pem", .exists),
        ]
    }

    static var connections: [ConnectionSettingProblem] {
        [
            .proxyCredentialsWithoutProxy, .notAProxyURL(redacted: "ftp://x"), .proxyCredentialsNotOneLine(file: "p.txt"), .portNotApple(8443),
            .unknownEnvironment(source: "PUSHCTL_ENV", shown: "staging"), .libcurlWithoutHTTP2(version: "8.5.0"),
            .libcurlNotOnOpenSSL3(version: "8.5.0", library: "LibreSSL/3.3.6"), .libcurlNotOnOpenSSL3(version: "8.5.0", library: ""),
        ]
    }

    static var credentials: [CredentialProblem] {
        [
            .missingProviderToken, .severalChoices(settings: [.keyFile, .jwt]),
            .severalVariables(variables: ["PUSHCTL_KEY_FILE", "PUSHCTL_JWT"], settings: [.keyFile, .jwt]), .missingKeyFile,
            .missingKeyID(fileNamed: true), .missingKeyID(fileNamed: false), .missingTeamID, .certificateGivenAsKey(path: "aps.cer", .der),
            .keyNotOpened(detail: "EVP failed"), .missingKeyFileOrURI, .keyCannotSign(shown: "k.p8", detail: "x"), .keySignatureDoesNotVerify(shown: "k.p8"),
            .pkcs11NoSupport, .pkcs11Module(module: "softhsm", detail: ""), .pkcs11WrongPIN(uri: "pkcs11:token=a"),
            .pkcs11LockedPIN(uri: "pkcs11:token=a"), .pkcs11NoKey(uri: "pkcs11:token=a", module: "softhsm", detail: "x", pinGiven: false),
            .pkcs11NoKey(uri: "pkcs11:token=a", module: "softhsm", detail: "", pinGiven: true), .pkcs11NotP256(uri: "pkcs11:token=a", kind: "RSA"),
            .tokenKeyMismatch, .testSignatureDoesNotVerify, .testSignatureFailed(detail: "x"), .providerTokenNotSigned(detail: "x"),
            .providerTokenCannotBeRenewed, .certificateSendsNoProviderToken, .jwtExpired(issuedAt: 1_700_000_000, now: 1_700_009_000),
            .jwtRefused([.algorithm, .keyID("abc")]), .certificateSettingsWithoutCertificate, .certificatePasswordNotOneLine(file: "p.txt"),
            .certificateExpired(shown: "c.p12", notAfter: 1_700_000_000, subject: "CN=x"), .certificateNotYetValid(shown: "c.p12", notBefore: 1_900_000_000),
            .certificateEnvironment(shown: "c.p12", sendsTo: .sandbox), .certificateEnvironment(shown: "c.p12", sendsTo: .production),
            .certificateTopicNeeded(topics: ["a", "b"]), .certificateRefuses(.needsTokenAuthentication(.liveactivity)), .testCertificateNeedsTopic,
            .notATopic(shown: "a b"),
        ]
    }

    static var results: [CodeSamples] {
        let failures: [TransportFailure] = [
            .unreachable("connection refused"), .timedOut("10 s"), .connectionLost("GOAWAY"), .refused("no streams"), .other("curl"),
            .abandoned(.silentServer(seconds: 20)),
        ]
        let abandoned: [AbandonReason] = [
            .silentServer(seconds: 20), .unansweredServer(seconds: 20, last: .timedOut("10 s")), .notSent(InputError(ProviderTokenProblem.cannotSign("x"))),
        ]
        let explanations: [ResultExplanation] = [
            .accepted, .callAccepted, .answered(.unregistered, lastValid: 1_700_000_000_000, limit: nil),
            .failed(.timedOut("10 s"), attempts: 3, limit: .timeSpent(seconds: 90)), .stopped(.inDoubt, request: "SIGTERM"), .recorded("Unregistered"),
        ]
        let limits: [RetryLimit] = [.retryAfterTooLong(seconds: 999, longest: 30), .timeSpent(seconds: 90)]
        let places: [ProblemPlace] = [.named("tokens.txt"), .line("tokens.txt", 3)]
        return failures.map { CodeSamples($0, \.words) } + abandoned.map { CodeSamples($0, \.words) } + explanations.map { CodeSamples($0, \.words) }
            + StopNote.allCases.map { CodeSamples($0) { $0.words("SIGTERM") } } + limits.map { CodeSamples($0, \.words) }
            + SummaryNoun.allCases.map { CodeSamples($0, \.many) } + places.map { CodeSamples($0, \.words) }
    }
}
