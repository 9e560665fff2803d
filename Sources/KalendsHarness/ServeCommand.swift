import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsDAV
import KalendsServer

extension Harness {
  /// `kalends-harness serve`: the store server as `kalends serve` runs it on a Unix socket, with
  /// apps' reads recorded or, with `--unrecorded`, not — so that Benchmarks/scripts/bench-server can measure what
  /// recording costs a request against the same build. Nothing that ships turns recording off.
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Run the store server as kalends serve does; --unrecorded records no reads (a yardstick).")

    @Option(help: "The store.") var store: String

    @Option(help: "The Unix socket to serve.") var socket: String

    @Flag(help: "Record no app's reads (Store.recordReads(false)): the yardstick of recording's cost.")
    var unrecorded = false

    func run() async throws {
      let opened = try GlobalOptions.open(store)
      opened.recordReads(!unrecorded)
      var configuration = ServerConfiguration()
      configuration.socket = socket
      configuration.frontEnds = [DAVFrontEnd()]
      try await StoreServer.run(opened, configuration: configuration) { lines in
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
      }
    }
  }
}
