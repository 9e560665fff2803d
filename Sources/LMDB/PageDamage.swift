/// Damage found in the page structure of a data file by `Environment.checkPages()`.
public struct PageDamage: Hashable, Sendable, CustomStringConvertible {
  /// The damaged page's number.
  public let page: Int
  /// The database whose tree reaches the page: `nil` for the meta pages and the main database,
  /// `"(free)"` for LMDB's free-page list, else the named database.
  public let database: String?
  /// The last key read intact from `database` before the damage, in key order (`nil` if none).
  public let lastIntactKey: [UInt8]?
  /// What is wrong with the page.
  public let reason: String

  /// A finding at `page` of `database`.
  public init(page: Int, database: String?, lastIntactKey: [UInt8]?, reason: String) {
    self.page = page
    self.database = database
    self.lastIntactKey = lastIntactKey
    self.reason = reason
  }

  public var description: String {
    "page \(page)\(database.map { " of database \($0)" } ?? ""): \(reason)"
  }
}
