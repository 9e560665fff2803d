/// What `stat(2)` says of a file, read here and nowhere else.
///
/// The C library's `struct stat` reaches Swift through whichever C module first includes
/// `<sys/stat.h>`: in a module that also imports Foundation or NIO, that may be `CDispatch` or
/// `CNIOLinux` rather than the C library, depending on the order the compiler loads them, and
/// reading its members then fails to build under `MemberImportVisibility`. This module imports the
/// C library alone, so the members are always its; other modules read these fields instead.
public struct FileStatus: Hashable, Sendable {
  /// The file type and permission bits (`st_mode`).
  public let mode: UInt32
  /// The owner's uid.
  public let owner: UInt32
  /// The device and inode: which file it is.
  public let device: UInt64
  public let inode: UInt64
  /// The size in bytes.
  public let size: Int64
  /// The last change of the content, and of the inode, as seconds and nanoseconds.
  public let modified: [Int]
  public let changed: [Int]

  private init(_ info: stat) {
    mode = UInt32(info.st_mode)
    owner = UInt32(info.st_uid)
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    changed = [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
  }

  /// The status of the file at `path`, following a final symbolic link unless `followingLinks`
  /// is `false` (`lstat`); `nil` when it cannot be read (`errno` says why).
  public init?(path: String, followingLinks: Bool = true) {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
    self.init(info)
  }

  /// The status of the open file `descriptor`; `nil` when it cannot be read.
  public init?(descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    self.init(info)
  }

  /// Whether it is a regular file.
  public var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
  /// Whether it is a socket.
  public var isSocket: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFSOCK) }
  /// The permission bits others and the group have (`mode & 0o077`): zero for a private file.
  public var sharedPermissions: UInt32 { mode & 0o077 }
}
