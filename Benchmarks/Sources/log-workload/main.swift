// Runs one benchmark workload outside package-benchmark, for profilers that count instructions
// (`valgrind --tool=callgrind`) or sample (`perf record`). See Benchmarks/README.md.
//
//   log-workload fill PATH RECORDS     create a store with RECORDS records (not worth profiling)
//   log-workload replay PATH [TIMES]   replay the whole log TIMES times (default 1)
//   log-workload scan PATH [TIMES]     the raw LMDB baseline of replay
//   log-workload append PATH BATCHES   create a store and append BATCHES batches of 1,000 records

import BenchmarkSupport
import Foundation
@_spi(Internals) import Kalends
import RawLMDB

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first, arguments.count >= 3 || (arguments.count == 2 && command != "fill") else {
  FileHandle.standardError.write(Data("usage: log-workload fill|replay|scan|append PATH [COUNT]\n".utf8))
  exit(64)
}
let path = arguments.dropFirst().first!
let count = arguments.count >= 3 ? Int(arguments.dropFirst(2).first!)! : 1
let clock = ContinuousClock()
let started = clock.now
var records = 0

switch command {
case "fill":
  try Workload.fillStore(at: path, records: count)
  records = count
case "replay":
  let store = try Store.open(at: path, options: StoreOptions(initialMapSize: Workload.mapSize))
  for _ in 0..<count {
    var checksum: UInt64 = 0
    records += try store.replay(from: 1) { header, payload in
      checksum &+= header.position.rawValue &+ UInt64(payload.byteCount)
      return .continue
    }
    precondition(checksum != 0)
  }
case "scan":
  let raw = try RawEnvironment(path: path, durability: RAW_LMDB_SYNC_NONE)
  for _ in 0..<count { records += raw.scan().count }
  raw.close()
case "append":
  let store = try Store.create(
    at: path, options: StoreOptions(durability: .noSync, initialMapSize: Workload.mapSize))
  let batch = (0..<1_000).map(Workload.note)
  for _ in 0..<count { records += try store.annotate(contentsOf: batch).count }
default:
  FileHandle.standardError.write(Data("log-workload: unknown command \(command)\n".utf8))
  exit(64)
}

let seconds = (clock.now - started) / .seconds(1)
print("\(command): \(records) records in \(seconds) s, \(Int(Double(records) / seconds)) records/s")
