/// The fields of one record kind's payload: their tags, names and types.
///
/// Schemas let a reader (the CLI, the audit tools, a Python script with docs/log-format.md) show any
/// payload by name without kind-specific code. Fields are only ever added, with new tags; a reader
/// ignores tags it does not know and uses defaults for fields an old record lacks.
public struct RecordSchema: Sendable {
  /// The type of a field's value, which fixes its byte encoding.
  public enum FieldType: Sendable, Hashable {
    /// Unsigned, 8 bytes big-endian.
    case unsigned
    /// Signed two's complement, 8 bytes big-endian.
    case signed
    /// 1 byte, 0 or 1.
    case bool
    /// UTF-8 text.
    case string
    /// Opaque bytes.
    case bytes
    /// 16 bytes.
    case uuid
    /// Microseconds since the Unix epoch, signed, 8 bytes big-endian.
    case timestamp
  }

  /// One field.
  public struct Field: Sendable {
    /// Its tag in the payload (1–255).
    public let tag: UInt8
    /// Its name in JSON output.
    public let name: String
    /// Its value type.
    public let type: FieldType
    /// Whether a record of this kind must have it.
    public let required: Bool
  }

  /// The kind's name.
  public let name: String
  /// The kind's fields.
  public let fields: [Field]

  /// The field with `tag`, if known.
  public func field(tag: UInt8) -> Field? { fields.first { $0.tag == tag } }

  static let storeCreated = RecordSchema(
    name: "storeCreated",
    fields: [
      Field(tag: 1, name: "storeId", type: .uuid, required: true),
      Field(tag: 2, name: "software", type: .string, required: false),
    ])

  static let annotationAdded = RecordSchema(
    name: "annotationAdded",
    fields: [Field(tag: 1, name: "text", type: .string, required: true)])

  /// Every kind this version knows.
  static let all: [RecordKind: RecordSchema] = [
    .storeCreated: storeCreated,
    .annotationAdded: annotationAdded,
  ]
}
