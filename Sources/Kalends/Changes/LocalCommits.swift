import Synchronization

/// The commits this process made lately, per store, so that a notice can say whether its records
/// came from this process or another.
///
/// A commit is registered inside its write transaction, under LMDB's writer lock, with the hash
/// of its last record; a notice counts a commit as local only when the record it reads at that
/// position has that hash, so a registration whose transaction then failed can never be mistaken
/// for another process's record at the same position.
enum LocalCommits {
  struct Commit: Hashable {
    var first: LogPosition
    var last: LogPosition
    var lastHash: RecordHash
  }

  /// How many recent commits are remembered per store.
  static let capacity = 4_096

  private static let commits = Mutex<[StoreID: [Commit]]>([:])

  /// Notes that this process is committing `first...last`, whose last record hashes to `lastHash`.
  static func register(_ store: StoreID, first: LogPosition, last: LogPosition, lastHash: RecordHash) {
    commits.withLock { all in
      var list = all[store, default: []]
      if list.count >= capacity { list.removeFirst(list.count - capacity + 1) }
      list.append(Commit(first: first, last: last, lastHash: lastHash))
      all[store] = list
    }
  }

  /// The registered commits that end within `range`, by last position.
  static func commits(_ store: StoreID, endingIn range: ClosedRange<LogPosition>) -> [LogPosition: Commit] {
    commits.withLock { all in
      var found: [LogPosition: Commit] = [:]
      for commit in all[store] ?? [] where range.contains(commit.last) { found[commit.last] = commit }
      return found
    }
  }
}
