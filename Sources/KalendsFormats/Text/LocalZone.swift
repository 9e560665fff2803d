import Foundation
package import Kalends
import Synchronization

/// The person's time zone: `$TZ` (an IANA name, with or without a leading `:`, or a path under a
/// `zoneinfo` directory), else the one the person's settings name (``setConfigured(_:)``), else
/// the system's (`/etc/localtime`'s link into `zoneinfo`, else `/etc/timezone`), else UTC. A name
/// Kalends' zone data does not know is UTC as well.
package enum LocalZone {
  /// The zone of the person's settings file, below `$TZ`.
  private static let configured = Mutex<String?>(nil)

  /// Makes `name` the zone when `$TZ` names none: the command line's settings file says it
  /// before the command runs.
  package static func setConfigured(_ name: String?) {
    configured.withLock { $0 = name }
  }

  /// The zone, read from the environment and the system each time it is asked.
  package static var current: ZoneRules {
    for name in candidates() {
      if let zone = try? ZoneRules.named(name) { return zone }
    }
    return .utc
  }

  /// The names to try, in order.
  static func candidates() -> [String] {
    var names: [String] = []
    if var tz = ProcessInfo.processInfo.environment["TZ"], !tz.isEmpty {
      if tz.hasPrefix(":") { tz.removeFirst() }
      names.append(zoneName(inPath: tz) ?? tz)
      return names
    }
    if let name = configured.withLock({ $0 }) { return [name] }
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
      let name = zoneName(inPath: target)
    {
      names.append(name)
    }
    if let text = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8) {
      names.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return names
  }

  /// `Europe/Berlin` of `/usr/share/zoneinfo/Europe/Berlin`; `nil` for a path not in `zoneinfo`.
  static func zoneName(inPath path: String) -> String? {
    guard let range = path.range(of: "zoneinfo/") else { return nil }
    let name = String(path[range.upperBound...])
    return name.isEmpty ? nil : name
  }
}
