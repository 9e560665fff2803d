import Testing

@testable import Kalends

/// The leaves of the reference tree of Certificate Transparency's RFC 6962 tests, and the roots,
/// inclusion paths and consistency proofs published with it (carried over as data).
enum ReferenceTree {
  static let leafData = [
    "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f",
  ]
  static let leaves = leafData.map { MerkleTree.leafHash(hexBytes($0)) }
  /// The root of the tree of the first n leaves, n = 1…8.
  static let roots = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
  ].map { RecordHash(hex: $0)! }
  /// (leaf index, tree size, path).
  static let inclusion: [(UInt64, UInt64, [String])] = [
    (
      0, 8,
      [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
      ]
    ),
    (
      5, 8,
      [
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
      ]
    ),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
      1, 5,
      [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      ]
    ),
  ]
  /// (old size, new size, proof).
  static let consistency: [(UInt64, UInt64, [String])] = [
    (
      1, 8,
      [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
      ]
    ),
    (
      6, 8,
      [
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
      ]
    ),
    (
      2, 5,
      [
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      ]
    ),
    (
      3, 8,
      [
        "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
        "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
      ]
    ),
  ]

  static func hexBytes(_ text: String) -> [UInt8] {
    stride(from: 0, to: text.count, by: 2).map { offset in
      let start = text.index(text.startIndex, offsetBy: offset)
      return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
    }
  }
}

/// Complete subtrees of an in-memory list of leaves, computed from the leaves alone.
func subtrees(of leaves: [RecordHash]) -> (Int, UInt64) -> RecordHash {
  func subtree(_ height: Int, _ index: UInt64) -> RecordHash {
    height == 0
      ? leaves[Int(index)] : MerkleTree.nodeHash(subtree(height - 1, 2 * index), subtree(height - 1, 2 * index + 1))
  }
  return subtree
}

@Suite("The Merkle tree of RFC 9162")
struct MerkleTreeTests {
  @Test func theEmptyTreeIsTheHashOfNothing() {
    #expect(MerkleTree.emptyRoot.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(TreeFrontier().root == MerkleTree.emptyRoot)
  }

