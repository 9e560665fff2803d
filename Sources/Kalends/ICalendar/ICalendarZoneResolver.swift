internal import Foundation
internal import Synchronization

/// The zone a `TZID` of one file stands for: an IANA zone, or — for a `VTIMEZONE` that no IANA zone
/// matches — the file's own definition.
enum ResolvedZone: Sendable {
  case iana(ZoneRules)
  case custom(VTimeZoneDefinition)
}

/// Resolves the `TZID`s of one file, the way `icalendar` (Python) looks them up:
///
/// 1. an IANA name (`Europe/Berlin`, also with surrounding slashes) is that zone;
/// 2. otherwise the file's `VTIMEZONE` of that `TZID` is honoured: it becomes the IANA zone whose
///    offsets equal the definition's at every transition in the years the file uses it (trying the
///    Windows name's zone, the name after a vendor prefix such as `/mozilla.org/…/Europe/Berlin`
///    and `X-LIC-LOCATION` first, then every zone of `zone1970.tab`); when none matches, times in it
///    are converted to UTC through the definition;
/// 3. without a `VTIMEZONE`, a Windows name (`W. Europe Standard Time`) or a vendor-prefixed IANA
///    name is the zone it names.
struct ICalendarZoneResolver {
  private let definitions: [String: ICalendarComponent]
  private let years: [String: ClosedRange<Int>]
  private var resolved: [String: ResolvedZone] = [:]

  /// A resolver for the `VTIMEZONE` components of a file and the years each `TZID` is used in.
  init(timeZones: [ICalendarComponent], years: [String: ClosedRange<Int>]) {
    var definitions: [String: ICalendarComponent] = [:]
    for component in timeZones {
      if let tzid = component.property("TZID")?.value { definitions[tzid] = component }
    }
    self.definitions = definitions
    self.years = years
  }

  /// The zone `tzid` stands for; `line` is where it is used, for errors.
  mutating func zone(_ tzid: String, line: Int) throws(ICalendarError) -> ResolvedZone {
    if let known = resolved[tzid] { return known }
    let zone = try resolve(tzid, line: line)
    resolved[tzid] = zone
    return zone
  }

  private func resolve(_ tzid: String, line: Int) throws(ICalendarError) -> ResolvedZone {
    let cleaned = String(tzid.trimmingCharacters(in: CharacterSet(charactersIn: "/ ")))
    if let zone = Self.iana(cleaned) { return .iana(zone) }
    let hints = [WindowsTimeZones.ianaByWindowsName[cleaned]].compactMap { $0 } + Self.suffixes(of: cleaned)
    if let component = definitions[tzid] {
      let span = years[tzid] ?? 2000...2030
      let definition = try VTimeZoneDefinition(component, years: span)
      let named = hints + [definition.location].compactMap { $0 }
      for name in named {
        if let zone = Self.iana(name), definition.matches(zone, years: span) { return .iana(zone) }
      }
      for zone in Self.allZones() where definition.matches(zone, years: span) { return .iana(zone) }
      return .custom(definition)
    }
    for name in hints {
      if let zone = Self.iana(name) { return .iana(zone) }
    }
    throw ICalendarError(line: line, .unknownTimeZone(tzid))
  }

  private static func iana(_ name: String) -> ZoneRules? {
    guard !name.isEmpty else { return nil }
    return try? ZoneRules.named(name)
  }

  /// `a/b/Europe/Berlin` → `b/Europe/Berlin`, `Europe/Berlin`, `Berlin`.
  private static func suffixes(of name: String) -> [String] {
    let parts = name.split(separator: "/")
    guard parts.count > 1 else { return [] }
    return (1..<parts.count).map { parts[$0...].joined(separator: "/") }
  }

  private static let zones = Mutex<[ZoneRules]?>(nil)

  /// The main zone of every Windows zone (the well-known ones), every zone of `zone1970.tab`, then
  /// the fixed-offset `Etc/GMT±h` zones, loaded once.
  private static func allZones() -> [ZoneRules] {
    if let loaded = zones.withLock({ $0 }) { return loaded }
    var names: [String] = ["UTC"] + Set(WindowsTimeZones.ianaByWindowsName.values).sorted()
    for directory in ["/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo"] {
      guard let table = FileManager.default.contents(atPath: directory + "/zone1970.tab") else { continue }
      for line in String(decoding: table, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
        let columns = line.split(separator: "\t")
        if columns.count >= 3 { names.append(String(columns[2])) }
      }
      break
    }
    names += (-14...12).filter { $0 != 0 }.map { "Etc/GMT" + ($0 > 0 ? "+\($0)" : "\($0)") }
    var unique: Set<String> = []
    let loaded = names.filter { unique.insert($0).inserted }.compactMap(iana)
    zones.withLock { $0 = loaded }
    return loaded
  }
}
