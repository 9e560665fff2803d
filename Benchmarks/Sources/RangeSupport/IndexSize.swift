import Foundation
import RawLMDB

/// The size on disk of LMDB databases, from LMDB's own statistics (`mdb_stat`: branch, leaf and
/// overflow pages times the page size).
public enum IndexSize {
  /// One database's pages, entries and bytes.
  public struct Database: Sendable {
    public let name: String
    public let pages: Int
    public let entries: Int
    public let bytes: Int
  }

  /// The range projection's databases in the store at `path`.
  public static let rangeDatabases = ["range.instances", "range.open", "range.items", "range.meta"]

  /// The statistics of `names` in the store at `path`.
  public static func measure(_ path: String, _ names: [String] = rangeDatabases) throws -> [Database] {
    try names.map { name in
      var pages = 0
      var entries = 0
      var pageSize: UInt32 = 0
      let code = raw_lmdb_database_stat(path, name, &pages, &entries, &pageSize)
      guard code == 0 else { throw Failure(code: code, database: name) }
      return Database(name: name, pages: pages, entries: entries, bytes: pages * Int(pageSize))
    }
  }

  /// `mdb_stat` failed.
  public struct Failure: Error, CustomStringConvertible {
    public let code: Int32
    public let database: String
    public var description: String { "\(database): LMDB error \(code): " + String(cString: raw_lmdb_strerror(code)) }
  }

  /// The same as JSON: `{"databases": {name: {pages, entries, bytes}}, "dataFile": bytes}`.
  public static func json(_ path: String) throws -> [String: Any] {
    var databases: [String: Any] = [:]
    for database in try measure(path) {
      databases[database.name] = ["pages": database.pages, "entries": database.entries, "bytes": database.bytes]
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
    let size = (attributes?[.size] as? Int) ?? 0
    return ["databases": databases, "dataFile": size]
  }
}
