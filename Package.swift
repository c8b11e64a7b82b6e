// swift-tools-version:6.2
import PackageDescription

// Layering (see .github/CONTRIBUTING.md, "The layout"):
//   PushCore    pure Swift: APNs domain rules, JWT structure, reasons. No C, no words: its
//               problems, warnings and explanations are typed codes.
//   PushWords   the words people read: English and Spanish (`Words`, `Language`), and the one
//               catalog that says each of PushCore's codes in both.
//   PushCrypto  ES256 over OpenSSL libcrypto (CLibcrypto), behind PushCore's ES256Signing.
//   PushCurl    HTTP/2 over libcurl (CCurl), behind PushCore's transport protocol.
//   PushEngine  the sending library: provider tokens and their cache, device-token and
//               requests files, delivery, result renderers. No command-line words.
//   PushMock    a strict local APNs (SwiftNIO, TLS + HTTP/2), its own target.
//   pushctl     the thin command-line shell (swift-argument-parser); links no server.
//   PushMockSession  `pushctl mock`'s application: settings in, servers started, the banner out.
//   pushctl-mock  `pushctl mock` and `pushctl demo` (SwiftNIO), run by pushctl through exec.
//   pushctl-app   `pushctl check` (PushApp, swift-syntax), run by pushctl through exec.
//   PushApp     reading the app a notification is for (strings, Info.plist, entitlements, the
//               Live Activity types through swift-syntax) and what the phone will do with a payload.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]
let package = Package(
    name: "pushctl",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pushctl", targets: ["pushctl"]),
        .executable(name: "pushctl-mock", targets: ["pushctl-mock"]),
        .executable(name: "pushctl-app", targets: ["pushctl-app"]),
        .library(name: "PushCore", targets: ["PushCore"]),
        .library(name: "PushWords", targets: ["PushWords"]),
        .library(name: "PushCrypto", targets: ["PushCrypto"]),
        .library(name: "PushCurl", targets: ["PushCurl"]),
        .library(name: "PushEngine", targets: ["PushEngine"]),
        .library(name: "PushMock", targets: ["PushMock"]),
        .library(name: "PushApp", targets: ["PushApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The mock amends two frames NIOHTTP2 writes (Sources/PushMock/WireAmendments.swift), relying
        // on when it calls its frame delegate: verified on 1.46, so held there until checked again.
        .package(url: "https://github.com/apple/swift-nio-http2", "1.46.0"..<"1.47.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // A real Swift parser for the app's ActivityAttributes declarations (PushApp only).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        .target(name: "PushCore", swiftSettings: strict),
        .target(name: "PushWords", dependencies: ["PushCore"], swiftSettings: strict),

        // SIGINT/SIGTERM/SIGHUP as requests to stop a run: an async-signal-safe handler belongs in C.
        .target(name: "CStopSignals"),

        // The one target that calls the operating system (the only `import Glibc`/`Darwin`/`Musl`):
        // each function shows its Linux and Darwin branches side by side, and names the Darwin
        // declaration it relies on. Every other target uses it, or Foundation where that is the portable way.
        .target(name: "PushSystem", dependencies: ["CStopSignals"], swiftSettings: strict),

        .systemLibrary(
            name: "CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(name: "PushCrypto", dependencies: ["PushCore", "CLibcrypto"], swiftSettings: strict),

        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // Reading the user's files (bounded, each problem named), writing output checked, the wall clock.
        .target(name: "PushFiles", dependencies: ["PushCore", "PushWords", "PushSystem"], swiftSettings: strict),
        .target(name: "PushCurl", dependencies: ["PushCore", "PushFiles", "PushSystem", "CCurl", "CLibcrypto"], swiftSettings: strict),

        .target(name: "PushEngine", dependencies: ["PushCore", "PushWords", "PushFiles", "PushSystem", "PushCrypto", "PushCurl"], swiftSettings: strict),

        .target(
            name: "PushMock",
            dependencies: [
                "PushCore", "PushWords", "PushFiles", "PushSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                // Plain HTTP/1.1 for the classroom: the CA file and the live web view.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // The app a notification is for, read as the phone would use it; swift-syntax for its Swift.
        .target(
            name: "PushApp",
            dependencies: [
                "PushCore", "PushFiles", "PushSystem",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),

        // `pushctl mock`'s application: its settings as values, the server, the classroom's side and
        // the CA file started from them, the banner and its layout. No command-line parser.
        .target(
            name: "PushMockSession", dependencies: ["PushCore", "PushWords", "PushFiles", "PushSystem", "PushEngine", "PushMock", "PushApp"],
            swiftSettings: strict),

        // What both executables share: console output, error reporting, the version.
        .target(
            name: "PushctlCommandLine",
            dependencies: [
                "PushCore", "PushWords", "PushFiles", "PushSystem", "PushCrypto", "PushEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // The sender: no SwiftNIO, no BoringSSL. `pushctl mock` and `pushctl demo` run pushctl-mock.
        .executableTarget(
            name: "pushctl",
            dependencies: [
                "PushCore", "PushWords", "PushFiles", "PushSystem", "PushEngine", "PushctlCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // The local APNs and the demo, in their own executable.
        .executableTarget(
            name: "pushctl-mock",
            dependencies: [
                "PushCore", "PushWords", "PushFiles", "PushSystem", "PushCrypto", "PushCurl", "PushEngine", "PushMock", "PushMockSession", "PushApp",
                "PushctlCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // `pushctl check`: the app read with swift-syntax and Foundation, in its own executable.
        .executableTarget(
            name: "pushctl-app",
            dependencies: [
                "PushCore", "PushWords", "PushFiles", "PushApp", "PushSystem", "PushctlCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // A scripted transport and a clock of the tests' own: the dispatcher and the engine run in process.
        .target(name: "PushTestSupport", dependencies: ["PushCore"], path: "Tests/PushTestSupport", swiftSettings: strict),
        .testTarget(name: "PushCoreTests", dependencies: ["PushCore", "PushWords", "ChildProcess", "PushTestSupport"], swiftSettings: strict),
        .testTarget(name: "PushCurlTests", dependencies: ["PushCore", "PushCurl"], swiftSettings: strict),
        .testTarget(
            name: "PushEngineTests",
            dependencies: ["PushCore", "PushWords", "PushCrypto", "PushCurl", "PushEngine", "PushFiles", "PushSystem", "ChildProcess", "PushTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "PushCryptoTests",
            dependencies: [
                "PushCore", "PushWords", "PushCrypto",
                // An independent ES256 implementation to check ours against.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Starts the tests' child processes without Foundation's Process (see SpawnedProcess.swift).
        .target(name: "ChildProcess", dependencies: ["PushSystem"], path: "Tests/ChildProcess", swiftSettings: strict),
        .testTarget(
            name: "PushMockTests",
            dependencies: [
                "PushCore", "PushWords", "PushMock", "PushMockSession", "PushSystem", "ChildProcess",
                // Signs test JWTs independently of pushctl's own signer.
                .product(name: "Crypto", package: "swift-crypto"),
                // A raw HTTP/2 client that breaks the rules real clients keep (RawHTTP2Client.swift).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                // The frames the mock's ConnectionWire is told of (HTTP2FuzzTests).
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                // One connection's pipeline in process, on a clock of the test's own (EmbeddedMock.swift).
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "PushAppTests", dependencies: ["PushCore", "PushWords", "PushApp", "PushSystem", "ChildProcess"], swiftSettings: strict),
        .testTarget(
            name: "PushctlTests",
            // PushEngine and PushCrypto only make fixtures (a cache entry sealed around a foreign token).
            dependencies: ["PushCore", "PushWords", "PushCrypto", "PushEngine", "PushMock", "PushSystem", "ChildProcess"],
            // What --help and the completion scripts print, compared whole (HelpSnapshotTests).
            exclude: ["Snapshots"],
            swiftSettings: strict
        ),
    ]
)
