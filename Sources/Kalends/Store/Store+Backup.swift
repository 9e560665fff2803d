internal import Foundation
internal import LMDB

extension Store {
  /// Writes a consistent, compacted copy of the store into `destination` (a new or empty
  /// directory) while readers and writers go on, and returns the copy's head: every record committed
  /// before the copy began is in it, none committed after.
  ///
  /// The copy is a complete store: open it where it lies, or stop the writers and put it in the
  /// place of a damaged store.
  @discardableResult
  public func backup(to destination: String) throws(StoreError) -> LogHead {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: destination, isDirectory: &isDirectory) {
      let contents = (try? manager.contentsOfDirectory(atPath: destination)) ?? []
      guard isDirectory.boolValue, contents.isEmpty else {
        throw .destinationExists(path: destination)
      }
    } else {
      do {
        try manager.createDirectory(
          atPath: destination, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw .fileSystem("cannot create \(destination): \(error.localizedDescription) — check the path")
      }
    }
    do {
      try environment.copy(to: destination, compacting: true)
    } catch {
      try? manager.removeItem(atPath: destination + "/data.mdb")
      throw .storage(StorageFailure(error))
    }
    return try Store.open(at: destination, options: StoreOptions(readOnly: true)).head()
  }
}
