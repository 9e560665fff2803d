/// A command's `--format`, whose default is the settings file's `format` (``ConfigFile``) where
/// the command prints that format, else a table.
package protocol ConfiguredFormat: RawRepresentable where RawValue == String {
  /// Text for a person: every command's format when nothing else is said.
  static var table: Self { get }
}

extension ConfiguredFormat {
  /// The settings file's format, where this command has it; else ``table``.
  package static var configured: Self {
    ConfigFile.loaded.format.flatMap { Self(rawValue: $0.rawValue) } ?? .table
  }
}
