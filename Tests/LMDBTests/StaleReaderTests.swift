import Foundation
import KalendsTestSupport
import LMDB
import Testing

@Suite("Stale readers")
struct StaleReaderTests {
  /// A Python program that opens the environment through the system liblmdb (ctypes), begins a read
  /// transaction, says so, and kills itself with SIGKILL: its reader slot is left behind.
  static let holdAndDie = """
    import ctypes, ctypes.util, os, signal, sys
    lib = ctypes.CDLL(ctypes.util.find_library("lmdb") or "liblmdb.so.0")
    env = ctypes.c_void_p(); txn = ctypes.c_void_p()
    assert lib.mdb_env_create(ctypes.byref(env)) == 0
    assert lib.mdb_env_set_maxdbs(env, 32) == 0
    assert lib.mdb_env_open(env, sys.argv[1].encode(), 0x200000, 0o600) == 0  # MDB_NOTLS
    assert lib.mdb_txn_begin(env, None, 0x20000, ctypes.byref(txn)) == 0      # MDB_RDONLY
    print("holding", flush=True)
    if sys.argv[2] == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    sys.stdin.read()  # keep the environment open until stdin closes
    """

  func python(_ mode: String, _ path: String) throws -> (Process, Pipe, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.holdAndDie, path, mode]
    let output = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    try process.run()
    return (process, output, input)
  }

  /// LMDB resets the reader table when the first process opens the environment, so slots are only
  /// stale while some other process keeps it open: a live holder stands for that here.
  @Test func openingClearsReaderSlotsLeftByKilledProcesses() throws {
    let directory = TemporaryDirectory()
    do {
      let environment = try Environment(path: directory.path)
      _ = try environment.openDatabase(named: "db")
    }
    let holder = try python("hold", directory.path)
    #expect(holder.1.fileHandleForReading.readLine() == "holding")
    for _ in 0..<2 {
      let (process, output, _) = try python("die", directory.path)
      let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(printed == "holding\n")
      #expect(process.terminationReason == .uncaughtSignal)
    }
    let environment = try Environment(path: directory.path)
    #expect(environment.staleReadersCleared == 2)
    #expect(try environment.clearStaleReaders() == 0)
    try holder.2.fileHandleForWriting.close()
    holder.0.waitUntilExit()
    #expect(holder.0.terminationStatus == 0)
  }
}

extension FileHandle {
  /// Reads one line (without its newline), byte by byte so nothing after it is consumed.
  func readLine() -> String? {
    var bytes: [UInt8] = []
    while let byte = try? read(upToCount: 1), let first = byte.first {
      if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(first)
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }
}
