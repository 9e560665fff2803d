internal import Platform

/// One pass of ``DataFileCheck`` over a data file; stops at the first damage.
struct DataFileWalk {
  // LMDB's on-disk layout on a 64-bit platform (lmdb.h, mdb.c 0.9).
  static let headerSize = 16
  static let nodeSize = 8
  static let branch: UInt16 = 0x01
  static let leaf: UInt16 = 0x02
  static let overflow: UInt16 = 0x04
  static let meta: UInt16 = 0x08
  static let leaf2: UInt16 = 0x20
  static let bigData: UInt16 = 0x01
  static let subData: UInt16 = 0x02
  static let dupData: UInt16 = 0x04
  static let magic: UInt32 = 0xBEEF_C0DE
  static let dataVersion: UInt32 = 1
  static let noPage = UInt64.max
  static let databaseRecordSize = 48

  let descriptor: Int32
  var fileSize: Int
  var pageSize = 4096
  var lastPage = 0
  var visited = Set<Int>()
  var buffer: [UInt8] = []
  /// The named databases found in the main database: name and `MDB_db` record.
  var named: [(String, [UInt8])] = []
  /// Whether the tree being walked is the main database, the only one that names databases.
  var walkingMain = false
  /// Whether the tree being walked has LMDB's integer keys (its free list: transaction numbers in
  /// the machine's order) rather than keys compared byte by byte.
  var integerKeys = false
  /// The separator of the branch just entered: the next leaf key must not sort before it.
  var lowerBound: [UInt8]?
  /// The catalog page holding each named database's record.
  var catalogPages: [String: Int] = [:]
  /// What the tree being walked holds, for comparison with its record.
  var counted = TreeCounts()

  /// A tree's depth, pages and entries, as an `MDB_db` record states them.
  struct TreeCounts: Equatable, CustomStringConvertible {
    var depth = 0
    var branchPages = 0
    var leafPages = 0
    var overflowPages = 0
    var entries = 0

    var description: String {
      "depth \(depth), \(branchPages) branch, \(leafPages) leaf and \(overflowPages) overflow pages, \(entries) entries"
    }
  }
  /// Whether the snapshot's meta page had been overwritten when it was looked for.
  var overtaken = false

  init(descriptor: Int32, fileSize: Int) {
    self.descriptor = descriptor
    self.fileSize = fileSize
  }

  /// The trees of the snapshot's meta page (else the newest), walked in order.
  mutating func run(snapshot: UInt64?, requireSnapshot: Bool) -> DataFileCheck.Outcome {
    let damage = walk(snapshot: snapshot, requireSnapshot: requireSnapshot)
    if overtaken { return .overtaken }
    return damage.map { .damaged($0) } ?? .sound
  }

  /// The first damage found (`nil`, with ``overtaken`` set, when the snapshot is required and its
  /// meta page was overwritten).
  private mutating func walk(snapshot: UInt64?, requireSnapshot: Bool) -> PageDamage? {
    guard fileSize >= 2 * Self.headerSize + 136 else {
      return PageDamage(page: 0, database: nil, lastIntactKey: nil, reason: "the file is too short to hold a meta page")
    }
    guard let first = read(at: 0, count: 160) else {
      return PageDamage(page: 0, database: nil, lastIntactKey: nil, reason: "the first meta page cannot be read")
    }
    pageSize = Int(Self.u32(first, 40))
    guard [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536].contains(pageSize) else {
      return PageDamage(
        page: 0, database: nil, lastIntactKey: nil, reason: "the meta page gives an invalid page size \(pageSize)")
    }
    var best: [UInt8]?
    for page in 0..<2 {
      guard let bytes = read(at: page * pageSize, count: 160) else {
        return PageDamage(page: page, database: nil, lastIntactKey: nil, reason: "the meta page lies beyond the file")
      }
      if let problem = Self.checkMeta(bytes, page: page) { return problem }
      if Self.u64(bytes, 144) == snapshot {
        best = bytes
        break
      }
      if best == nil || Self.u64(bytes, 144) > Self.u64(best!, 144) { best = bytes }
    }
    let chosen = best!
    if requireSnapshot, let snapshot, Self.u64(chosen, 144) != snapshot {
      overtaken = true
      return nil
    }
    // The file only grows, and a commit writes its pages before its meta page: sized after the
    // meta page was read, the file holds every page that meta page commits.
    var status = stat()
    if fstat(descriptor, &status) == 0 { fileSize = max(fileSize, Int(status.st_size)) }
    let last = Self.u64(chosen, 136)
    let committed = Int(clamping: last).multipliedReportingOverflow(by: pageSize)
    guard last < UInt64(Int.max), !committed.overflow, committed.partialValue <= Int.max - pageSize else {
      return PageDamage(
        page: chosen == first ? 0 : 1, database: nil, lastIntactKey: nil,
        reason: "the meta page gives the last page \(last), beyond any file")
    }
    lastPage = Int(last)
    guard committed.partialValue + pageSize <= fileSize else {
      return PageDamage(
        page: lastPage, database: nil, lastIntactKey: nil,
        reason:
          "the file is \(fileSize) bytes but its committed pages reach \(committed.partialValue + pageSize): it was truncated"
      )
    }
    if let problem = walkTree(root: Self.u64(chosen, 80), database: "(free)") { return problem }
    walkingMain = true
    if let problem = walkTree(root: Self.u64(chosen, 128), database: nil) { return problem }
    walkingMain = false
    for (name, record) in named {
      if let problem = walkTree(root: Self.u64(record, 40), database: name) { return problem }
      if let problem = checkRecord(record, of: name) { return problem }
    }
    return nil
  }

