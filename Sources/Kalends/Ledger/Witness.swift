internal import Foundation
internal import LMDB

/// A transparency-log witness (C2SP tlog-witness): it cosigns a log's checkpoint only when the
/// checkpoint is signed by a key it trusts for that log and is consistent with the latest one it
/// cosigned, which it keeps per log in its own LMDB environment. Checking and recording happen in
/// one write transaction, so concurrent submissions cannot roll a log back.
///
/// A witness is meant to run apart from the logs it watches, on another machine, under another
/// operator: `kalends witness serve` serves ``addCheckpoint(_:now:)`` over HTTP.
public final class Witness: Sendable {
  let environment: Environment
  let state: Database
  /// The cosigning key.
  public let signer: CheckpointSigner
  /// The trusted keys, by the origin they sign for (a log's key name is its origin).
  let logs: [String: [NoteVerifier]]

  /// Opens (creating when missing) the witness state in the directory `path`, cosigning with
  /// `signer` (a cosigner key) the checkpoints of the logs whose keys are `logs`.
  public init(path: String, signer: CheckpointSigner, logs: [NoteVerifier]) throws(StoreError) {
    guard signer.verifier.isCosigner else {
      throw .invalidInput("a witness cosigns with a cosigner key (kalends key generate --cosigner)")
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 4))
      state = try environment.openDatabase(named: "checkpoints")
    } catch let error as StoreError {
      throw error
    } catch let error as LMDBError {
      throw .storage(StorageFailure(error))
    } catch {
      throw .fileSystem("cannot open the witness state in \(path): \(error)")
    }
    self.signer = signer
    self.logs = Dictionary(grouping: logs, by: \.name)
  }

  /// The latest checkpoint cosigned for `origin`, or `nil`.
  public func latest(origin: String) throws(StoreError) -> Checkpoint? {
    try StoreError.wrapping {
      try environment.read { txn in
        try txn.value(forKey: origin, in: state).map { try Checkpoint(parsing: String(decoding: $0, as: UTF8.self)) }
      }
    }
  }

  /// Answers one `add-checkpoint` request body: the old size, the consistency proof lines, a blank
  /// line and the signed checkpoint.
  public func addCheckpoint(_ request: String, now: Timestamp = .now()) -> WitnessResponse {
    guard let split = request.firstRange(of: "\n\n") else {
      return .failure(400, "no blank line before the checkpoint")
    }
    let lines = request[..<split.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    guard let first = lines.first, first.hasPrefix("old "), let old = UInt64(first.dropFirst(4)),
      String(old) == first.dropFirst(4)
    else { return .failure(400, "the first line must be 'old SIZE'") }
    guard lines.count - 1 <= 63 else { return .failure(400, "more than 63 consistency proof lines") }
    var proof: [RecordHash] = []
    for line in lines.dropFirst() {
      guard let hash = RecordHash(base64: line) else {
        return .failure(400, "a consistency proof line is not the base64 of 32 bytes")
      }
      proof.append(hash)
    }
    let note: SignedNote
    let checkpoint: Checkpoint
    do {
      note = try SignedNote(parsing: String(request[split.upperBound...]))
      checkpoint = try Checkpoint(parsing: note.text)
    } catch {
      return .failure(400, "\(error)")
    }
    guard let trusted = logs[checkpoint.origin] else { return .failure(404, "unknown log \(checkpoint.origin)") }
    guard trusted.contains(where: { (try? note.verify(by: $0)) != nil }) else {
      return .failure(403, "no signature by a key trusted for \(checkpoint.origin)")
    }
    let new = checkpoint.treeHead
    guard old <= new.size else {
      return .failure(400, "the old size \(old) is larger than the checkpoint's \(new.size)")
    }
    do {
      return try environment.write { txn -> WitnessResponse in
        let known = try txn.value(forKey: checkpoint.origin, in: state).map {
          try Checkpoint(parsing: String(decoding: $0, as: UTF8.self)).treeHead
        }
        let knownSize = known?.size ?? 0
        guard old == knownSize else {
          return WitnessResponse(status: 409, contentType: "text/x.tlog.size", body: "\(knownSize)\n")
        }
        if let known {
          do {
            try ConsistencyProof(oldSize: old, newSize: new.size, path: proof).check(from: known, to: new)
          } catch {
            return old == new.size
              ? .failure(409, "a different root for the size already cosigned: a fork")
              : .failure(422, "the consistency proof does not hold: \(error)")
          }
        } else if !proof.isEmpty {
          return .failure(422, "the proof from size 0 must be empty")
        }
        try txn.put(Array(checkpoint.text.utf8), forKey: checkpoint.origin, in: state)
        let cosignature = signer.signature(of: Array(note.text.utf8), now: now)
        return WitnessResponse(status: 200, contentType: "text/plain; charset=utf-8", body: cosignature.line)
      }
    } catch {
      return .failure(500, "the witness could not record the checkpoint: \(error)")
    }
  }
}
