internal import Foundation
internal import LMDB

extension Store {
  /// Checks the page structure of the data file of the store in `path` with plain reads, before
  /// anything maps it, and returns the first damage (``IntegrityProblem/Kind/damagedPage``), or
  /// `nil` when LMDB can read every page safely.
  ///
  /// Damage in the log is reported at the first position that cannot be read (every record before
  /// it is intact as far as the pages go); damage elsewhere at position 0, naming the database.
  /// `verify` runs this first, so that a damaged file gives an error instead of a memory fault.
  public static func checkDataFile(at path: String) throws(StoreError) -> IntegrityProblem? {
    guard FileManager.default.fileExists(atPath: path + "/data.mdb") else { throw .storeNotFound(path: path) }
    let damage: PageDamage?
    do {
      damage = try Environment(path: path, options: StoreOptions(readOnly: true).environmentOptions).checkPages()
    } catch .invalid {
      throw .notAStore(path: path, reason: "data.mdb is not an LMDB file")
    } catch {
      guard let found = damageRefusingOpen(path) else { throw .storage(StorageFailure(error)) }
      damage = found
    }
    return damage.map(problem)
  }

  /// The damage that made LMDB refuse to open the data file in `path`, if that is why.
  static func damageRefusingOpen(_ path: String) -> PageDamage? {
    (try? Environment.checkPages(inDirectory: path)) ?? nil
  }

  /// The integrity problem that `damage` is: in the log, at the first position that cannot be read.
  static func problem(_ damage: PageDamage) -> IntegrityProblem {
    guard damage.database == MetaKey.logDatabase else {
      let place = damage.database.map { "database \($0)" } ?? "LMDB's own pages"
      return IntegrityProblem(
        position: .none, kind: .damagedPage, detail: "page \(damage.page) (\(place)) is damaged: \(damage.reason)")
    }
    let last =
      damage.lastIntactKey.flatMap { key in key.count == 8 ? key.reduce(0) { $0 << 8 | UInt64($1) } : nil } ?? 0
    return IntegrityProblem(
      position: LogPosition(last + 1), kind: .damagedPage,
      detail: "page \(damage.page) of the log, holding position \(last + 1) on, is damaged: \(damage.reason)")
  }

  /// Refuses a data file shorter than its committed pages (a truncated copy), which LMDB would
  /// read past its end.
  static func checkFileLength(_ environment: Environment, path: String) throws(StoreError) {
    let info: EnvironmentInfo
    let pageSize: Int
    do {
      info = try environment.info()
      pageSize = try environment.statistics().pageSize
    } catch {
      throw .storage(StorageFailure(error))
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
    let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
    let committed = (info.lastPageNumber + 1) * pageSize
    guard committed <= size else {
      throw .integrity(
        IntegrityProblem(
          position: .none, kind: .damagedPage,
          detail: "data.mdb is \(size) bytes but its committed pages reach \(committed): the file was truncated"))
    }
  }
}