  @Test func rootsAreThePublishedOnes() {
    var frontier = TreeFrontier()
    for (n, leaf) in ReferenceTree.leaves.enumerated() {
      frontier.append(leaf) { _, _, _ in }
      #expect(frontier.root == ReferenceTree.roots[n], "size \(n + 1), appended")
      #expect(
        MerkleTree.rootHash(0, UInt64(n + 1), subtree: subtrees(of: ReferenceTree.leaves)) == ReferenceTree.roots[n],
        "size \(n + 1), from subtrees")
    }
  }

  @Test func inclusionPathsAreThePublishedOnesAndVerify() throws {
    for (index, size, expected) in ReferenceTree.inclusion {
      let path = MerkleTree.inclusionPath(index: index, size: size, subtree: subtrees(of: ReferenceTree.leaves))
      #expect(path.map(\.hex) == expected, "leaf \(index) of \(size)")
      let proof = InclusionProof(leafIndex: index, treeSize: size, path: path)
      let head = TreeHead(size: size, root: ReferenceTree.roots[Int(size) - 1])
      try proof.check(leafHash: ReferenceTree.leaves[Int(index)], against: head)
    }
  }

  @Test func consistencyProofsAreThePublishedOnesAndVerify() throws {
    for (old, new, expected) in ReferenceTree.consistency {
      let path = MerkleTree.consistencyPath(old: old, new: new, subtree: subtrees(of: ReferenceTree.leaves))
      #expect(path.map(\.hex) == expected, "\(old) to \(new)")
      let proof = ConsistencyProof(oldSize: old, newSize: new, path: path)
      try proof.check(
        from: TreeHead(size: old, root: ReferenceTree.roots[Int(old) - 1]),
        to: TreeHead(size: new, root: ReferenceTree.roots[Int(new) - 1]))
    }
  }

  /// The interleaved pair of node hashes is two ordinary ones, and those are SHA-256 as the
  /// portable code computes it.
  @Test func twoNodesAtOnceAreTwoNodes() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let hashes = (0..<4).map { _ in
        RecordHash(words: generator.next(), generator.next(), generator.next(), generator.next())
      }
      let (first, second) = MerkleTree.nodeHashes(hashes[0], hashes[1], hashes[2], hashes[3])
      #expect(first == MerkleTree.nodeHash(hashes[0], hashes[1]))
      #expect(second == MerkleTree.nodeHash(hashes[2], hashes[3]))
      let bytes = [0x01] + hashes[0].bytes + hashes[1].bytes
      #expect(first == bytes.withUnsafeBytes { RecordHash(digest: SHA256.portableHash(data: $0)) })
    }
  }

  /// Appending a run of leaves (16 at a time where aligned) gives the right edge and the stored
  /// nodes, in order, that appending them one by one gives, from every starting size to 64.
  @Test func appendingManyIsAppendingEachInTurn() {
    let leaves = (0..<200).map { MerkleTree.leafHash(Array("leaf \($0)".utf8)) }
    for start in 0...64 {
      for count in [0, 1, 15, 16, 17, 31, 32, 47, 100, 200 - start] {
        var single = TreeFrontier()
        var batched = TreeFrontier()
        for leaf in leaves[..<start] {
          single.append(leaf) { _, _, _ in }
          batched.append(leaf) { _, _, _ in }
        }
        var singleNodes: [String] = []
        var batchedNodes: [String] = []
        for leaf in leaves[start..<(start + count)] {
          single.append(leaf) { singleNodes.append("\($0) \($1) \($2.hex)") }
        }
        leaves[start..<(start + count)].withUnsafeBufferPointer { run in
          batched.append(contentsOf: run) { batchedNodes.append("\($0) \($1) \($2.hex)") }
        }
        #expect(batched == single, "\(count) leaves after \(start)")
        #expect(batchedNodes == singleNodes, "\(count) leaves after \(start)")
      }
    }
  }

  /// Every proof of every pair of sizes up to 8, each altered in every way that must fail.
  @Test func alteredProofsFail() throws {
    let leaves = ReferenceTree.leaves
    let wrong = MerkleTree.emptyRoot
    for size in UInt64(1)...8 {
      let head = TreeHead(size: size, root: ReferenceTree.roots[Int(size) - 1])
      for index in 0..<size {
        let path = MerkleTree.inclusionPath(index: index, size: size, subtree: subtrees(of: leaves))
        let leaf = leaves[Int(index)]
        try InclusionProof(leafIndex: index, treeSize: size, path: path).check(leafHash: leaf, against: head)
        var failures: [InclusionProof] = [
          InclusionProof(leafIndex: index, treeSize: size, path: path + [wrong]),
          InclusionProof(leafIndex: index, treeSize: size, path: [wrong] + path),
          InclusionProof(leafIndex: index + 1, treeSize: size, path: path),
        ]
        if !path.isEmpty { failures.append(InclusionProof(leafIndex: index, treeSize: size, path: path.dropLast())) }
        if index > 0 { failures.append(InclusionProof(leafIndex: index - 1, treeSize: size, path: path)) }
        for position in path.indices {
          var altered = path
          altered[position] = wrong
          failures.append(InclusionProof(leafIndex: index, treeSize: size, path: altered))
        }
        for proof in failures {
          #expect(throws: ProofFailure.self, "leaf \(index) of \(size), \(proof.leafIndex) \(proof.path.count)") {
            try proof.check(leafHash: leaf, against: head)
          }
        }
        #expect(throws: ProofFailure.self) {
          try InclusionProof(leafIndex: index, treeSize: size, path: path).check(leafHash: wrong, against: head)
        }
      }
      for old in UInt64(1)..<size {
        let oldHead = TreeHead(size: old, root: ReferenceTree.roots[Int(old) - 1])
        let path = MerkleTree.consistencyPath(old: old, new: size, subtree: subtrees(of: leaves))
        try ConsistencyProof(oldSize: old, newSize: size, path: path).check(from: oldHead, to: head)
        var failures = [
          ConsistencyProof(oldSize: old, newSize: size, path: path + [wrong]),
          ConsistencyProof(oldSize: old, newSize: size, path: [wrong] + path),
          ConsistencyProof(oldSize: old, newSize: size, path: Array(path.dropLast())),
          ConsistencyProof(oldSize: old, newSize: size, path: []),
        ]
        for position in path.indices {
          var altered = path
          altered[position] = wrong
          failures.append(ConsistencyProof(oldSize: old, newSize: size, path: altered))
        }
        for proof in failures {
          #expect(throws: ProofFailure.self, "\(old) to \(size)") { try proof.check(from: oldHead, to: head) }
        }
        let forked = TreeHead(size: old, root: wrong)
        #expect(throws: ProofFailure.self) {
          try ConsistencyProof(oldSize: old, newSize: size, path: path).check(from: forked, to: head)
        }
      }
    }
  }
}
