/// How an object changed over the positions a notice covers.
public enum ChangeKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// It was created (and may have changed again since): fetch it.
  case added
  /// It changed: refresh what you hold.
  case modified
  /// It was removed: drop it.
  case removed
  /// A client's registration or access decisions changed.
  case accessChanged

  public var description: String { rawValue }

  /// The net effect of `self` followed by `later` on the same object: an object added and then
  /// changed is still new to the subscriber; a removal wins over everything before it.
  func followed(by later: ChangeKind) -> ChangeKind {
    switch (self, later) {
    case (_, .removed): .removed
    case (.added, _): .added
    default: later
    }
  }
}
