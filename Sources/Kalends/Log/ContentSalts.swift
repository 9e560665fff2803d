internal import Platform

/// Random salts for the content commitments of format version 3 records, drawn from the kernel's
/// generator (`/dev/urandom`, opened once per process) 32 at a time rather than with one system
/// call per record.
///
/// A salt must be unpredictable: once a record's content is erased, its commitment must not
/// confirm a guess of the content (a title, a time), which a predictable salt would let anyone
/// check by hashing guesses.
struct ContentSalts {
  private var words: [UInt64] = []

  /// The kernel's generator, open for the life of the process.
  private static let source: Int32 = {
    let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { fatalError("cannot open /dev/urandom (errno \(errno)): no source of unpredictable salts") }
    return fd
  }()

  /// The next salt: 16 bytes as two words.
  mutating func next() -> (UInt64, UInt64) {
    if words.count < 2 { refill() }
    return (words.removeLast(), words.removeLast())
  }

  private mutating func refill() {
    var batch = [UInt64](repeating: 0, count: 64)
    batch.withUnsafeMutableBytes { buffer in
      var filled = 0
      while filled < buffer.count {
        let count = read(Self.source, buffer.baseAddress! + filled, buffer.count - filled)
        if count > 0 {
          filled += count
        } else if count == 0 || errno != EINTR {
          fatalError("reading /dev/urandom failed (errno \(errno)): no source of unpredictable salts")
        }
      }
    }
    words = batch
  }
}
