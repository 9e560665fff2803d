/// Callers the store server refused because it could not take them for a registered app: one
/// `callerUnidentified` record (docs/log-format.md §4, kind 406), with what the kernel said about
/// the process (or the TCP peer's address and the token it presented).
public struct UnidentifiedCaller: Hashable, Sendable {
  /// The record.
  public let position: LogPosition
  /// When it was appended.
  public let timestamp: Timestamp
  /// The kernel's word about the caller: uid, pid, executable and its digest, or address and token id.
  public let evidence: CallerEvidence
  /// How many connections of this caller the record stands for (refused within one minute).
  public let count: Int
}