  /// Compares the `MDB_db` record of the named database `name` in the main database with the tree
  /// just walked: a record overwritten in place would make LMDB refuse to open the database (its
  /// flags) or mislead it (its depth sizes the cursor's page stack).
  func checkRecord(_ record: [UInt8], of name: String) -> PageDamage? {
    func damage(_ reason: String) -> PageDamage {
      PageDamage(page: catalogPages[name] ?? 0, database: nil, lastIntactKey: nil, reason: reason)
    }
    let flags = Self.u16(record, 4)
    guard flags == 0 else {
      return damage(
        "the catalog gives the database \(name) the flags 0x\(String(flags, radix: 16)), which none here use")
    }
    let recorded = TreeCounts(
      depth: Int(Self.u16(record, 6)), branchPages: Int(clamping: Self.u64(record, 8)),
      leafPages: Int(clamping: Self.u64(record, 16)), overflowPages: Int(clamping: Self.u64(record, 24)),
      entries: Int(clamping: Self.u64(record, 32)))
    guard recorded == counted else {
      return damage("the catalog's record of the database \(name) (\(recorded)) does not match its tree (\(counted))")
    }
    return nil
  }

  static func checkMeta(_ bytes: [UInt8], page: Int) -> PageDamage? {
    func damage(_ reason: String) -> PageDamage {
      PageDamage(page: page, database: nil, lastIntactKey: nil, reason: reason)
    }
    guard u16(bytes, 10) & meta != 0 else { return damage("a meta page is not marked as one") }
    guard u32(bytes, 16) == magic else { return damage("a meta page lacks LMDB's magic number") }
    guard u32(bytes, 20) == dataVersion else { return damage("a meta page has data version \(u32(bytes, 20))") }
    return nil
  }

  /// Walks the tree rooted at `root` depth first, in key order.
  mutating func walkTree(root: UInt64, database: String?) -> PageDamage? {
    counted = TreeCounts()
    lowerBound = nil
    integerKeys = database == "(free)"
    guard root != Self.noPage else { return nil }
    var lastKey: [UInt8]? = nil
    return walkPage(root, from: 0, depth: 0, database: database, lastKey: &lastKey)
  }

