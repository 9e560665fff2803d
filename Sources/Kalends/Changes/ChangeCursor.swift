internal import Foundation

/// A subscriber's durable place in the log: the last position it has handled, saved under a name
/// in the store directory (`cursors/NAME`), so that it resumes after a restart from the position
/// after it — no gap, no duplicate — and `kalends status` can say how far behind it is.
///
/// Cursors are operational state, not facts: they live beside the LMDB environment, not in the
/// log, and saving one never takes the writer lock.
public struct ChangeCursor: Hashable, Sendable {
  /// Its name: 1 to 64 letters, digits, `.`, `_` or `-`.
  public let name: String
  /// The last position handled.
  public let position: LogPosition
  /// When it was saved.
  public let savedAt: Timestamp

  /// The position to resume from.
  public var resumePosition: LogPosition { position.next }

  static func check(_ name: String) throws(StoreError) {
    let allowed = name.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == 0x2E || byte == 0x5F || byte == 0x2D
    }
    guard allowed, (1...64).contains(name.utf8.count), name.first != "." else {
      throw .invalidInput(
        "cursor name \"\(name)\" is not valid: use 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
    }
  }
}

extension Store {
  private var cursorDirectory: String { path + "/cursors" }

  /// Saves the cursor `name` at `position` (atomically: a crash leaves the old or the new one).
  @discardableResult
  public func saveChangeCursor(_ name: String, at position: LogPosition) throws(StoreError) -> ChangeCursor {
    try ChangeCursor.check(name)
    let cursor = ChangeCursor(name: name, position: position, savedAt: .now())
    let text = "\(position.rawValue)\n\(cursor.savedAt.rawValue)\n"
    do {
      try FileManager.default.createDirectory(atPath: cursorDirectory, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: cursorDirectory + "/" + name), options: .atomic)
    } catch {
      throw .fileSystem("cannot save the cursor \(name) in \(cursorDirectory): \(error.localizedDescription)")
    }
    return cursor
  }

  /// The cursor `name`, or `nil` when it was never saved.
  public func changeCursor(_ name: String) throws(StoreError) -> ChangeCursor? {
    try ChangeCursor.check(name)
    guard let data = FileManager.default.contents(atPath: cursorDirectory + "/" + name) else { return nil }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    guard lines.count >= 2, let position = UInt64(lines[0]), let saved = Int64(lines[1]) else {
      throw .invalidInput("the cursor file \(cursorDirectory)/\(name) is malformed; remove it to start over")
    }
    return ChangeCursor(name: name, position: LogPosition(position), savedAt: Timestamp(rawValue: saved))
  }

  /// Every saved cursor, by name.
  public func changeCursors() throws(StoreError) -> [ChangeCursor] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: cursorDirectory)) ?? []
    var cursors: [ChangeCursor] = []
    for name in names.sorted() where (try? ChangeCursor.check(name)) != nil {
      if let cursor = try changeCursor(name) { cursors.append(cursor) }
    }
    return cursors
  }

  /// How far `position` is behind the head: in records, and in seconds since the first record
  /// after it was appended — how long the oldest change not yet handled has waited (0 at the head).
  public func lag(of position: LogPosition) throws(StoreError) -> (records: UInt64, seconds: Double) {
    let head = try head().position
    guard head > position else { return (0, 0) }
    let first = try record(at: position.next).timestamp
    return (head.rawValue - position.rawValue, max(0, Timestamp.now().secondsSince1970 - first.secondsSince1970))
  }
}
