internal import Platform

extension Environment {
  /// What an `EIO` from a commit most likely means. LMDB reports a short write of its pages as
  /// `EIO` ("filesystem full?"), which is what a full disk or the file-size limit (`ulimit -f`)
  /// produce; the meta page is written only after every data page, so the commit did not happen.
  /// Returns ``LMDBError/system(errno:)`` with `EFBIG` when the data file reached the file-size
  /// limit, `ENOSPC` when its file system has (almost) no room left, else `EIO` itself.
  func causeOfFailedCommit() -> LMDBError {
    let file = path + "/data.mdb"
    var status = stat()
    var limit = rlimit()
    if stat(file, &status) == 0, getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0,
      limit.rlim_cur != rlim_t.max, UInt64(status.st_size) + 65_536 >= UInt64(limit.rlim_cur)
    {
      return .system(errno: EFBIG)
    }
    var space = statvfs()
    if statvfs(path, &space) == 0, UInt64(space.f_bavail) * UInt64(space.f_frsize) < 1 << 20 {
      return .system(errno: ENOSPC)
    }
    return .system(errno: EIO)
  }
}
