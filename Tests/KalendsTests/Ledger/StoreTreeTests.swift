import KalendsSynthetic
import KalendsTestSupport
import LMDB
import Testing

@testable import Kalends

@Suite("The log's Merkle tree in the store")
struct StoreTreeTests {
  /// A store of `count` records (the creation record and notes), appended in transactions of
  /// growing sizes so that the tree's right edge is carried across many commits.
  func withStore(records count: Int, _ body: (Store, String) throws -> Void) throws {
    try KalendsTests.withStore { store, path in
      var written = 1
      var batch = 1
      while written < count {
        let size = min(batch, count - written)
        try store.append(contentsOf: (written..<(written + size)).map(note))
        written += size
        batch = batch * 3 + 1
      }
      try body(store, path)
    }
  }

  func leaves(_ store: Store) throws -> [RecordHash] {
    try store.records(from: 1, limit: .max).map(\.hash)
  }

  @Test func theTreeIsTheOneRFC9162DefinesWrittenInPythonFromTheRFC() throws {
    try withStore(records: 5_000) { store, _ in
      let leaves = try leaves(store)
      #expect(leaves.count == 5_000)
      var random = SeededGenerator(seed: 9162)
      var roots = Array(UInt64(1)...64)
      var inclusion: [[UInt64]] = []
      var consistency: [[UInt64]] = []
      for n in UInt64(1)...40 {
        for m in 0..<n { inclusion.append([m, n]) }
        for m in 1...n { consistency.append([m, n]) }
      }
      for _ in 0..<150 {
        let n = UInt64.random(in: 1...5_000, using: &random)
        roots.append(n)
        inclusion.append([UInt64.random(in: 0..<n, using: &random), n])
        consistency.append([UInt64.random(in: 1...n, using: &random), n])
      }
      roots.append(5_000)
      let oracle = try MerkleOracle.run(
        MerkleOracle.Input(
          leaves: leaves.map(\.hex), roots: roots, inclusion: inclusion, consistency: consistency))
      for n in roots {
        #expect(try store.treeHead(size: n).root.hex == oracle.roots[String(n)], "root of \(n)")
      }
      #expect(try store.treeHead().root.hex == oracle.roots["5000"])
      for (query, expected) in zip(inclusion, oracle.inclusion) {
        let proof = try store.inclusionProof(for: LogPosition(query[0] + 1), treeSize: query[1])
        #expect(proof.path.map(\.hex) == expected, "inclusion of \(query[0]) in \(query[1])")
        try proof.check(leafHash: leaves[Int(query[0])], against: try store.treeHead(size: query[1]))
      }
      for (query, expected) in zip(consistency, oracle.consistency) {
        let proof = try store.consistencyProof(from: query[0], to: query[1])
        #expect(proof.path.map(\.hex) == expected, "consistency of \(query[0]) with \(query[1])")
        try proof.check(from: try store.treeHead(size: query[0]), to: try store.treeHead(size: query[1]))
      }
    }
  }

  @Test func proofsOutsideTheLogAreRefused() throws {
    try withStore(records: 10) { store, _ in
      #expect(throws: StoreError.self) { try store.inclusionProof(for: 11) }
      #expect(throws: StoreError.self) { try store.inclusionProof(for: 5, treeSize: 4) }
      #expect(throws: StoreError.self) { try store.treeHead(size: 11) }
      #expect(throws: StoreError.self) { try store.consistencyProof(from: 6, to: 5) }
      let empty = try store.treeHead(size: 0)
      #expect(empty.root == MerkleTree.emptyRoot)
    }
  }

  @Test func verifyRecomputesTheTreeAndReportsItsHead() throws {
    try withStore(records: 300) { store, _ in
      let report = try store.verify()
      #expect(report.isIntact)
      #expect(report.treeHead == (try store.treeHead()))
      #expect(report.treeHead?.size == 300)
    }
  }

  /// Closes the store at `path` after `records` records, then changes its tree through LMDB.
  func damagedTree(
    records: Int, _ damage: (inout WriteTransaction, Database, Database) throws -> Void
  ) throws -> IntegrityProblem? {
    let directory = TemporaryDirectory()
    do {
      let store = try Store.create(at: directory.storePath)
      try store.append(contentsOf: (1..<records).map(note))
    }
    let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
    let tree = try environment.openDatabase(named: "tree", options: [])
    let meta = try environment.openDatabase(named: "meta", options: [])
    try environment.write { txn in try damage(&txn, tree, meta) }
    return try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)).verify().problem
  }

  @Test func verifyFindsAnAlteredNode() throws {
    let problem = try damagedTree(records: 100) { txn, tree, _ in
      try txn.put([UInt8](repeating: 7, count: 32), forKey: MerkleNodes.key(4, 2), in: tree)
    }
    #expect(problem?.kind == .treeMismatch)
    #expect(problem?.position == 33, "the first record under node (4, 2)")
  }

  @Test func verifyFindsAnAlteredRightEdge() throws {
    let problem = try damagedTree(records: 100) { txn, _, meta in
      let stored = try #require(try txn.value(forKey: "treeFrontier", in: meta))
      var frontier = try #require(TreeFrontier(encoded: stored))
      frontier.append(MerkleTree.emptyRoot) { _, _, _ in }
      try txn.put(frontier.encoded, forKey: "treeFrontier", in: meta)
    }
    #expect(problem?.kind == .treeMismatch)
  }

  @Test func aStoreFromBeforeTheTreeGetsItWhenFirstOpenedWritable() throws {
    let directory = TemporaryDirectory()
    let head: TreeHead
    do {
      let store = try Store.create(at: directory.storePath)
      try store.append(contentsOf: (1..<300).map(note))
      head = try store.treeHead()
    }
    do {
      let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
      let tree = try environment.openDatabase(named: "tree", options: [])
      let meta = try environment.openDatabase(named: "meta", options: [])
      try environment.write { txn in
        try txn.removeAll(in: tree)
        _ = try txn.delete("treeFrontier", in: meta)
      }
    }
    do {
      let readOnly = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true))
      #expect(throws: StoreError.treeUnavailable) { try readOnly.treeHead() }
      let report = try readOnly.verify()
      #expect(report.isIntact)
      #expect(report.treeHead == nil)
    }
    var reported: [RebuildProgress] = []
    let store = try Store.open(at: directory.storePath) { reported.append($0) }
    #expect(reported.last == .tree(done: 300, total: 300))
    #expect(try store.treeHead() == head)
    #expect(try store.verify().treeHead == head)
    try store.annotate("after the tree was built")
    #expect(try store.treeHead().size == 301)
    #expect(try store.consistencyProof(from: 300).path.count > 0)
  }
}
