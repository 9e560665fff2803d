import HTTPTypes
import Kalends
import KalendsFormats

/// The filter of an `addressbook-query` (RFC 6352 §10.5): property filters (`prop-filter`) with
/// `is-not-defined`, `text-match` and `param-filter`, combined by the `test` attributes (`anyof`,
/// the default, or `allof`), judged on each card's vCard text. Text matches use the collations of
/// ``CalendarFilter/text(_:matches:)``, `i;unicode-casemap` by default (RFC 6352 §10.5.4).
struct AddressBookFilter {
  private let filter: XMLElement?

  init(_ filter: XMLElement?) throws {
    self.filter = filter
    guard let filter else { return }
    for property in filter.children {
      guard property.name == .carddav("prop-filter"), property.attributes["name"] != nil else {
        throw DAVError(
          .forbidden, .carddav("supported-filter"), "an address book filter holds prop-filter elements with a name")
      }
      for child in property.children {
        guard [.carddav("is-not-defined"), .carddav("text-match"), .carddav("param-filter")].contains(child.name) else {
          throw DAVError(.forbidden, .carddav("supported-filter"), "\(child.name.local) is not a filter element")
        }
      }
    }
  }

  /// Whether the card `text` passes.
  func matches(_ text: String) -> Bool {
    guard let filter, !filter.children.isEmpty else { return true }
    guard let card = ICSComponent.parse(text).first else { return false }
    let results = filter.children.map { Self.property($0, of: card) }
    return filter.attributes["test"] == "allof" ? results.allSatisfy { $0 } : results.contains(true)
  }

  private static func property(_ filter: XMLElement, of card: ICSComponent) -> Bool {
    let name = filter.attributes["name"]?.uppercased() ?? ""
    // A property's group (`item1.EMAIL`) is not part of its name (RFC 6350 §3.3).
    let named = card.properties.filter { $0.name.split(separator: ".").last.map(String.init) == name }
    if filter.child(.carddav("is-not-defined")) != nil { return named.isEmpty }
    guard !named.isEmpty else { return false }
    let tests = filter.children.filter { $0.name != .carddav("is-not-defined") }
    guard !tests.isEmpty else { return true }
    let allOf = filter.attributes["test"] == "allof"
    return named.contains { property in
      let results = tests.map { test in
        if test.name == .carddav("text-match") { return text(test, matches: property.value) }
        let value = property.parameters[test.attributes["name"]?.uppercased() ?? ""]
        if test.child(.carddav("is-not-defined")) != nil { return value == nil }
        guard let value else { return false }
        return test.child(.carddav("text-match")).map { text($0, matches: value) } ?? true
      }
      return allOf ? results.allSatisfy { $0 } : results.contains(true)
    }
  }

  /// A CardDAV `text-match`: CalDAV's, with `i;unicode-casemap` as the default collation.
  private static func text(_ match: XMLElement, matches value: String) -> Bool {
    var attributes = match.attributes
    attributes["collation"] = attributes["collation"] ?? "i;unicode-casemap"
    return CalendarFilter.text(
      XMLElement(name: match.name, attributes: attributes, children: match.children, text: match.text), matches: value)
  }
}
