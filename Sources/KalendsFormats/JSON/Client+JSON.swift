package import Kalends

extension Client {
  /// The client as documented in docs/cli.md's JSON shapes.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("id", .string(id)),
      ("name", .string(name)),
      (
        "usageDescriptions",
        .object(
          Client.Usage.allCases.compactMap { usage in usageDescriptions[usage].map { (usage.description, .string($0)) }
          })
      ),
      (
        "requirement",
        requirement.map { requirement in
          .object([
            ("executable", .text(requirement.executable)),
            ("executableSha256", .text(requirement.executableSHA256.map(FileDigest.hex))),
            ("flatpakApp", .text(requirement.flatpakApp)),
          ])
        } ?? .null
      ),
      ("sdk", .number(Double(sdk))),
      ("version", .number(Double(version.rawValue))),
    ]
  }
}
