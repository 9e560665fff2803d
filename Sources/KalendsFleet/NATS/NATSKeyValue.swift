import CNATS

/// A JetStream key-value bucket, through the NATS C client: the latest value of each key, kept with
/// the bucket's history of one. Used by one thread at a time; it keeps its connection open.
package final class NATSKeyValue {
  private let store: OpaquePointer
  private let connection: NATSConnection
  /// The bucket's name.
  package let bucket: String

  /// Binds the bucket `bucket` of `jetStream`, creating it (file storage, `replicas` copies) when
  /// missing.
  init(connection: NATSConnection, bucket: String, replicas: Int) throws(NATSError) {
    let jetStream = connection.jetStreamContext
    var store: OpaquePointer?
    if js_KeyValue(&store, jetStream, bucket) != NATS_OK {
      var config = kvConfig()
      kvConfig_Init(&config)
      let status = bucket.withCString { name -> natsStatus in
        config.Bucket = name
        config.History = 1
        config.StorageType = js_FileStorage
        config.Replicas = Int32(replicas)
        return js_CreateKeyValue(&store, jetStream, &config)
      }
      try NATSError.check(status, "create the key-value bucket \(bucket)")
    }
    guard let store else { throw NATSError(NATS_ERR, "open the key-value bucket \(bucket)") }
    self.store = store
    self.bucket = bucket
    self.connection = connection
  }

  deinit { kvStore_Destroy(store) }

  /// Sets `key` to `value`; returns the bucket's revision of the write.
  @discardableResult
  package func put(_ value: [UInt8], forKey key: String) throws(NATSError) -> UInt64 {
    var revision: UInt64 = 0
    let status = value.withUnsafeBytes { bytes in
      kvStore_Put(&revision, store, key, bytes.baseAddress, Int32(bytes.count))
    }
    try NATSError.check(status, "put \(key) in \(bucket)")
    return revision
  }

  /// The value of `key`; `nil` when it has none.
  package func value(forKey key: String) throws(NATSError) -> [UInt8]? {
    var entry: OpaquePointer?
    let status = kvStore_Get(&entry, store, key)
    if status == NATS_NOT_FOUND { return nil }
    try NATSError.check(status, "get \(key) from \(bucket)")
    defer { kvEntry_Destroy(entry) }
    let count = Int(kvEntry_ValueLen(entry))
    guard count > 0, let bytes = kvEntry_Value(entry) else { return [] }
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }
}

extension NATSConnection {
  /// The key-value bucket `bucket`, created with `replicas` copies when missing.
  package func keyValue(bucket: String, replicas: Int = 1) throws(NATSError) -> NATSKeyValue {
    try NATSKeyValue(connection: self, bucket: bucket, replicas: replicas)
  }
}
