/// A stored record's forms, for those who hold copies of a log's records outside the store (a
/// fleet's mirror): the hash that identifies it whatever its form, and the form its content's
/// erasure leaves.
package enum RecordForms {
  /// The hash the record carries (its last 32 bytes): the same before and after its content is
  /// erased, so two copies of one record compare equal by it in either form.
  package static func storedHash(_ record: [UInt8]) -> ArraySlice<UInt8> { record.suffix(32) }

  /// `record` with its content erased, byte for byte what `EventStore.erase` leaves of it in the
  /// store; `nil` when it has no content to erase (a kind without content, erased already) or is
  /// not a record.
  package static func erased(_ record: [UInt8]) -> [UInt8]? {
    (try? RecordCodec.erasing(record.span.bytes)) ?? nil
  }
}
