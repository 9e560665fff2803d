internal import LMDB

extension Store {
  /// The time (UTC seconds) through which the store's server has shown alarms, kept in the
  /// store's metadata — its progress, not a fact of the log — so that a server started again shows
  /// the alarms it missed once and none twice; `nil` before the first server ran.
  package func alarmsDelivered() throws(StoreError) -> Int64? {
    let meta = self.meta
    return try StoreError.wrapping {
      try environment.read { txn in
        try txn.value(forKey: Array(MetaKey.alarmsDelivered.utf8), in: meta).map { bytes in
          guard bytes.count == 8 else {
            throw StoreError.malformedPayload("a stored alarm time of \(bytes.count) bytes")
          }
          return Int64(bitPattern: RecordCodec.readBigEndian(bytes[...]))
        }
      }
    }
  }

  /// Records that alarms through `time` (UTC seconds) were shown.
  package func setAlarmsDelivered(_ time: Int64) throws(StoreError) {
    let meta = self.meta
    try StoreError.wrapping {
      try environment.write { txn in
        try txn.put(
          Payload.bigEndianBytes(UInt64(bitPattern: time)), forKey: Array(MetaKey.alarmsDelivered.utf8), in: meta)
      }
    }
  }
}