  mutating func walkPage(
    _ number: UInt64, from parent: Int, depth: Int, database: String?, lastKey: inout [UInt8]?
  ) -> PageDamage? {
    let lastIntact = lastKey
    func damage(_ page: Int, _ reason: String) -> PageDamage {
      PageDamage(page: page, database: database, lastIntactKey: lastIntact, reason: reason)
    }
    guard number >= 2, number <= UInt64(lastPage) else {
      return damage(parent, "it points to page \(number), outside the committed pages 2…\(lastPage)")
    }
    let page = Int(number)
    guard depth < 64 else { return damage(page, "the tree is deeper than any LMDB tree can be") }
    guard visited.insert(page).inserted else { return damage(page, "the page is reached twice") }
    guard let bytes = read(at: page * pageSize, count: pageSize) else {
      return damage(page, "the page lies beyond the end of the file")
    }
    guard Self.u64(bytes, 0) == number else {
      return damage(page, "the page's header says it is page \(Self.u64(bytes, 0))")
    }
    let flags = Self.u16(bytes, 10)
    let isBranch = flags & Self.branch != 0
    let isLeaf = flags & Self.leaf != 0
    guard isBranch != isLeaf, flags & (Self.overflow | Self.meta | Self.leaf2) == 0 else {
      return damage(page, "the page has the invalid type flags 0x\(String(flags, radix: 16))")
    }
    let lower = Int(Self.u16(bytes, 12))
    let upper = Int(Self.u16(bytes, 14))
    guard lower >= Self.headerSize, lower <= upper, upper <= pageSize, (lower - Self.headerSize) % 2 == 0 else {
      return damage(page, "its free-space bounds \(lower)…\(upper) are impossible")
    }
    let count = (lower - Self.headerSize) / 2
    if isBranch && count == 0 { return damage(page, "a branch page has no children") }
    counted.depth = max(counted.depth, depth + 1)
    if isBranch { counted.branchPages += 1 } else { counted.leafPages += 1 }
    if isLeaf { counted.entries += count }
    for index in 0..<count {
      let offset = Int(Self.u16(bytes, Self.headerSize + 2 * index))
      guard offset >= upper, offset + Self.nodeSize <= pageSize else {
        return damage(page, "node \(index) starts at \(offset), outside the node area \(upper)…\(pageSize)")
      }
      let low = UInt64(Self.u16(bytes, offset))
      let high = UInt64(Self.u16(bytes, offset + 2))
      let nodeFlags = Self.u16(bytes, offset + 4)
      let keySize = Int(Self.u16(bytes, offset + 6))
      let keyStart = offset + Self.nodeSize
      guard keyStart + keySize <= pageSize else { return damage(page, "node \(index)'s key runs past the page") }
      if isBranch {
        let child = low | high << 16 | UInt64(nodeFlags) << 32
        // Every key below child `index` sorts at or after its separator, every key before it sorts
        // before: LMDB's searches would otherwise miss keys that are there.
        if index > 0 {
          let separator = bytes[keyStart..<keyStart + keySize]
          if let lastKey, !precedes(lastKey[...], separator) {
            return damage(page, "node \(index)'s key sorts before keys on its left")
          }
          lowerBound = Array(separator)
        }
        if let problem = walkPage(child, from: page, depth: depth + 1, database: database, lastKey: &lastKey) {
          return problem
        }
        continue
      }
      let dataSize = Int(low | high << 16)
      let dataStart = keyStart + keySize
      if nodeFlags & Self.bigData != 0 {
        guard dataStart + 8 <= pageSize else {
          return damage(page, "node \(index)'s overflow reference runs past the page")
        }
        if let problem = checkOverflow(Self.u64(bytes, dataStart), from: page, dataSize: dataSize, damage: damage) {
          return problem
        }
      } else {
        guard dataStart + dataSize <= pageSize else { return damage(page, "node \(index)'s value runs past the page") }
      }
      if nodeFlags & Self.dupData != 0 {
        return damage(page, "node \(index) holds duplicates, which no database here uses")
      }
      if nodeFlags & Self.subData != 0 {
        guard walkingMain, dataSize == Self.databaseRecordSize, nodeFlags & Self.bigData == 0 else {
          return damage(page, "node \(index) claims a named database where none can be")
        }
        let name = String(decoding: bytes[keyStart..<dataStart], as: UTF8.self)
        named.append((name, Array(bytes[dataStart..<dataStart + dataSize])))
        catalogPages[name] = page
      } else if walkingMain {
        // The main database is LMDB's catalog here: every database the store uses is named.
        return damage(page, "node \(index) of the catalog of named databases is not a database")
      }
      let key = bytes[keyStart..<dataStart]
      if let lastKey, !precedes(lastKey[...], key) {
        return damage(page, "node \(index)'s key does not sort after the key before it")
      }
      if let bound = lowerBound {
        guard !precedes(key, bound[...]) else {
          return damage(page, "node \(index)'s key sorts before its branch's separator")
        }
        lowerBound = nil
      }
      if lastKey == nil {
        lastKey = Array(key)
      } else {
        lastKey!.removeAll(keepingCapacity: true)
        lastKey!.append(contentsOf: key)
      }
    }
    return nil
  }

  mutating func checkOverflow(
    _ number: UInt64, from parent: Int, dataSize: Int, damage: (Int, String) -> PageDamage
  ) -> PageDamage? {
    guard number >= 2, number <= UInt64(lastPage) else {
      return damage(parent, "a value points to overflow page \(number), outside the committed pages 2…\(lastPage)")
    }
    let page = Int(number)
    guard let header = read(at: page * pageSize, count: Self.headerSize) else {
      return damage(page, "the overflow page lies beyond the end of the file")
    }
    guard Self.u64(header, 0) == number, Self.u16(header, 10) & Self.overflow != 0 else {
      return damage(page, "the page is not the overflow page its value points to")
    }
    let pages = Int(Self.u32(header, 12))
    guard pages >= 1, page + pages - 1 <= lastPage, pages * pageSize >= Self.headerSize + dataSize else {
      return damage(page, "the overflow run of \(pages) pages cannot hold a \(dataSize)-byte value")
    }
    for run in page..<page + pages where !visited.insert(run).inserted {
      return damage(run, "the page is reached twice")
    }
    counted.overflowPages += pages
    return nil
  }

  /// Whether key `a` sorts before key `b` in the tree being walked.
  func precedes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    a.withUnsafeBytes { a in b.withUnsafeBytes { b in Self.precedes(a, b, integerKeys: integerKeys) } }
  }

  static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, integerKeys: Bool) -> Bool {
    if integerKeys, a.count == 8, b.count == 8 {  // the machine's unsigned integers (little-endian)
      return UInt64(littleEndian: a.loadUnaligned(as: UInt64.self))
        < UInt64(littleEndian: b.loadUnaligned(as: UInt64.self))
    }
    let common = min(a.count, b.count)
    let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
    return order < 0 || (order == 0 && a.count < b.count)
  }

  /// `count` bytes at `offset`, or `nil` when the file ends before.
  mutating func read(at offset: Int, count: Int) -> [UInt8]? {
    guard offset >= 0, offset + count <= fileSize else { return nil }
    if buffer.count != count { buffer = [UInt8](repeating: 0, count: count) }
    var done = 0
    while done < count {
      let got = buffer.withUnsafeMutableBytes { raw in
        pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset + done))
      }
      if got <= 0 { return nil }
      done += got
    }
    return buffer
  }

  static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

  static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
  }

  static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
  }
}
