import Foundation
import Platform

/// Files only this user may read: a password file, an account's credentials file and its sync
/// status. One reader refuses what others could have read or written; one writer replaces a file
/// whole (written aside, then renamed) with mode 0600, in a directory of mode 0700.
enum PrivateFile {
  /// The bytes of `path`, a regular file of this user's that no one else may read or write;
  /// `missing` says what to do when there is none.
  static func read(_ path: String, missing: String) throws(AccountError) -> Data {
    guard let status = FileStatus(path: path) else { throw .credentials("\(path) \(missing)") }
    guard status.isRegularFile else { throw .credentials("\(path) is not a file") }
    guard status.owner == getuid() else { throw .credentials("\(path) belongs to another user") }
    guard status.sharedPermissions == 0 else {
      throw .credentials("\(path) may be read by others (mode \(String(status.mode & 0o777, radix: 8))) — chmod 600 it")
    }
    guard let data = FileManager.default.contents(atPath: path) else { throw .credentials("\(path) cannot be read") }
    return data
  }

  /// Replaces `path` with `data`, mode 0600, making its directory (mode 0700) when it is missing.
  static func write(_ data: Data, to path: String) throws(AccountError) {
    let temporary = path + ".new"
    do {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      try? FileManager.default.removeItem(atPath: temporary)
      guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
      else { throw CocoaError(.fileWriteUnknown) }
    } catch {
      throw .credentials("\(path) cannot be written: \(error)")
    }
    guard rename(temporary, path) == 0 else { throw .credentials("\(path) cannot be written (errno \(errno))") }
  }
}
