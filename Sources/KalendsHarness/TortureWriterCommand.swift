import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension Harness.Torture {
  /// `kalends-harness torture writer`: the crash harness's writer process. Runs a seeded mix of commands
  /// (events with recurrence, batches, notes, imports, privacy decisions, counter increments, reads)
  /// and journals each on standard output before it runs and once it was acknowledged.
  struct Writer: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "writer",
      abstract: "Write a mixed workload and journal every command on standard output.",
      discussion: """
        Prints `begin TOKEN KIND RECORDS MATCH` before each command and `ack TOKEN FIRST LAST` once it \
        returned, each line with one write(2), so a SIGKILL loses no acknowledged line; on a clean \
        exit, `map INITIAL FINAL` gives the map size in bytes when it opened the store and at the end. \
        Runs until \
        killed unless --commands or --seconds says otherwise. Exits 69 when the store breaks a promise \
        the writer can see (a read that misses its own write, a command appending the wrong number of \
        records).
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "This writer's number, part of every token it writes (unique per run of the harness).")
    var writer: Int

    @Option(help: "The seed of the workload.") var seed: UInt64 = 1

    @Option(help: "Threads writing at once, each with its own calendar.") var threads: Int = 1

    @Option(help: "Stop after this many commands per thread.") var commands: Int?

    @Option(help: "Stop after this many seconds.") var seconds: Double?

    @Option(help: ArgumentHelp("The shared counter event that increments go to.", valueName: "id"))
    var counter: String?

    @Option(help: "The initial map size in bytes (tiny maps make the writer grow the map).")
    var initialMapSize: Int?

    func validate() throws {
      if threads < 1 { throw ValidationError("--threads must be 1 or more") }
    }

    func run() throws {
      var options = StoreOptions()
      if let initialMapSize { options.initialMapSize = initialMapSize }
      let store = try Store.open(at: global.storePath, options: options)
      let events = EventStore(store: store)
      let counter = try self.counter.map { try ObjectID(argument: $0, option: "--counter") }
      let output = TortureOutput()
      let initialMap = try store.status().mapSize
      let deadline = seconds.map { Date().addingTimeInterval($0) }
      let finished = DispatchGroup()
      for thread in 0..<threads {
        finished.enter()
        let worker = Thread { [writer, seed, commands] in
          defer { finished.leave() }
          let workload = TortureWorkload(
            events: events, output: output, writer: writer, thread: thread, seed: seed, counter: counter)
          do {
            try workload.run(until: deadline, limit: commands)
          } catch {
            output.fail("thread \(thread): \(error)")
          }
        }
        worker.start()
      }
      finished.wait()
      output.emit("map \(initialMap) \(try store.status().mapSize)")
      if let failure = output.failures.first {
        throw CLIError(message: failure, status: .integrity)
      }
    }
  }
}
