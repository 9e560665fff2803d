import Kalends
import KalendsCommandSupport
import KalendsFormats

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
        summary(record.kind, try record.fields()) + (record.header.content == .present ? "" : " (content erased)"),
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
    switch record.header.content {
    case .present: break
    case .erased: lines.append(("content", "erased (its commitment kept: the hash still proves the rest)"))
    case .erasedUnverifiable:
      lines.append(("content", "erased (written before format 3: the hash no longer proves the rest)"))
    }
    for field in try record.fields() {
      lines.append(("payload." + field.name, text(record.kind, field.name, field.value)))
    }
    lines.append(("previousHash", record.previousHash.hex))
    lines.append(("hash", record.hash.hex))
    return TextTable.fields(lines)
  }

  private static func summary(_ kind: RecordKind, _ fields: [NamedPayloadValue]) -> String {
    let text = fields.map { "\($0.name)=\(Self.text(kind, $0.name, $0.value))" }.joined(separator: " ")
    let flat = text.replacingNewlines()
    return flat.count > 60 ? String(flat.prefix(59)) + "…" : flat
  }

  /// A field's value for people: the privacy records' services, levels, statuses and reasons by
  /// name (`service=calendars status=denied`), where the stored form (and `--format json`) has
  /// their numbers; anything else as its JSON text.
  static func text(_ kind: RecordKind, _ name: String, _ value: PayloadValue) -> String {
    guard [.accessRequested, .accessDecided, .accessAttemptRefused, .accessScopeChanged, .dataRead].contains(kind),
      case .unsigned(let number) = value,
      let raw = UInt8(exactly: number)
    else { return value.json.plainText }
    let named: String? =
      switch name {
      case "service": Service(rawValue: raw)?.description
      case "level": AccessLevel(rawValue: raw)?.description
      case "status", "previousStatus": AuthorizationStatus(rawValue: raw)?.description
      case "reason": DecisionReason(rawValue: raw)?.description
      default: nil
      }
    return named ?? value.json.plainText
  }
}
