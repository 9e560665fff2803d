/// The state of an object as the projections that keep versions, not copies, read it: the `state`
/// field (5) of the save at the object's version, read from the log. The `objects` and `contacts`
/// projections share it, and with it what counts as damage.
enum SavedState {
  /// The state of `object` `id` (`"event"`, `"contact"`, …), whose last save according to
  /// `projection` is the record of kind `saveKind` at `version`. `read` calls its closure with that
  /// record's bytes, or returns `nil` when the log has none there.
  ///
  /// - Throws: an integrity failure when the record is missing, or is not a save of this object.
  static func read(
    _ object: String, _ id: ObjectID, saveKind: RecordKind, at version: LogPosition, projection: String,
    read: (LogPosition, (RawSpan) throws -> PayloadReader) throws -> PayloadReader?
  ) throws -> PayloadReader {
    let state = try read(version) { record in
      let (header, payloadRange) = try RecordCodec.decodeHeader(record)
      let payload = record.extracting(payloadRange)
      let fields = try PayloadFieldIndex(payload)
      guard header.kind == saveKind, try fields.requiredObjectID(1, in: payload) == id else {
        throw StoreError.integrity(
          IntegrityProblem(
            position: version, kind: .malformedRecord,
            detail:
              "the \(projection) projection gives this record as the last save of \(object) \(id), but it is not (run `kalends verify`, then `kalends rebuild`)"
          ))
      }
      return try fields[5].map { try PayloadReader(bytes: payload.extracting($0)) } ?? PayloadReader(Payload())
    }
    guard let state else {
      throw StoreError.integrity(
        IntegrityProblem(
          position: version, kind: .missingRecord,
          detail:
            "the \(projection) projection gives this position as the last save of \(object) \(id), but the log has no record there (run `kalends verify`, then `kalends rebuild`)"
        ))
    }
    return state
  }
}
