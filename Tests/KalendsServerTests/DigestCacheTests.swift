import Foundation
import KalendsTestSupport
import Synchronization
import Testing

@testable import KalendsServer

/// The server hashes an executable once however many of its connections arrive at once: they wait
/// for the one hash in flight rather than each reading the file on another identification thread.
@Suite("Server: one hash of a file at a time")
struct DigestCacheTests {
  @Test func manyConnectionsOfOneFileAtOnceMakeOneHash() throws {
    let directory = TemporaryDirectory("digest")
    let file = directory.path + "/large"
    // A sparse file of 256 MiB: reading it costs time, holding it costs no disk.
    #expect(FileManager.default.createFile(atPath: file, contents: Data("#!".utf8)))
    #expect(truncate(file, 256 << 20) == 0)
    let cache = DigestCache()
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in results.add(cache.sha256(ofFileAt: file)) }
    #expect(cache.hashesMade.load(ordering: .relaxed) == 1, "each connection read the file")
    // The digest is the file's, by an independent hash (Python's hashlib).
    let expected = try CLI.python(
      "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", [file]
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let digests = results.all.map { outcome -> String in
      guard case .digest(let bytes) = outcome else { return "\(outcome)" }
      return bytes.map { String(format: "%02x", $0) }.joined()
    }
    #expect(digests.count == 8 && Set(digests) == [expected], "\(Set(digests))")
  }

  /// The outcomes of concurrent calls.
  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [DigestCache.Outcome] = []

    func add(_ outcome: DigestCache.Outcome) { lock.withLock { outcomes.append(outcome) } }
    var all: [DigestCache.Outcome] { lock.withLock { outcomes } }
  }
}
