/// Why a time zone could not be loaded.
public enum ZoneRulesError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No zone of that IANA identifier exists in the system's time zone database.
  case unknownIdentifier(String)
  /// The zone's TZif file exists but could not be read.
  case malformedData(identifier: String, reason: String)

  public var description: String {
    switch self {
    case .unknownIdentifier(let identifier):
      return "unknown time zone '\(identifier)' — use an IANA identifier such as Europe/Berlin "
        + "(the system's zoneinfo files, e.g. /usr/share/zoneinfo, must be installed)"
    case .malformedData(let identifier, let reason):
      return "the time zone file of '\(identifier)' is malformed (\(reason)) — reinstall the system's tzdata"
    }
  }
}
