import Benchmark
import BenchmarkSupport
import BoringSSLSHA256
import Crypto
@_spi(Internals) import Kalends
import LibcryptoSHA256
import RawLMDB

// The log's three hot paths, each measured on our layer (`Kalends.Store`) and on the bare minimum
// raw LMDB work for the same job (the C baseline in Sources/RawLMDB), in the same run, so that the
// overhead reads as a ratio. See Benchmarks/README.md for what each one measures and the targets.

/// Records per batch in the batched-append benchmarks.
let batchSize = 1_000
/// Records replayed by the replay benchmarks (the log holds these plus the store's first record).
let replayedRecords = 1_000_000

let benchmarks: @Sendable () -> Void = {
  let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

  // MARK: One record per durable commit (fsync on)

  let durable = Benchmark.Configuration(
    metrics: metrics, warmupIterations: 10, maxDuration: .seconds(6), maxIterations: 1_000)

  let durableStore = StoreFixture(label: "durable", durability: .full)
  Benchmark("Durable append/Kalends", configuration: durable) { benchmark throws in
    let store = durableStore.store!
    let note = Workload.note(1)
    for _ in benchmark.scaledIterations {
      blackHole(try store.annotate(note))
    }
  } setup: {
    try durableStore.setUp()
  } teardown: {
    durableStore.tearDown()
  }

  // The same with a checkpoint of the log's tree signed (Ed25519) and kept in every commit.
  let signedStore = StoreFixture(
    label: "durable-signed", durability: .full, signer: try! CheckpointSigner.generate(name: "bench.example/log"))
  Benchmark("Durable append/Kalends + checkpoint", configuration: durable) { benchmark throws in
    let store = signedStore.store!
    let note = Workload.note(1)
    for _ in benchmark.scaledIterations {
      blackHole(try store.annotate(note))
    }
  } setup: {
    try signedStore.setUp()
  } teardown: {
    signedStore.tearDown()
  }

  // The signature alone: Ed25519 (swift-crypto, BoringSSL) of a checkpoint's text, the floor
  // under the checkpoint each commit signs.
  let checkpointKey = Curve25519.Signing.PrivateKey()
  let checkpointText = Array(
    "kalends/39766468-5017-43b4-9619-0bbe186ca12b\n336\njvHfSOnsaZsC6iWTGFc+ZB9A3jLsd9ygfqAIkRrO8t4=\n".utf8)
  Benchmark("Durable append/Ed25519 signature alone", configuration: durable) { benchmark throws in
    for _ in benchmark.scaledIterations {
      blackHole(try checkpointKey.signature(for: checkpointText))
    }
  }

  let durableRaw = RawFixture(label: "durable-raw", durability: RAW_LMDB_SYNC_FULL)
  Benchmark("Durable append/raw LMDB", configuration: durable) { benchmark in
    let raw = durableRaw.environment!
    for _ in benchmark.scaledIterations {
      raw.putCommit(key: durableRaw.nextKey, value: durableRaw.value)
      durableRaw.nextKey += 1
    }
  } setup: {
    try durableRaw.setUp()
  } teardown: {
    durableRaw.tearDown()
  }

  // MARK: Batches of 1,000 records in one transaction

  // scalingFactor .kilo: one iteration is one batch of 1,000 records, so time and allocations are
  // shown per record and throughput in thousands of records per second.
  let batch = Benchmark.Configuration(
    metrics: metrics, warmupIterations: 5, scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 500)

  for (durability, prefix) in [(StoreOptions.Durability.noSync, "Batch append"), (.full, "Durable batch append")] {
    let batchStore = StoreFixture(label: "batch", durability: durability)
    Benchmark("\(prefix) 1000/Kalends", configuration: batch) { benchmark throws in
      blackHole(try batchStore.store!.annotate(contentsOf: batchStore.batch))
    } setup: {
      try batchStore.setUp()
    } teardown: {
      batchStore.tearDown()
    }

    let batchRaw = RawFixture(
      label: "batch-raw", durability: durability == .full ? RAW_LMDB_SYNC_FULL : RAW_LMDB_SYNC_NONE)
    Benchmark("\(prefix) 1000/raw LMDB", configuration: batch) { _ in
      batchRaw.environment!.appendBatch(firstKey: batchRaw.nextKey, count: batchSize, value: batchRaw.value)
      batchRaw.nextKey += UInt64(batchSize)
    } setup: {
      try batchRaw.setUp()
    } teardown: {
      batchRaw.tearDown()
    }
  }

  // MARK: The floor of the format: raw LMDB and the hash chain

  // Raw LMDB's batch plus what the log format requires of every record and nothing else: its
  // position, the previous hash, and SHA-256(0x00 ‖ record) in one call, through three SHA-256 call
  // paths (see HashBenchmarks). Not targets; they show how much of the batch ratio the hash alone
  // accounts for.
  let implementations = [
    ("libcrypto low-level", libcryptoSHA256), ("BoringSSL direct", boringSSLSHA256),
    ("swift-crypto one-shot", swiftCryptoSHA256),
  ]
  for (name, sha256) in implementations {
    let chained = RawFixture(label: "batch-chained", durability: RAW_LMDB_SYNC_NONE)
    Benchmark("Batch append 1000/raw LMDB + hash chain, \(name)", configuration: batch) { _ in
      chained.environment!.appendChainedBatch(
        firstKey: chained.nextKey, count: batchSize, value: chained.value, sha256: sha256)
      chained.nextKey += UInt64(batchSize)
    } setup: {
      try chained.setUp()
    } teardown: {
      chained.tearDown()
    }
  }

  // MARK: Replaying the whole log

  // scalingFactor .mega: one iteration replays 1,000,000 records, so time and allocations are shown
  // per record and throughput in millions of records per second.
  let replay = Benchmark.Configuration(
    metrics: metrics, warmupIterations: 2, scalingFactor: .mega, maxDuration: .seconds(8), maxIterations: 30)

  let replayStore = ReplayFixture(label: "replay")
  Benchmark("Replay 1M/Kalends", configuration: replay) { _ throws in
    var checksum: UInt64 = 0
    let visited = try replayStore.store!.replay(from: 1) { header, payload in
      checksum &+= header.position.rawValue &+ UInt64(payload.byteCount)
      return .continue
    }
    precondition(visited == replayedRecords + 1)
    blackHole(checksum)
  } setup: {
    try replayStore.setUp(raw: false)
  } teardown: {
    replayStore.tearDown()
  }

  let replayRaw = ReplayFixture(label: "replay-raw")
  Benchmark("Replay 1M/raw LMDB", configuration: replay) { _ in
    let (visited, checksum) = replayRaw.raw!.scan()
    precondition(visited == replayedRecords + 1)
    blackHole(checksum)
  } setup: {
    try replayRaw.setUp(raw: true)
  } teardown: {
    replayRaw.tearDown()
  }
}

