// swift-tools-version: 6.1

import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "Kalends",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Kalends", targets: ["Kalends"]),
    // Deterministic synthetic calendars for benchmarks and tests, apart from the store itself.
    .library(name: "KalendsSynthetic", targets: ["KalendsSynthetic"]),
    .executable(name: "kalends", targets: ["KalendsCLI"]),
    // For apps: the store server's API, EventKit-shaped, without the store itself.
    .library(name: "KalendsClient", targets: ["KalendsClient"]),
  ],
  traits: [
    // Off by default: swift-nio-ssl compiles BoringSSL, minutes of a fresh build on two cores,
    // for a listener most people keep on the Unix socket or behind a TLS proxy.
    .trait(
      name: "TLS",
      description: "TLS for `kalends serve --listen` and for KalendsClient's TCP endpoints (swift-nio-ssl)")
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    // HTTP for `kalends witness serve` (C2SP tlog-witness) and the store server; without its
    // default traits, which build swift-configuration, unused here.
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
    // NIOCore's channel and socket options, for the store server's peer credentials.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    // TLS for the store server's TCP listener (through HummingbirdTLS) and for KalendsClient, with
    // the trait TLS only.
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    // The servers' logs: warnings and errors, on standard error.
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    // HTTP field names beyond those Hummingbird re-exports (Last-Event-ID).
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    // HTTP request and response parts in NIO pipelines (the store server's header timeout).
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    // Graceful shutdown: the store server's open change streams end when it stops.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    // `swift package generate-documentation` (the DocC catalog in Sources/Kalends/Kalends.docc).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CLMDB",
      pkgConfig: "lmdb",
      providers: [.apt(["liblmdb-dev"])]
    ),
    // Kalends' boundary to LMDB (non-copyable transactions lent to closures, typed errors). Not a
    // product: LMDB is how Kalends stores, not what it offers; `StorageFailure` carries its errors.
    // The platform's C library, re-exported once: LMDB and Kalends import it instead of a
    // `#if canImport(Glibc)` block in every file.
    .target(name: "Platform", swiftSettings: strictSettings),
    .target(
      name: "LMDB",
      dependencies: ["CLMDB", "Platform"],
      swiftSettings: strictSettings
    ),
    // Ed25519 for signed checkpoints (C2SP signed-note), and the keyed hash and authenticated
    // encryption that seal the log's positions the server shows apps: libsodium from the system,
    // as LMDB, rather than a copy of BoringSSL built from source.
    .systemLibrary(
      name: "CSodium",
      pkgConfig: "libsodium",
      providers: [.apt(["libsodium-dev"])]
    ),
    // The NATS C client (libnats) from the system: JetStream, which a fleet's audit is mirrored
    // over (`kalends fleet`).
    .systemLibrary(
      name: "CNATS",
      pkgConfig: "libnats",
      providers: [.apt(["libnats-dev"])]
    ),
    // The P-256 and AES-128-GCM operations of Web Push (RFC 8291 message encryption, RFC 8292
    // VAPID) on the system's OpenSSL libcrypto, as LMDB and libsodium come from the system:
    // libsodium has no P-256, and a copy of BoringSSL built from source is what the default build
    // avoids.
    .target(
      name: "CWebPush",
      linkerSettings: [.linkedLibrary("crypto")]
    ),
    // The client side of TLS for the store's outbound requests (feeds, accounts, push services,
    // witnesses) on the system's OpenSSL libssl: https works in the default build, with no copy of
    // BoringSSL, and takes the system's security updates and roots.
    .target(
      name: "CTLSClient",
      linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
    ),
    .target(name: "CPrefetch"),
    .target(name: "CSHA256"),
    .target(
      name: "Kalends",
      dependencies: [
        "LMDB",
        "Platform",
        "CPrefetch",
        "CSHA256",
        "CSodium",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "KalendsSynthetic",
      dependencies: ["Kalends"],
      swiftSettings: strictSettings
    ),
    // What the command line and the store server both read and print: the JSON shapes of events,
    // calendars, contacts and records, the text forms of dates, alarms, rules and spans, the
    // edits they make, and the categories of the failures they report.
    .target(
      name: "KalendsFormats",
      dependencies: ["Kalends", "Platform"],
      swiftSettings: strictSettings
    ),
    // What the `kalends` command and the harness share: global options, the person's settings
    // file, exit statuses.
    .target(
      name: "KalendsCommandSupport",
      dependencies: [
        "Kalends",
        "KalendsFormats",
        "Platform",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSettings
    ),
    // The store server (`kalends serve`) and the witness server: listeners, caller
    // identification, prompts, routes, problem details. A library, so that another protocol front
    // end and the tests can build on it; not yet a product.
    .target(
      name: "KalendsServer",
      dependencies: [
        "Kalends",
        "KalendsFormats",
        "Platform",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["TLS"])),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOExtras", package: "swift-nio-extras"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      exclude: ["Assets"],
      swiftSettings: strictSettings,
      plugins: ["EmbedAssets"]
    ),
    // CalDAV on the store server (`/dav/`): calendar programs as apps under the same rules, a
    // front end mounted on KalendsServer. Not a product.
    .target(
      name: "KalendsDAV",
      dependencies: [
        "Kalends",
        "KalendsFormats",
        "KalendsServer",
        "KalendsSync",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      swiftSettings: strictSettings
    ),
    // What the store syncs from outside and sends out: remote HTTP (bounded, TLS on the system's OpenSSL),
    // calendar feeds for subscribed calendars, accounts, Web Push messages. Not a product.
    .target(
      name: "KalendsSync",
      dependencies: [
        "Kalends",
        "KalendsFormats",
        "Platform",
        "CWebPush",
        "CTLSClient",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: strictSettings
    ),
    // A fleet's audit on NATS JetStream: stores publish their records, a mirror holds and verifies
    // them (`kalends fleet`). Not a product.
    .target(
      name: "KalendsFleet",
      dependencies: ["Kalends", "LMDB", "CNATS"],
      swiftSettings: strictSettings
    ),
    // The `kalends` command: parses command lines and starts things.
    .executableTarget(
      name: "KalendsCLI",
      dependencies: [
        "Kalends",
        "Platform",
        "KalendsSynthetic",
        "KalendsFormats",
        "KalendsCommandSupport",
        "KalendsServer",
        "KalendsDAV",
        "KalendsFleet",
        "KalendsSync",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: ["Assets"],
      swiftSettings: strictSettings,
      plugins: ["EmbedAssets"]
    ),
    // Apps' side of the store server: HTTP/1.1 over the Unix socket or TCP (TLS), SwiftNIO
    // directly rather than an HTTP client library (one dependency fewer to build).
    .target(
      name: "KalendsClient",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
      ],
      swiftSettings: strictSettings
    ),
    // An agenda app on KalendsClient: an example, and the server tests' real peer. Not a product.
    .executableTarget(
      name: "kalends-agenda",
      dependencies: [
        "KalendsClient",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Agenda",
      swiftSettings: strictSettings
    ),
    // A birthdays app on KalendsClient's contacts: an example, and the contact tests' real peer.
    .executableTarget(
      name: "kalends-birthdays",
      dependencies: [
        "KalendsClient",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Birthdays",
      swiftSettings: strictSettings
    ),
    // The crash and change-notice harness (`kalends-harness`): not a product; tools/crash-harness,
    // tools/damage-fuzz and the CLI tests run it beside the `kalends` it exercises,
    // Benchmarks/scripts/bench-server serves with it unrecorded, the yardstick of recording apps' reads, and
    // tools/test runs its speed guard (LMDB for the floors, the wrapper the store uses).
    .executableTarget(
      name: "kalends-harness",
      dependencies: [
        "Kalends",
        "KalendsSynthetic",
        "KalendsFormats",
        "KalendsCommandSupport",
        "KalendsServer",
        "KalendsDAV",
        "KalendsFleet",
        "LMDB",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/KalendsHarness",
      swiftSettings: strictSettings
    ),
    // The floor under Benchmarks/scripts/bench-server's figures: Hummingbird answering the timed routes with
    // constants, on the same kind of socket. Not a product.
    .executableTarget(
      name: "kalends-floor-server",
      dependencies: [
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Sources/KalendsFloorServer",
      swiftSettings: strictSettings
    ),
    // Embeds each file of a target's Assets/ folder as a Swift string at build time (the OpenAPI
    // document, the privacy report's script and style): edited as the files they are, carried
    // inside the executable. Not a product.
    .plugin(
      name: "EmbedAssets",
      capability: .buildTool(),
      dependencies: ["embed-asset"]
    ),
    .executableTarget(
      name: "embed-asset",
      path: "Plugins/EmbedAssetTool",
      swiftSettings: strictSettings
    ),
    // What the test targets share: temporary directories, the built `kalends` run as a process, a
    // store driven through it, a started store server. Not a product.
    .target(
      name: "KalendsTestSupport",
      dependencies: ["Kalends", "LMDB"],
      path: "Tests/Support",
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "LMDBTests",
      dependencies: ["LMDB", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KalendsTests",
      dependencies: ["Kalends", "KalendsSynthetic", "LMDB", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KalendsCLITests",
      dependencies: ["Kalends", "KalendsSynthetic", "LMDB", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
    // A fleet's audit: `kalends fleet` against real nats-servers (Debian's and a current one), and
    // the mirror in process against crafted bundles.
    .testTarget(
      name: "KalendsFleetTests",
      dependencies: ["Kalends", "KalendsFleet", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
    // CalDAV and CardDAV: real clients (python caldav, vdirsyncer, curl) against a started store
    // server, and the front end's parts in process.
    .testTarget(
      name: "KalendsDAVTests",
      dependencies: ["Kalends", "KalendsDAV", "KalendsFormats", "KalendsServer", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
    // The store server through real sockets, real apps and real peers (curl, schemathesis).
    .testTarget(
      name: "KalendsSyncTests",
      dependencies: ["KalendsSync", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KalendsServerTests",
      dependencies: ["Kalends", "KalendsServer", "KalendsTestSupport"],
      swiftSettings: strictSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
