/// A payload field's value, typed by its kind's schema: what the CLI and audit tools print.
public indirect enum PayloadValue: Hashable, Sendable {
  case unsigned(UInt64)
  case signed(Int64)
  case bool(Bool)
  case string(String)
  /// Opaque bytes, and any value that does not fit its declared type.
  case bytes([UInt8])
  case uuid(String)
  case timestamp(Timestamp)
  /// A wall-clock date and time, as `YYYY-MM-DDTHH:MM:SS` (no zone).
  case localDateTime(String)
  /// A nested payload, its fields named by the schema.
  case message([NamedPayloadValue])
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
    case .localDateTime:
      self = field.signed.map { .localDateTime(Self.wallClockText($0)) } ?? .bytes(field.value)
    case .message(let fields):
      let nested = try? Payload(bytes: field.value).describe(fields: fields)
      self = nested.map(PayloadValue.message) ?? .bytes(field.value)
    case .bytes, nil: self = .bytes(field.value)
    }
  }

  /// `YYYY-MM-DDTHH:MM:SS` for seconds since 1970-01-01T00:00:00 on a wall clock.
  static func wallClockText(_ seconds: Int64) -> String {
    let (days, secondOfDay) = seconds.floorDividedWithRemainder(by: 86_400)
    let (year, month, day) = CivilDate.fromDays(days)
    func pad(_ value: Int64, _ width: Int) -> String {
      let digits = String(value.magnitude)
      return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
      + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
  }
}

/// A payload field's name and typed value.
public struct NamedPayloadValue: Hashable, Sendable {
  /// The field's name in the schema, or `tagN`.
  public let name: String
  /// The value.
  public let value: PayloadValue
}

extension Payload {
  /// The fields named and typed by `kind`'s schema, in tag order; unknown tags are named `tagN` and
  /// shown as bytes, repeated tags become lists.
  package func describe(as kind: RecordKind) throws(StoreError) -> [(name: String, value: PayloadValue)] {
    try describe(fields: kind.schema?.fields ?? []).map { ($0.name, $0.value) }
  }

  func describe(fields schema: [RecordSchema.Field]) throws(StoreError) -> [NamedPayloadValue] {
    var order: [UInt8] = []
    var values: [UInt8: [PayloadValue]] = [:]
    for field in try fields() {
      if values[field.tag] == nil { order.append(field.tag) }
      let type = schema.first { $0.tag == field.tag }?.type
      values[field.tag, default: []].append(PayloadValue(field, type: type))
    }
    return order.sorted().map { tag in
      let name = schema.first { $0.tag == tag }?.name ?? "tag\(tag)"
      let list = values[tag]!
      return NamedPayloadValue(name: name, value: list.count == 1 ? list[0] : .list(list))
    }
  }
}