/// OpenSSL's low-level SHA-256 calls, the cheapest shape of libcrypto (see HashBenchmarks).
let libcryptoSHA256: raw_lmdb_sha256 = { data, size, digest in libcrypto_sha256_context(data, size, digest) }

/// BoringSSL's one-shot `SHA256()` as swift-crypto links it, without swift-crypto's Swift wrapper.
let boringSSLSHA256: raw_lmdb_sha256 = { data, size, digest in boringssl_sha256_oneshot(data, size, digest) }

/// swift-crypto's one-shot SHA-256, as `RecordCodec.encode` calls it.
let swiftCryptoSHA256: raw_lmdb_sha256 = { data, size, digest in
  SHA256.hash(data: UnsafeRawBufferPointer(start: data, count: size)).withUnsafeBytes {
    UnsafeMutableRawPointer(digest!).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
  }
}

/// A new store in a scratch directory, for the append benchmarks.
final class StoreFixture: @unchecked Sendable {
  // Set up, used and torn down by one benchmark at a time.
  let label: String
  let durability: StoreOptions.Durability
  /// The batch the batched benchmarks append, built once.
  let batch = (0..<batchSize).map(Workload.note)
  private var directory: ScratchDirectory?
  private(set) var store: Store?

  /// Signs a checkpoint at every commit when set.
  let signer: CheckpointSigner?

  init(label: String, durability: StoreOptions.Durability, signer: CheckpointSigner? = nil) {
    self.label = label
    self.durability = durability
    self.signer = signer
  }

  func setUp() throws {
    let directory = ScratchDirectory(label)
    self.directory = directory
    store = try Store.create(
      at: directory.storePath,
      options: StoreOptions(durability: durability, initialMapSize: Workload.mapSize, checkpointSigner: signer))
  }

  func tearDown() {
    store = nil  // closes the environment
    directory?.remove()
    directory = nil
  }
}

/// A new raw LMDB environment in a scratch directory, with a value the size of an encoded record.
final class RawFixture: @unchecked Sendable {
  // Set up, used and torn down by one benchmark at a time.
  let label: String
  let durability: raw_lmdb_durability
  let value = [UInt8](repeating: UInt8(ascii: "x"), count: Workload.encodedSize(ofNote: Workload.note(1)))
  var nextKey: UInt64 = 1
  private var directory: ScratchDirectory?
  private(set) var environment: RawEnvironment?

  init(label: String, durability: raw_lmdb_durability) {
    self.label = label
    self.durability = durability
  }

  func setUp() throws {
    let directory = ScratchDirectory(label)
    self.directory = directory
    environment = try RawEnvironment(path: directory.storePath, durability: durability)
    nextKey = 1
  }

  func tearDown() {
    environment?.close()
    environment = nil
    directory?.remove()
    directory = nil
  }
}

/// A store holding ``replayedRecords`` records after its first, opened either as a store or, for the
/// baseline, as a raw LMDB environment: both replay the very same B-tree.
final class ReplayFixture: @unchecked Sendable {
  // Set up, used and torn down by one benchmark at a time.
  let label: String
  private var directory: ScratchDirectory?
  private(set) var store: Store?
  private(set) var raw: RawEnvironment?

  init(label: String) { self.label = label }

  func setUp(raw openRaw: Bool) throws {
    let directory = ScratchDirectory(label)
    self.directory = directory
    try Workload.fillStore(at: directory.storePath, records: replayedRecords)
    if openRaw {
      let raw = try RawEnvironment(path: directory.storePath, durability: RAW_LMDB_SYNC_NONE)
      self.raw = raw
      let expected = Workload.encodedSize(ofNote: Workload.note(1))
      let stored = try raw.valueSize(key: 2)
      guard stored == expected else { fatalError("a stored record is \(stored) bytes, the baselines use \(expected)") }
      let last = try raw.lastKey()
      guard last == UInt64(replayedRecords + 1) else { fatalError("the log ends at \(last)") }
    } else {
      store = try Store.open(
        at: directory.storePath, options: StoreOptions(durability: .noSync, initialMapSize: Workload.mapSize))
    }
  }

  func tearDown() {
    store = nil
    raw?.close()
    raw = nil
    directory?.remove()
    directory = nil
  }
}
