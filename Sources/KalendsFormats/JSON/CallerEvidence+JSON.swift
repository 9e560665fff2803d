package import Kalends

extension CallerEvidence {
  /// How a caller was identified, as docs/cli.md's JSON shapes and docs/server.md show it.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("identifiedBy", .string(method)),
      ("uid", uid.map { .number(Int($0)) } ?? .null),
      ("gid", gid.map { .number(Int($0)) } ?? .null),
      ("pid", pid.map { .number(Int($0)) } ?? .null),
      ("executable", .text(executable)),
      ("executableSha256", .text(executableSHA256.map(FileDigest.hex))),
      ("flatpakApp", .text(flatpakApp)),
      ("tokenId", .text(tokenID)),
      ("address", .text(address)),
      ("connection", connection.map { .string(String($0, radix: 16)) } ?? .null),
    ]
  }

  /// The `caller` of a record by `actor`: the evidence when the store server identified it,
  /// `"declared"` for an app's record without it (written with `--as`), nothing for the person,
  /// the system and policies.
  package static func caller(_ evidence: CallerEvidence?, actor: Principal) -> JSONValue? {
    if let evidence { return .object(evidence.jsonFields) }
    if case .client = actor { return .string("declared") }
    return nil
  }
}
