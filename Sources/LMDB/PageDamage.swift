/// Damage found in the page structure of a data file by `Environment.checkPages()`.
package struct PageDamage: Hashable, Sendable, CustomStringConvertible {
  /// The damaged page's number.
  package let page: Int
  /// The database whose tree reaches the page: `nil` for the meta pages and the main database,
  /// `"(free)"` for LMDB's free-page list, else the named database.
  package let database: String?
  /// The last key read intact from `database` before the damage, in key order (`nil` if none).
  package let lastIntactKey: [UInt8]?
  /// What is wrong with the page.
  package let reason: String

  /// A finding at `page` of `database`.
  package init(page: Int, database: String?, lastIntactKey: [UInt8]?, reason: String) {
    self.page = page
    self.database = database
    self.lastIntactKey = lastIntactKey
    self.reason = reason
  }

  package var description: String {
    "page \(page)\(database.map { " of database \($0)" } ?? ""): \(reason)"
  }
}
