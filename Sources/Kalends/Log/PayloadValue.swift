/// A payload field's value, typed by its kind's schema: what the CLI and audit tools print.
public enum PayloadValue: Hashable, Sendable {
  case unsigned(UInt64)
  case signed(Int64)
  case bool(Bool)
  case string(String)
  /// Opaque bytes, and any value that does not fit its declared type.
  case bytes([UInt8])
  case uuid(String)
  case timestamp(Timestamp)
  /// A field that appears several times.
  case list([PayloadValue])

  init(_ field: PayloadField, type: RecordSchema.FieldType?) {
    switch type {
    case .unsigned: self = field.unsigned.map(PayloadValue.unsigned) ?? .bytes(field.value)
    case .signed: self = field.signed.map(PayloadValue.signed) ?? .bytes(field.value)
    case .bool: self = field.bool.map(PayloadValue.bool) ?? .bytes(field.value)
    case .string: self = field.string.map(PayloadValue.string) ?? .bytes(field.value)
    case .uuid: self = StoreID(bytes: field.value).map { .uuid($0.description) } ?? .bytes(field.value)
    case .timestamp: self = field.signed.map { .timestamp(Timestamp(rawValue: $0)) } ?? .bytes(field.value)
    case .bytes, nil: self = .bytes(field.value)
    }
  }
}

extension Payload {
  /// The fields named and typed by `kind`'s schema, in tag order; unknown tags are named `tagN` and
  /// shown as bytes, repeated tags become lists.
  public func describe(as kind: RecordKind) throws(StoreError) -> [(name: String, value: PayloadValue)] {
    let schema = kind.schema
    var order: [UInt8] = []
    var values: [UInt8: [PayloadValue]] = [:]
    for field in try fields() {
      if values[field.tag] == nil { order.append(field.tag) }
      values[field.tag, default: []].append(PayloadValue(field, type: schema?.field(tag: field.tag)?.type))
    }
    return order.sorted().map { tag in
      let name = schema?.field(tag: tag)?.name ?? "tag\(tag)"
      let list = values[tag]!
      return (name, list.count == 1 ? list[0] : .list(list))
    }
  }
}
