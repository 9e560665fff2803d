internal import Foundation
internal import LMDB

/// The state of a store at a glance.
public struct StoreStatus: Hashable, Sendable {
  /// The last position and its hash.
  public let head: LogHead
  /// Bytes of `data.mdb` on disk.
  public let fileSize: Int
  /// Bytes of the file that hold pages in use.
  public let usedSize: Int
  /// The current size of the memory map.
  public let mapSize: Int
  /// Reader slots in use across processes.
  public let readers: Int
}

extension Store {
  /// The head, sizes and readers.
  public func status() throws(StoreError) -> StoreStatus {
    let head = try head()
    return try StoreError.wrapping {
      let info = try environment.info()
      let statistics = try environment.statistics()
      let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
      let fileSize = (attributes?[.size] as? NSNumber)?.intValue ?? 0
      return StoreStatus(
        head: head, fileSize: fileSize, usedSize: (info.lastPageNumber + 1) * statistics.pageSize,
        mapSize: info.mapSize, readers: info.readersUsed)
    }
  }
}
