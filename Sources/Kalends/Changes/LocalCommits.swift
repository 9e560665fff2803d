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

  /// How many recent commits are remembered per store, at least.
  static let capacity = 4_096

  private static let commits = Mutex<[StoreID: [Commit]]>([:])

  /// Notes that this process is committing `first...last`, whose last record hashes to `lastHash`.
  static func register(_ store: StoreID, first: LogPosition, last: LogPosition, lastHash: RecordHash) {
    commits.withLock { all in
      // In place (a copy out of the dictionary would copy the whole list on every commit), and
      // trimmed back to `capacity` only once it holds twice as many: O(1) amortised per commit.
      all[store, default: []].append(Commit(first: first, last: last, lastHash: lastHash))
      let count = all[store, default: []].count
      if count > 2 * capacity { all[store, default: []].removeFirst(count - capacity) }
    }
  }

  /// The registered commits that end within `range`, by last position.
  static func commits(_ store: StoreID, endingIn range: ClosedRange<LogPosition>) -> [LogPosition: Commit] {
    commits.withLock { all in
      var found: [LogPosition: Commit] = [:]
      guard let list = all[store] else { return found }
      // Registered under the writer lock, in log order: the list is sorted by last position, so
      // a binary search finds the range instead of a scan of every remembered commit per notice.
      var low = 0
      var high = list.count
      while low < high {
        let middle = (low + high) / 2
        if list[middle].last < range.lowerBound { low = middle + 1 } else { high = middle }
      }
      for commit in list[low...] {
        guard commit.last <= range.upperBound else { break }
        found[commit.last] = commit
      }
      return found
    }
  }
}
