internal import Platform

/// Checks the page structure of an environment's `data.mdb` with plain reads, before LMDB maps it.
///
/// LMDB trusts its pages: a page overwritten with garbage or a file cut short makes it read outside
/// the file or the page, and the process dies of a memory fault. This check reads every page
/// reachable from the current meta page — the free list, the main database and every named
/// database, down to the overflow pages — and verifies what LMDB relies on: meta pages with the
/// magic and version, page numbers inside the file and the committed size, each page's own number
/// in its header, page types, the bounds of the pointer and node areas, every node and its data
/// inside its page, overflow runs inside the file, no page reached twice, keys in order (bytewise,
/// as every database here compares them), and each named database's catalog record against its
/// tree. It does not check the values themselves (the log's hash chain does that).
///
/// Use ``Environment/checkPages()``, which pins a snapshot so that concurrent writers do not reuse
/// the pages being read.
enum DataFileCheck {
  /// The first damage found in `directory/data.mdb` in the tree of the meta page of transaction
  /// `snapshot` (or of the newest meta page), or `nil` when its page structure is sound.
  ///
  /// Throws only when the file cannot be read at all (it is missing, unreadable). Returns
  /// ``Outcome/overtaken`` when `requireSnapshot` is set and neither meta page is the snapshot's
  /// any more (writers committed twice since it was taken).
  static func run(directory: String, snapshot: UInt64?, requireSnapshot: Bool = false) throws(LMDBError) -> Outcome {
    let descriptor = open(directory + "/data.mdb", O_RDONLY)
    guard descriptor >= 0 else { throw LMDBError.system(errno: errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw LMDBError.system(errno: errno) }
    var walk = DataFileWalk(descriptor: descriptor, fileSize: Int(status.st_size))
    return walk.run(snapshot: snapshot, requireSnapshot: requireSnapshot)
  }

  /// What a check found.
  enum Outcome {
    /// The structure is sound.
    case sound
    /// The first damage.
    case damaged(PageDamage)
    /// The snapshot's meta page was overwritten before it was read: check again.
    case overtaken
  }
}

extension Environment {
  /// Checks the page structure of the data file in `directory` without opening it (plain reads, no
  /// snapshot), for a file that LMDB refuses to open: a damaged meta page can make it ask for a map
  /// of exabytes. Returns the first damage, or `nil`.
  package static func checkPages(inDirectory directory: String) throws(LMDBError) -> PageDamage? {
    switch try DataFileCheck.run(directory: directory, snapshot: nil) {
    case .damaged(let damage): damage
    case .sound, .overtaken: nil
    }
  }

  /// Checks the page structure of `data.mdb` with plain reads (`DataFileCheck`) while a read
  /// snapshot is held, so that writers in this or other processes may go on: the pages of that
  /// snapshot are not reused while it is open. Returns the first damage, or `nil`.
  ///
  /// Writers that commit twice while the meta pages are read overwrite the snapshot's meta page;
  /// the check then starts again on a newer snapshot (and after 20 tries reads the newest meta).
  package func checkPages() throws(LMDBError) -> PageDamage? {
    for attempt in 0..<20 {
      let outcome = try withRawSnapshot { transactionID throws(LMDBError) in
        try DataFileCheck.run(directory: path, snapshot: transactionID, requireSnapshot: attempt < 19)
      }
      switch outcome {
      case .sound: return nil
      case .damaged(let damage): return damage
      case .overtaken: continue
      }
    }
    return nil
  }
}
