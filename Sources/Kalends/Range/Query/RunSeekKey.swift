internal import LMDB

/// `calendar (16) ‖ domain (1) ‖ class (1) ‖ start (8)`: where a range query's scan of one run
/// seeks to, held inline so that a query's seeks allocate nothing.
struct RunSeekKey: LMDBBytes {
  private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

  /// The key of `calendar`'s run on `domain` in `durationClass`, at `start`.
  init(_ calendar: ObjectID, _ domain: RangeKey.Domain, _ durationClass: UInt8, start: Int64) {
    withUnsafeMutableBytes(of: &storage) { bytes in
      calendar.store(in: bytes, at: 0)
      bytes[16] = domain.rawValue
      bytes[17] = durationClass
      bytes.storeBytes(of: RangeKey.sortable(start), toByteOffset: RangeKey.startOffset, as: UInt64.self)
    }
  }

  func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R {
    try withUnsafeBytes(of: storage) { bytes in
      try body(RawSpan(_unsafeBytes: UnsafeRawBufferPointer(rebasing: bytes[..<(RangeKey.startOffset + 8)])))
    }
  }
}
