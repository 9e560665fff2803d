import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client.Token {
  /// `kalends client token create`: a new token for an app, its secret shown once.
  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create",
      abstract: "Create a token for a registered app; its secret is shown once, never stored.",
      discussion: """
        Prints the token's id and its secret, or with --secret-file writes the secret to a new file \
        (mode 0600; an existing file is never overwritten) and prints the id only.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier.") var id: String

    @Option(help: ArgumentHelp("What to call the token (one line, ≤ 100 bytes).", valueName: "text"))
    var label: String?

    @Option(help: ArgumentHelp("Write the secret to this new file instead of printing it.", valueName: "path"))
    var secretFile: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      try global.requireOwner("create app tokens")
      if let secretFile, FileManager.default.fileExists(atPath: secretFile) {
        throw CLIError(
          message: "\(secretFile) exists — choose a new path; a file is never overwritten", status: .conflict)
      }
      let store = try global.openEventStore()
      let (token, secret) = try store.privacySettings().createToken(for: id, label: label)
      var fields = token.jsonFields(created: try token.creationTime(in: store.store))
      if let secretFile {
        try Self.writeSecret(secret, to: secretFile)
        fields.append(("secretFile", .string(secretFile)))
      } else {
        fields.append(("secret", .string(secret)))
      }
      format.write(fields)
    }

    /// Writes `secret` and a newline to a new file of mode 0600.
    static func writeSecret(_ secret: String, to path: String) throws {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
      guard descriptor >= 0 else {
        throw CLIError(
          message: "cannot create \(path): \(String(cString: strerror(errno))) — the token exists: revoke it",
          status: .storage)
      }
      defer { close(descriptor) }
      let bytes = Array((secret + "\n").utf8)
      guard write(descriptor, bytes, bytes.count) == bytes.count else {
        throw CLIError(message: "cannot write \(path) — the token exists: revoke it", status: .storage)
      }
    }
  }
}
