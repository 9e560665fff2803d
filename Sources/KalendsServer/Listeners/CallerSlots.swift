import Synchronization

/// Counts what each caller holds at once — connections, change streams — so that no single app
/// can take what the person and the other apps need: a caller at its limit is refused (`429`)
/// until it lets one go.
final class CallerSlots: Sendable {
  /// One slot held; released once, whichever of its holders lets it go first (the end of a
  /// stream, the close of its connection).
  final class Slot: Sendable {
    private let release: Mutex<(@Sendable () -> Void)?>

    fileprivate init(_ release: @escaping @Sendable () -> Void) {
      self.release = Mutex(release)
    }

    /// Gives the slot back; later calls do nothing.
    func free() {
      let release = self.release.withLock { release in
        defer { release = nil }
        return release
      }
      release?()
    }
  }

  /// How many slots one caller may hold at once.
  let limit: Int
  private let held = Mutex<[String: Int]>([:])

  init(limit: Int) {
    self.limit = limit
  }

  /// A slot for `caller`; `nil` when it holds ``limit`` already.
  func take(for caller: String) -> Slot? {
    let taken = held.withLock { held -> Bool in
      guard held[caller, default: 0] < limit else { return false }
      held[caller, default: 0] += 1
      return true
    }
    guard taken else { return nil }
    return Slot { [weak self] in
      self?.held.withLock { held in
        let left = held[caller, default: 1] - 1
        held[caller] = left > 0 ? left : nil
      }
    }
  }

  /// How many slots `caller` holds.
  func count(for caller: String) -> Int { held.withLock { $0[caller, default: 0] } }
}
