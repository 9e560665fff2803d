import Kalends
import KalendsFormats

extension AppPositions {
  /// `fields` (an object's JSON, as the CLI prints it) with its `version` as this app is shown
  /// it: the entity tag's text, never the log position.
  func sealing(_ fields: [(String, JSONValue)], version: LogPosition) -> [(String, JSONValue)] {
    fields.map { field in field.0 == "version" ? ("version", .string(tag(version))) : field }
  }
}
