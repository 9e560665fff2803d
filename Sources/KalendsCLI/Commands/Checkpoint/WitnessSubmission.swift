import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

/// Submits a kept checkpoint to a witness (C2SP tlog-witness `add-checkpoint`) with the
/// consistency proof from the size the witness knows, and returns its cosignatures.
///
/// Over the store's one HTTP client (KalendsSync's `RemoteHTTP`): TLS on the system's OpenSSL for
/// `https`, an answer of at most ``answerLimit`` bytes within 30 s, no redirect followed.
enum WitnessSubmission {
  /// The most bytes a witness's answer may have: cosignature lines, or a size.
  static let answerLimit = 64 * 1024

  static func cosignatures(of note: SignedNote, from witness: URL, store: Store) async throws -> [NoteSignature] {
    let size = try Kalends.Checkpoint(parsing: note.text).treeHead.size
    let address = witness.absoluteString.hasSuffix("/") ? witness.absoluteString : witness.absoluteString + "/"
    guard let url = RemoteURL(address + "add-checkpoint") else {
      throw CLIError(message: "--witness takes an http or https URL: \(witness)", status: .usage)
    }
    var old: UInt64 = 0
    // First as if the witness had seen nothing; a 409 says which size it knows.
    for _ in 0..<2 {
      let proof = try store.consistencyProof(from: old, to: size)
      let lines = proof.path.map { $0.base64 + "\n" }.joined()
      let response: RemoteResponse
      do {
        response = try await RemoteHTTP.send(
          "POST", url, headers: [("Content-Type", "text/plain; charset=utf-8")],
          body: Array(("old \(old)\n" + lines + "\n" + note.description).utf8), limit: answerLimit)
      } catch {
        throw CLIError(message: "the witness \(witness) did not answer: \(error)", status: .notFound)
      }
      let text = String(decoding: response.body, as: UTF8.self)
      if response.status == 200 { return try NoteSignature.parseLines(text) }
      if response.status == 409, let known = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)),
        known != old, known <= size
      {
        old = known
        continue
      }
      throw CLIError(
        message:
          "the witness \(witness) refused the checkpoint of size \(size): \(response.status) \(text.trimmingCharacters(in: .whitespacesAndNewlines))",
        status: .integrity)
    }
    throw CLIError(message: "the witness \(witness) did not settle on a size", status: .integrity)
  }
}
