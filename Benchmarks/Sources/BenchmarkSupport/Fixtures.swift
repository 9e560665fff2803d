import Foundation
import Kalends
public import RawLMDB

/// A directory under the system temporary directory (`$TMPDIR`), removed by ``remove()``.
public struct ScratchDirectory: Sendable {
  public let path: String

  public init(_ label: String) {
    let template = NSTemporaryDirectory() + "kalends-bench-\(label)-XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let created = mkdtemp(&bytes) else { fatalError("mkdtemp failed for \(template)") }
    path = String(cString: created)
  }

  /// Where a store goes inside the directory.
  public var storePath: String { path + "/store" }

  public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The records every benchmark appends: notes of about 100 payload bytes by the person, written
/// through `Store.annotate(contentsOf:)`, the public way to append to the log.
public enum Workload {
  /// Note `index`: 100 bytes of text.
  public static func note(_ index: Int) -> String {
    let prefix = "note \(index): "
    return prefix + String(repeating: "x", count: max(0, 100 - prefix.utf8.count))
  }

  /// The size of a note once encoded as a version 1 log record (docs/log-format.md): 90 fixed bytes
  /// (version 1, position 8, timestamp 8, principal type 1, identifier length 2, kind 2, payload
  /// length 4, previous hash 32, hash 32), no identifier (the person), and the payload (tag 1, the
  /// text's length in LEB128, the text). The raw baselines store values of this size;
  /// `ReplayFixture` checks it against a record the store actually wrote.
  public static func encodedSize(ofNote text: String) -> Int {
    var lengthBytes = 1
    var length = text.utf8.count >> 7
    while length > 0 {
      lengthBytes += 1
      length >>= 7
    }
    return 90 + 1 + lengthBytes + text.utf8.count
  }

  /// A map large enough that no benchmark grows it (growth is a rare, separate event).
  public static let mapSize = 4 << 30
}

/// An open raw LMDB environment from the C baseline, closed by ``close()``.
public final class RawEnvironment: @unchecked Sendable {
  // One benchmark uses it at a time, from one thread.
  private let handle: OpaquePointer

  public init(path: String, durability: raw_lmdb_durability) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    var handle: OpaquePointer?
    try Self.check(raw_lmdb_open(path, durability, Workload.mapSize, "log", &handle))
    self.handle = handle!
  }

  public func close() { raw_lmdb_close(handle) }

  public func putCommit(key: UInt64, value: [UInt8]) {
    Self.mustSucceed(value.withUnsafeBytes { raw_lmdb_put_commit(handle, key, $0.baseAddress, $0.count) })
  }

  public func appendBatch(firstKey: UInt64, count: Int, value: [UInt8]) {
    Self.mustSucceed(
      value.withUnsafeBytes { raw_lmdb_append_batch(handle, firstKey, count, $0.baseAddress, $0.count) })
  }

  /// One transaction of `count` records built from the record template `value` and chained with
  /// `sha256`, as the log format requires (see `raw_lmdb_append_batch_chained`).
  public func appendChainedBatch(firstKey: UInt64, count: Int, value: [UInt8], sha256: raw_lmdb_sha256) {
    Self.mustSucceed(
      value.withUnsafeBytes {
        raw_lmdb_append_batch_chained(handle, firstKey, count, $0.baseAddress, $0.count, sha256)
      })
  }

  public func scan() -> (count: Int, checksum: UInt64) {
    var count = 0
    var checksum: UInt64 = 0
    Self.mustSucceed(raw_lmdb_scan(handle, &count, &checksum))
    return (count, checksum)
  }

  public func lastKey() throws -> UInt64 {
    var key: UInt64 = 0
    try Self.check(raw_lmdb_last_key(handle, &key))
    return key
  }

  public func valueSize(key: UInt64) throws -> Int {
    var size = 0
    try Self.check(raw_lmdb_value_size(handle, key, &size))
    return size
  }

  public func sync() throws { try Self.check(raw_lmdb_sync(handle)) }

  public struct Failure: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { "LMDB error \(code): " + String(cString: raw_lmdb_strerror(code)) }
  }

  private static func check(_ code: Int32) throws {
    if code != 0 { throw Failure(code: code) }
  }

  private static func mustSucceed(_ code: Int32) {
    if code != 0 { fatalError("\(Failure(code: code))") }
  }
}

extension Workload {
  /// Creates a store in `path` holding `records` workload records after its first (the store's
  /// creation), appended in batches of 10,000 without syncing, then flushed once.
  public static func fillStore(at path: String, records: Int) throws {
    let store = try Store.create(at: path, options: StoreOptions(durability: .noSync, initialMapSize: mapSize))
    let chunk = 10_000
    for start in stride(from: 0, to: records, by: chunk) {
      try store.annotate(contentsOf: (start..<min(start + chunk, records)).map(note))
    }
    try store.sync()
  }
}
