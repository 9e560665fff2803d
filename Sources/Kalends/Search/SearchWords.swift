/// The words items are indexed and found by: split at whitespace and punctuation other than `'`
/// and `-` inside a word, folded as contact names are (case, diacritics, width:
/// ``ContactSearchKey``) and cut to ``maximumLength`` bytes at a character boundary.
enum SearchWords {
  /// Words are cut to this many bytes: a search never needs more.
  static let maximumLength = 60

  /// The words of `text`, in order, with repeats.
  static func of(_ text: String) -> [String] {
    var scratch: [UInt8] = []
    var ends: [Int] = []
    guard Array(text.utf8).withUnsafeBytes({ asciiWords($0, into: &scratch, ends: &ends) }) else {
      return ContactSearchKey.words(text).map(cut)
    }
    var start = 0
    return ends.map { end in
      defer { start = end }
      return String(decoding: scratch[start..<end], as: UTF8.self)
    }
  }

  /// Buffers ``append(ofState:in:_:to:scratch:)`` reuses from one state to the next.
  struct Scratch {
    fileprivate var texts: [Range<Int>] = []
    fileprivate var messages: [Range<Int>] = []
    fileprivate var bytes: [UInt8] = []
    fileprivate var ends: [Int] = []
    fileprivate var words: [Range<Int>] = []
  }

  /// Appends the words of the texts of a saved state to `entry`, sorted by their bytes, each once
  /// and followed by a 0 byte: an event's title, location and notes (tags 2, 7, 8) and those of its
  /// changed occurrences (each a message of tag 16), a reminder's title and notes (tags 2, 3), the
  /// first value of each tag as ``PayloadReader/string(_:)`` reads it. `state` is the state field's
  /// range in `payload`. Throws, appending nothing, when a text is not UTF-8 or a field is
  /// malformed.
  static func append(
    ofState state: Range<Int>, in payload: UnsafeRawBufferPointer, _ kind: ObjectKind, to entry: inout [UInt8],
    scratch: inout Scratch
  ) throws(StoreError) {
    scratch.texts.removeAll(keepingCapacity: true)
    scratch.messages.removeAll(keepingCapacity: true)
    scratch.bytes.removeAll(keepingCapacity: true)
    scratch.ends.removeAll(keepingCapacity: true)
    scratch.words.removeAll(keepingCapacity: true)
    let wanted: UInt32 = kind == .event ? 1 << 2 | 1 << 7 | 1 << 8 : 1 << 2 | 1 << 3
    try texts(in: state, of: payload, wanted, nested: kind == .event, &scratch)
    for index in scratch.messages.indices {
      try texts(in: scratch.messages[index], of: payload, wanted, nested: false, &scratch)
    }
    for range in scratch.texts {
      let text = UnsafeRawBufferPointer(rebasing: payload[range])
      guard (try? UTF8Span(validating: text.assumingMemoryBound(to: UInt8.self).span)) != nil else {
        throw .malformedPayload("a text of the \(kind) is not UTF-8")
      }
      if !asciiWords(text, into: &scratch.bytes, ends: &scratch.ends) {
        for word in ContactSearchKey.words(String(decoding: text, as: UTF8.self)) {
          scratch.bytes += cut(word).utf8
          scratch.ends.append(scratch.bytes.count)
        }
      }
    }
    var start = 0
    for end in scratch.ends {
      scratch.words.append(start..<end)
      start = end
    }
    scratch.bytes.withUnsafeBytes { bytes in
      if scratch.words.count > 1 { scratch.words.sort { bytes[$0].lexicographicallyPrecedes(bytes[$1]) } }
      var previous: Range<Int>?
      for word in scratch.words where previous.map({ !bytes[$0].elementsEqual(bytes[word]) }) ?? true {
        entry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[word]))
        entry.append(0)
        previous = word
      }
    }
  }

  /// Adds to `scratch.texts` the first value of each tag in `wanted` (a bit per tag) among the
  /// fields in `range`, and, when `nested`, to `scratch.messages` every field of tag 16.
  private static func texts(
    in range: Range<Int>, of payload: UnsafeRawBufferPointer, _ wanted: UInt32, nested: Bool,
    _ scratch: inout Scratch
  ) throws(StoreError) {
    var seen: UInt32 = 0
    try PayloadSpan.scan(payload, range) { span throws(StoreError) in
      let bit: UInt32 = span.tag < 32 ? 1 << span.tag : 0
      if wanted & bit != 0, seen & bit == 0 {
        seen |= bit
        scratch.texts.append(span.range)
      }
      if nested, span.tag == 16 { scratch.messages.append(span.range) }
    }
  }

  /// Splits ASCII `text` into words lowered byte by byte, appended end to end to `bytes` with
  /// where each ends in `ends`; returns `false`, appending nothing, when the text is not ASCII. The
  /// same words as the general path (letters, digits, and `'` or `-`), without a Unicode property
  /// lookup per character.
  private static func asciiWords(_ text: UnsafeRawBufferPointer, into bytes: inout [UInt8], ends: inout [Int]) -> Bool {
    guard text.allSatisfy({ $0 < 0x80 }) else { return false }
    var length = 0
    for byte in text {
      let kept: UInt8?
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 32
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "'"),
        UInt8(ascii: "-"):
        kept = byte
      default: kept = nil
      }
      if let kept {
        if length < maximumLength { bytes.append(kept) }
        length += 1
      } else if length > 0 {
        ends.append(bytes.count)
        length = 0
      }
    }
    if length > 0 { ends.append(bytes.count) }
    return true
  }

  /// `word` cut to ``maximumLength`` bytes at a character boundary.
  private static func cut(_ word: String) -> String {
    guard word.utf8.count > maximumLength else { return word }
    var cut = ""
    for character in word {
      guard cut.utf8.count + character.utf8.count <= maximumLength else { break }
      cut.append(character)
    }
    return cut
  }
}
