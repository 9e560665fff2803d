// swift-tools-version: 6.1

// The Kalends benchmark suite, a package of its own so that the root package's `swift build` and
// `swift test` never build package-benchmark. Run from the repository root with
// `swift package --package-path Benchmarks benchmark` (see README.md).

import PackageDescription

let package = Package(
  name: "KalendsBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Kalends", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    // The same SHA-256 the log uses, to measure the hash alone (the floor under every append).
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
  ],
  targets: [
    // The raw LMDB baseline, in C against <lmdb.h>: the bare minimum LMDB work each benchmark of our
    // layer is compared with. Its header does not expose <lmdb.h>, so it never clashes with the
    // root package's CLMDB module.
    .target(
      name: "RawLMDB",
      path: "Sources/RawLMDB",
      linkerSettings: [.linkedLibrary("lmdb")]
    ),
    // What the suites share: scratch directories, the workload records, the raw environment.
    .target(
      name: "BenchmarkSupport",
      dependencies: [.product(name: "Kalends", package: "Kalends"), "RawLMDB"],
      path: "Sources/BenchmarkSupport"
    ),
    // SHA-256 through OpenSSL's libcrypto (libssl-dev), a yardstick for swift-crypto's.
    .target(
      name: "LibcryptoSHA256",
      path: "Sources/LibcryptoSHA256",
      linkerSettings: [.linkedLibrary("crypto")]
    ),
    // BoringSSL's SHA-256 as swift-crypto links it, called from C without the Swift wrapper. Only in
    // executables that also link Crypto, which brings the symbol.
    .target(
      name: "BoringSSLSHA256",
      path: "Sources/BoringSSLSHA256"
    ),
    // SQLite's C API from the system (Debian's libsqlite3-dev, which Benchmarks/scripts/bench-range
    // installs when missing): the peer the range queries are compared with.
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // The floor under the range queries, in C: the same occurrences in the leanest LMDB layouts
    // and in a tuned SQLite (Sources/RangeFloor/include/RangeFloor.h).
    .target(
      name: "RangeFloor",
      path: "Sources/RangeFloor",
      linkerSettings: [.linkedLibrary("lmdb"), .linkedLibrary("sqlite3")]
    ),
    // The range and audit suites' fixtures: cached big stores, query windows, the SQLite peer.
    .target(
      name: "RangeSupport",
      dependencies: [
        .product(name: "Kalends", package: "Kalends"), .product(name: "KalendsSynthetic", package: "Kalends"),
        "BenchmarkSupport", "RawLMDB", "CSQLite", "RangeFloor",
      ],
      path: "Sources/RangeSupport"
    ),
    // The range and audit fixtures outside the harness: builds the cached stores, prints summaries.
    .executableTarget(
      name: "range-workload",
      dependencies: [
        "RangeSupport", .product(name: "Kalends", package: "Kalends"),
        .product(name: "KalendsSynthetic", package: "Kalends"),
      ],
      path: "Sources/range-workload"
    ),
    // The recurrence benchmarks' expansions outside the harness: summaries to compare with
    // python-dateutil, and a driver for callgrind and perf.
    .executableTarget(
      name: "recurrence-workload",
      dependencies: ["BenchmarkSupport", .product(name: "Kalends", package: "Kalends")],
      path: "Sources/recurrence-workload"
    ),
    // One workload at a time outside the harness, for callgrind and perf.
    .executableTarget(
      name: "log-workload",
      dependencies: ["BenchmarkSupport", "RawLMDB", .product(name: "Kalends", package: "Kalends")],
      path: "Sources/log-workload"
    ),
  ],
  swiftLanguageModes: [.v6]
)

/// A package-benchmark suite: an executable in `Benchmarks/<name>` run by the benchmark plugin.
func benchmarkSuite(_ name: String, dependencies: [Target.Dependency] = []) -> Target {
  .executableTarget(
    name: name,
    dependencies: [.product(name: "Benchmark", package: "benchmark")] + dependencies,
    path: "Benchmarks/\(name)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
  )
}

// One suite per area.
package.targets += [
  benchmarkSuite(
    "LogBenchmarks",
    dependencies: [
      .product(name: "Kalends", package: "Kalends"),
      "BenchmarkSupport",
      "RawLMDB",
      "LibcryptoSHA256",
      "BoringSSLSHA256",
      .product(name: "Crypto", package: "swift-crypto"),
    ]
  ),
  benchmarkSuite(
    "HashBenchmarks",
    dependencies: [
      .product(name: "Kalends", package: "Kalends"),
      "BenchmarkSupport",
      "LibcryptoSHA256",
      "BoringSSLSHA256",
      .product(name: "Crypto", package: "swift-crypto"),
    ]
  ),
  benchmarkSuite(
    "RecurrenceBenchmarks",
    dependencies: [.product(name: "Kalends", package: "Kalends"), "BenchmarkSupport"]
  ),
  benchmarkSuite(
    "RangeBenchmarks",
    dependencies: [
      .product(name: "Kalends", package: "Kalends"), .product(name: "KalendsSynthetic", package: "Kalends"),
      "BenchmarkSupport", "RangeSupport",
    ]
  ),
  benchmarkSuite(
    "AuditBenchmarks",
    dependencies: [.product(name: "Kalends", package: "Kalends"), "BenchmarkSupport", "RangeSupport"]
  ),
]
