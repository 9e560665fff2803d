package import Kalends

extension LogHead {
  /// `head` and `headHash`.
  package var jsonFields: [(String, JSONValue)] {
    [("head", .number(Double(position.rawValue))), ("headHash", .string(hash.hex))]
  }
}

extension TreeHead {
  /// `treeSize` and `treeRoot`.
  package var jsonFields: [(String, JSONValue)] {
    [("treeSize", .number(Double(size))), ("treeRoot", .string(root.hex))]
  }
}

extension Principal {
  /// `{"type": "client", "id": "com.example.app"}` (no `id` for the system and the person).
  package var json: JSONValue {
    switch self {
    case .system, .person: .object([("type", .string(typeName))])
    case .client, .policy, .source: .object([("type", .string(typeName)), ("id", .string(identifier))])
    }
  }
}

extension PayloadValue {
  package var json: JSONValue {
    switch self {
    case .unsigned(let value): .number(Double(value))
    case .signed(let value): .number(Double(value))
    case .bool(let value): .bool(value)
    case .string(let text): .string(text)
    case .bytes(let bytes): .string(bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined())
    case .uuid(let text): .string(text)
    case .timestamp(let time): .string(time.description)
    case .localDateTime(let text): .string(text)
    case .message(let fields): .object(fields.map { ($0.name, $0.value.json) })
    case .list(let values): .array(values.map(\.json))
    }
  }
}

extension LogRecord {
  /// The record as documented in docs/cli.md's JSON shapes.
  package func json() throws -> JSONValue {
    var fields: [(String, JSONValue)] = [
      ("position", .number(Double(position.rawValue))),
      ("timestamp", .string(timestamp.description)),
      ("actor", principal.json),
    ]
    if let caller = CallerEvidence.caller(identification, actor: principal) { fields.append(("caller", caller)) }
    fields += [
      ("kind", .string(kind.name)),
      ("kindCode", .number(Double(kind.rawValue))),
      ("payload", .object(try self.fields().map { ($0.name, $0.value.json) })),
      ("formatVersion", .number(Double(header.formatVersion))),
    ]
    if header.content != .present {
      fields.append(("content", .string(header.content == .erased ? "erased" : "erasedUnverifiable")))
    }
    fields += [
      ("previousHash", .string(previousHash.hex)),
      ("hash", .string(hash.hex)),
    ]
    return .object(fields)
  }
}

extension String {
  package func leftPadded(to width: Int, with pad: Character = "0") -> String {
    count >= width ? self : String(repeating: pad, count: width - count) + self
  }

  package func rightPadded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  /// The text on one line: every line break becomes a space.
  package func replacingNewlines() -> String {
    String(map { $0.isNewline ? " " : $0 })
  }
}
