internal import CPrefetch

/// Software prefetches for the bulk loaders of a rebuild, which read records, states and entries in
/// an order the processor cannot guess (a state read in key order lies where its record was, in log
/// order).
enum Prefetch {
  /// How many entries ahead of the one a loader writes it asks for a state.
  static let distance = 8

  /// Asks for the cache lines of the first `limit` bytes of `range` of `buffer` (a hint: it never
  /// faults).
  static func bytes(_ range: Range<Int>, of buffer: UnsafeRawBufferPointer, limit: Int = 256) {
    guard !range.isEmpty, let base = buffer.baseAddress else { return }
    for offset in stride(from: range.lowerBound, to: min(range.upperBound, range.lowerBound + limit), by: 64) {
      kalends_prefetch(base + offset)
    }
  }
}
