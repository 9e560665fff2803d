/// The end of the log: the last position and its hash, which commits to the whole history.
public struct LogHead: Hashable, Sendable {
  /// The last position (``LogPosition/none`` when empty).
  public let position: LogPosition
  /// The hash of the last record (``RecordHash/genesis`` when empty).
  public let hash: RecordHash

  /// A head at `position` whose record hashes to `hash`.
  public init(position: LogPosition, hash: RecordHash) {
    self.position = position
    self.hash = hash
  }

  /// The head of an empty log.
  public static let empty = LogHead(position: .none, hash: .genesis)
}
