internal import Foundation

/// Proof that one record is in the log, offline-checkable: a C2SP `tlog-proof` whose extra data
/// is the record's stored bytes, with the record's leaf index, its inclusion path and the signed
/// checkpoint of the tree it is proven in (cosigned by witnesses, when they have).
///
/// ``check(logKey:origin:)`` needs no store: only the log's verifier key.
public struct RecordProof: Hashable, Sendable, CustomStringConvertible {
  /// The record's stored bytes, its hash last.
  public let record: [UInt8]
  /// The inclusion proof of the record's leaf in the checkpoint's tree.
  public let inclusion: InclusionProof
  /// The signed checkpoint.
  public let checkpoint: SignedNote

  /// The first line of the format.
  static let header = "c2sp.org/tlog-proof@v1"

  init(record: [UInt8], inclusion: InclusionProof, checkpoint: SignedNote) {
    self.record = record
    self.inclusion = inclusion
    self.checkpoint = checkpoint
  }

  /// The bundle as text: the header, `extra` (the record), `index`, the path, a blank line and
  /// the checkpoint.
  public var description: String {
    var lines = [Self.header, "extra " + Base64.encode(record), "index \(inclusion.leafIndex)"]
    lines += inclusion.path.map(\.base64)
    return lines.joined(separator: "\n") + "\n\n" + checkpoint.description
  }

  /// Parses a bundle; throws ``ProofFailure/malformedBundle(_:)`` unless it is one with a record.
  public init(parsing text: String) throws(ProofFailure) {
    guard let separator = text.range(of: "\n\n") else {
      throw .malformedBundle("a proof is its lines, a blank line and the checkpoint")
    }
    let lines = text[..<separator.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(Self.header) else { throw .malformedBundle("the first line is not \(Self.header)") }
    guard lines.count >= 3, lines[1].hasPrefix("extra "), let record = Base64.decode(String(lines[1].dropFirst(6)))
    else { throw .malformedBundle("the second line must be 'extra' and the record's bytes in base64") }
    guard lines[2].hasPrefix("index "), let index = UInt64(lines[2].dropFirst(6)),
      String(index) == lines[2].dropFirst(6)
    else { throw .malformedBundle("the third line must be 'index' and the leaf index") }
    var path: [RecordHash] = []
    for line in lines.dropFirst(3) {
      guard let hash = RecordHash(base64: line) else {
        throw .malformedBundle("a path line is not the base64 of 32 bytes: \(line)")
      }
      path.append(hash)
    }
    let note: SignedNote
    let checkpoint: Checkpoint
    do {
      note = try SignedNote(parsing: String(text[separator.upperBound...]))
      checkpoint = try Checkpoint(parsing: note.text)
    } catch {
      throw .untrustedCheckpoint(error)
    }
    self.init(
      record: record, inclusion: InclusionProof(leafIndex: index, treeSize: checkpoint.treeHead.size, path: path),
      checkpoint: note)
  }

  /// Checks the bundle with no store: the checkpoint is signed by `logKey` (and is for `origin`,
  /// when given), the record's bytes hash to the hash it carries and sit at its position, and the
  /// path leads from that hash to the checkpoint's root. Returns the record, decoded, and the
  /// checkpoint.
  ///
  /// A record whose content was erased proves its header and kept fields as any other (its hash is
  /// that of its erased form), and says so in ``LogRecordHeader/content``; one erased from format
  /// version 1 or 2 (``RecordContent/erasedUnverifiable``) proves only that a record with its hash
  /// is in the tree at its position: nothing left in it is checked against that hash.
  public func check(logKey: NoteVerifier, origin: String? = nil) throws(ProofFailure) -> (LogRecord, Checkpoint) {
    let trusted: Checkpoint
    do {
      trusted = try Checkpoint.verified(checkpoint, by: logKey, origin: origin)
    } catch {
      throw .untrustedCheckpoint(error)
    }
    let decoded: LogRecord
    do {
      decoded = try RecordCodec.decode(record.span.bytes)
    } catch {
      throw .malformedBundle("the record does not decode: \(error)")
    }
    let computed: RecordHash
    if decoded.header.content == .erasedUnverifiable {
      computed = decoded.hash
    } else {
      guard let hash = RecordCodec.computedHash(of: record.span.bytes), hash == decoded.hash else {
        throw .malformedBundle("the record's bytes do not hash to the hash it carries: it was altered")
      }
      computed = hash
    }
    guard decoded.position.rawValue == inclusion.leafIndex + 1 else {
      throw .malformedBundle(
        "the record says it is at \(decoded.position), the proof is for leaf \(inclusion.leafIndex)")
    }
    try inclusion.check(leafHash: computed, against: trusted.treeHead)
    return (decoded, trusted)
  }
}
