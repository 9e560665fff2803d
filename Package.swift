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
    .library(name: "LMDB", targets: ["LMDB"]),
    .executable(name: "kalends", targets: ["KalendsCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CLMDB",
      pkgConfig: "lmdb",
      providers: [.apt(["liblmdb-dev"])]
    ),
    .target(
      name: "LMDB",
      dependencies: ["CLMDB"],
      swiftSettings: strictSettings
    ),
    .target(name: "CPrefetch"),
    .target(name: "CSHA256"),
    .target(
      name: "Kalends",
      dependencies: [
        "LMDB",
        "CPrefetch",
        "CSHA256",
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "KalendsCLI",
      dependencies: [
        "Kalends",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "LMDBTests",
      dependencies: ["LMDB"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KalendsTests",
      dependencies: ["Kalends", "LMDB"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KalendsCLITests",
      dependencies: ["Kalends", "LMDB"],
      swiftSettings: strictSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
