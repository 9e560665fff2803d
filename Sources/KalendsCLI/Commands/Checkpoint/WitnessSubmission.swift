import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Submits a kept checkpoint to a witness (C2SP tlog-witness `add-checkpoint`) with the
/// consistency proof from the size the witness knows, and returns its cosignatures.
enum WitnessSubmission {
  static func cosignatures(of note: SignedNote, from witness: URL, store: Store) async throws -> [NoteSignature] {
    let size = try Kalends.Checkpoint(parsing: note.text).treeHead.size
    var old: UInt64 = 0
    // First as if the witness had seen nothing; a 409 says which size it knows.
    for _ in 0..<2 {
      let proof = try store.consistencyProof(from: old, to: size)
      let lines = proof.path.map { $0.base64 + "\n" }.joined()
      var request = URLRequest(url: witness.appendingPathComponent("add-checkpoint"))
      request.httpMethod = "POST"
      request.httpBody = Data(("old \(old)\n" + lines + "\n" + note.description).utf8)
      let (data, response) = try await URLSession.shared.data(for: request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      let text = String(decoding: data, as: UTF8.self)
      if status == 200 { return try NoteSignature.parseLines(text) }
      if status == 409, let known = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)), known != old,
        known <= size
      {
        old = known
        continue
      }
      throw CLIError(
        message:
          "the witness \(witness) refused the checkpoint of size \(size): \(status) \(text.trimmingCharacters(in: .whitespacesAndNewlines))",
        status: .integrity)
    }
    throw CLIError(message: "the witness \(witness) did not settle on a size", status: .integrity)
  }
}
