/// What the store server shows an app of the log's positions: never the positions themselves.
///
/// A position counts every record in the store, so an app that saw positions would watch the
/// person's activity in calendars it may not see: a version jumping by three between two of its
/// own saves, a read's position moving while nothing it sees changed. So each app gets, under a
/// key of its own derived from the store's secret (``Store/positionSeal()``):
/// - **entity tags** for versions (`ETag`, the JSON `version`): a keyed hash of the version,
///   16 bytes in base64url. Equal for the same version, so that `If-None-Match` and `If-Match`
///   work and an unchanged object keeps its tag; unordered and unrelated across apps, so that
///   they count nothing.
/// - **position tokens** for where it read and what it heard (`Kalends-Position`, change stream
///   ids, `Last-Event-ID`): the position encrypted and authenticated (XChaCha20-Poly1305) with a
///   random nonce, 48 bytes in base64url. Two tokens for the same position differ, so that
///   comparing them tells nothing; only the server can open them, and a token made up or taken
///   from another app does not open.
///
/// Tags and tokens last as long as the store's secret, which `compact`, backups and restores keep.
package struct PositionSeal: Sendable {
  /// The store's secret, 32 bytes.
  private let key: [UInt8]

  /// A seal with the store's secret `key` (32 bytes).
  package init(key: [UInt8]) {
    precondition(key.count == Sodium.keyLength, "a position seal's key is 32 bytes")
    self.key = key
  }

  /// What app `client` is shown.
  package func view(for client: String) -> AppPositions {
    let name = Array(client.utf8)
    return AppPositions(
      tagKey: Sodium.keyedHash(Array("kalends version tags v1\0".utf8) + name, key: key),
      tokenKey: Sodium.keyedHash(Array("kalends position tokens v1\0".utf8) + name, key: key))
  }
}
