import Kalends

/// Tables of records for people.
enum RecordTable {
  /// One line per record: position, time, actor, kind, a summary of the payload, short hash.
  static func render(_ records: [LogRecord]) throws -> String {
    let header = ["POSITION", "TIME", "ACTOR", "KIND", "PAYLOAD", "HASH"]
    let rows = try records.map { record -> [String] in
      [
        String(record.position.rawValue),
        record.timestamp.description,
        record.principal.description,
        record.kind.name,
        summary(try record.payload.describe(as: record.kind)),
        record.hash.shortHex,
      ]
    }
    return TextTable.columns([header] + rows)
  }

  /// Every field of one record, one per line.
  static func renderDetail(_ record: LogRecord) throws -> String {
    var lines: [(String, String)] = [
      ("position", String(record.position.rawValue)),
      ("timestamp", record.timestamp.description),
      ("actor", record.principal.description),
      ("kind", "\(record.kind.name) (\(record.kind.rawValue))"),
      ("format", "version \(record.header.formatVersion)"),
    ]
    for field in try record.payload.describe(as: record.kind) {
      lines.append(("payload." + field.name, field.value.json.plainText))
    }
    lines.append(("previousHash", record.previousHash.hex))
    lines.append(("hash", record.hash.hex))
    return TextTable.fields(lines)
  }

  private static func summary(_ fields: [(name: String, value: PayloadValue)]) -> String {
    let text = fields.map { "\($0.name)=\($0.value.json.plainText)" }.joined(separator: " ")
    let flat = text.replacingNewlines()
    return flat.count > 60 ? String(flat.prefix(59)) + "…" : flat
  }
}
