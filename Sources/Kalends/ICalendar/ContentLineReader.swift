/// Splits the bytes of an iCalendar file into unfolded content lines (RFC 5545 §3.1): lines end in
/// CRLF (a bare LF is accepted too), and a line starting with a space or a tab continues the one
/// before. Blank lines and a UTF-8 byte-order mark are skipped.
enum ContentLineReader {
  /// The longest content line accepted, in bytes after unfolding: a little more than the 1 MiB a
  /// text field may hold, so that such a field with its name and escapes still fits.
  static let maximumLineLength = (1 << 20) + (1 << 16)

  /// The content lines of `bytes`, each with the physical line it starts on.
  static func lines(of bytes: [UInt8]) throws(ICalendarError) -> [ContentLine] {
    var result: [ContentLine] = []
    var current: [UInt8] = []
    var folds: [Int] = []  // offsets in `current` where each continuation line starts
    var currentLine = 0
    var physical = 0
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    func flush() throws(ICalendarError) {
      guard !current.isEmpty else { return }
      guard let text = String(validating: current, as: UTF8.self) else {
        let bad = firstInvalidOffset(current)
        throw ICalendarError(line: currentLine + folds.filter { $0 <= bad }.count, .invalidUTF8)
      }
      do {
        result.append(try ContentLine(parsing: text, line: currentLine))
      } catch {
        // A file cut off in the middle of its last line is truncated rather than malformed.
        if index >= bytes.count, bytes.last != 10 { throw ICalendarError(line: currentLine, .truncated) }
        throw error
      }
      current.removeAll(keepingCapacity: true)
      folds.removeAll()
    }
    while index < bytes.count {
      physical += 1
      var end = index
      while end < bytes.count, bytes[end] != 10 { end += 1 }
      var lineEnd = end
      if lineEnd > index, bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
      if lineEnd > index, bytes[index] == 32 || bytes[index] == 9, !current.isEmpty {
        folds.append(current.count)
        current.append(contentsOf: bytes[(index + 1)..<lineEnd])
      } else {
        try flush()
        currentLine = physical
        current.append(contentsOf: bytes[index..<lineEnd])
      }
      if current.count > maximumLineLength {
        throw ICalendarError(line: currentLine, .lineTooLong(octets: current.count))
      }
      index = end + 1
    }
    try flush()
    return result
  }

  /// The offset of the first byte that is not part of a valid UTF-8 sequence.
  private static func firstInvalidOffset(_ bytes: [UInt8]) -> Int {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .error: return offset
      case .emptyInput: return offset
      }
    }
  }
}
