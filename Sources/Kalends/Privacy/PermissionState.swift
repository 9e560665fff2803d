/// One client's standing for one service, as the permission projection stores it.
struct PermissionState: Hashable, Sendable {
  /// The current status.
  var status: AuthorizationStatus = .notDetermined
  /// Why it is so (meaningless while `notDetermined` without a decision).
  var reason: DecisionReason = .reset
  /// The decision's position; `.none` when never decided.
  var position: LogPosition = .none
  /// The person's own decision, in force whenever no policy restricts the service (what lifting
  /// the last restriction returns to).
  var underlying: AuthorizationStatus = .notDetermined
  /// Whether the one upgrade prompt from write-only to full access was shown.
  var upgradeAsked = false
  /// The policies that restrict the service, sorted: each policy's restriction is its own, and the
  /// status is `restricted` while any is in force.
  var restrictions: [String] = []

  init() {}

  init(
    status: AuthorizationStatus, reason: DecisionReason, position: LogPosition, underlying: AuthorizationStatus,
    upgradeAsked: Bool, restrictions: [String] = []
  ) {
    self.status = status
    self.reason = reason
    self.position = position
    self.underlying = underlying
    self.upgradeAsked = upgradeAsked
    self.restrictions = restrictions
  }

  /// Whether a request for `level` in this state is the one prompt that upgrades write-only access
  /// to full access.
  func isUpgrade(requesting level: AccessLevel) -> Bool {
    status == .writeOnly && level == .full && !upgradeAsked
  }

  /// Whether a request for `level` in this state asks the person: while undetermined, or for the
  /// upgrade.
  func asks(requesting level: AccessLevel) -> Bool {
    status == .notDetermined || isUpgrade(requesting: level)
  }

  /// Decodes ``encoded``; a value too short to be one reads as never decided.
  init(decoding bytes: RawSpan) {
    guard bytes.byteCount >= 12 else { return }
    status = AuthorizationStatus(rawValue: bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self)) ?? .notDetermined
    reason = DecisionReason(rawValue: bytes.unsafeLoad(fromByteOffset: 1, as: UInt8.self)) ?? .reset
    position = LogPosition(UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 2, as: UInt64.self)))
    underlying = AuthorizationStatus(rawValue: bytes.unsafeLoad(fromByteOffset: 10, as: UInt8.self)) ?? .notDetermined
    upgradeAsked = bytes.unsafeLoad(fromByteOffset: 11, as: UInt8.self) == 1
    var offset = 12
    while offset < bytes.byteCount {
      let length = Int(bytes.unsafeLoad(fromByteOffset: offset, as: UInt8.self))
      guard offset + 1 + length <= bytes.byteCount else { break }
      let name = bytes.extracting((offset + 1)..<(offset + 1 + length))
      restrictions.append(name.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
      offset += 1 + length
    }
  }

  /// `status (1) ‖ reason (1) ‖ position (8) ‖ underlying (1) ‖ upgradeAsked (1)`, then each
  /// restricting policy as `length (1) ‖ UTF-8 name` (names are at most 255 bytes).
  var encoded: [UInt8] {
    var out: [UInt8] = [status.rawValue, reason.rawValue]
    RecordCodec.appendBigEndian(position.rawValue, to: &out)
    out.append(underlying.rawValue)
    out.append(upgradeAsked ? 1 : 0)
    for name in restrictions {
      out.append(UInt8(name.utf8.count))
      out.append(contentsOf: name.utf8)
    }
    return out
  }
}
