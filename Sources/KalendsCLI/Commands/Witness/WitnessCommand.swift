import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsServer

extension KalendsCommand {
  /// `kalends witness`: an independent witness of other stores' checkpoints.
  struct Witness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "witness",
      abstract: "Run a witness that cosigns only checkpoints consistent with those it saw before.",
      subcommands: [Serve.self])
  }
}

extension KalendsCommand.Witness {
  /// `kalends witness serve`: C2SP tlog-witness over HTTP.
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Serve C2SP tlog-witness add-checkpoint over HTTP until interrupted.",
      discussion: """
        POST /add-checkpoint takes 'old SIZE', the consistency proof lines, a blank line and a signed \
        checkpoint, and answers 200 with a timestamped Ed25519 cosignature line (C2SP tlog-cosignature) \
        when the checkpoint is signed by a --log key for its origin and consistent with the latest one \
        this witness cosigned for that log; 409 with the size it knows (text/x.tlog.size) when the old \
        size is not that one, or for a second root at a size already cosigned; 422 when the proof does \
        not hold; 403 when no trusted key signed; 404 for an unknown log; 400 for a malformed request. \
        The latest checkpoint of each log is kept, checked and replaced atomically in --state (an LMDB \
        environment of its own). Run it apart from the stores it watches: on another machine, under \
        another operator. It prints 'listening on HOST:PORT' once it accepts connections. A request's \
        headers and body must arrive within 10 s, an idle connection is closed after 60 s, and at \
        most 256 connections are served at once.
        """)

    @Option(help: ArgumentHelp("The witness's private cosigner key file.", valueName: "file")) var key: String

    @Option(help: ArgumentHelp("Where to listen (default 127.0.0.1:0, a free port).", valueName: "host:port"))
    var listen = "127.0.0.1:0"

    @Option(
      name: .customLong("log"),
      help: ArgumentHelp("A log's verifier key (repeatable): the logs this witness cosigns.", valueName: "vkey"))
    var logs: [String]

    @Option(help: ArgumentHelp("The witness's state directory.", valueName: "dir")) var state: String

    func run() async throws {
      let signer = try KeyFile.read(key)
      let verifiers = try logs.map { text throws in try NoteVerifier(text) }
      guard !verifiers.isEmpty else { throw CLIError(message: "give at least one --log key", status: .usage) }
      let witness = try Kalends.Witness(path: state, signer: signer, logs: verifiers)
      guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
        throw CLIError(message: "--listen takes HOST:PORT", status: .usage)
      }
      try await WitnessServer.run(witness, host: String(listen[..<colon]), port: port) { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
      }
    }
  }
}
