import Kalends
import KalendsFormats

/// What a PROPFIND or REPORT asks of each resource (RFC 4918 §9.1).
enum PropertySelection {
  /// Every live property (`allprop`, or no body).
  case all
  /// The names only (`propname`).
  case names
  /// These properties.
  case named([XMLName])

  /// The selection of a `propfind` body, or of the `DAV:prop` among a report's children.
  init(_ element: XMLElement?) {
    guard let element else {
      self = .all
      return
    }
    if let prop = element.name == .dav("prop") ? element : element.child(.dav("prop")) {
      self = .named(prop.children.map(\.name))
    } else if element.child(.dav("propname")) != nil {
      self = .names
    } else {
      self = .all
    }
  }

  /// Whether it asks for `name` by name (the properties that cost a read are never in `allprop`).
  func asks(_ name: XMLName) -> Bool {
    if case .named(let names) = self { names.contains(name) } else { false }
  }

  /// Adds `resource` to `multistatus` with what this selection asks of it.
  func add(_ resource: DAVResource, to multistatus: inout Multistatus, positions: AppPositions) {
    switch self {
    case .all:
      multistatus.add(
        resource.href,
        found: resource.allProperties.compactMap { name in
          resource.value(name, positions: positions).map { (name, $0) }
        })
    case .names:
      multistatus.add(resource.href, found: resource.allProperties.map { ($0, "") })
    case .named(let names):
      var found: [(XMLName, String)] = []
      var missing: [XMLName] = []
      for name in names {
        if let value = resource.value(name, positions: positions) {
          found.append((name, value))
        } else {
          missing.append(name)
        }
      }
      multistatus.add(resource.href, found: found, missing: missing)
    }
  }
}
