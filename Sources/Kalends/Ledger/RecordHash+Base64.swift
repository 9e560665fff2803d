extension RecordHash {
  /// The 32 digest bytes in standard base64, as checkpoints, proof bundles and witness requests
  /// write hashes.
  package var base64: String { Base64.encode(bytes) }

  /// Parses the canonical base64 of 32 bytes; `nil` for anything else.
  package init?(base64 text: some StringProtocol) {
    guard let bytes = Base64.decode(String(text)) else { return nil }
    self.init(bytes: bytes)
  }
}
