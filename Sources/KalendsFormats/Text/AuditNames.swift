package import Kalends

/// The names an audit shows beside identifiers: apps by their registered names, calendars by
/// their titles and contacts by their display names (live ones; a removed calendar or contact
/// keeps its id). Read by the store's owner, who may see them all.
package struct AuditNames: Sendable {
  package let apps: [String: String]
  package let calendars: [ObjectID: String]
  package let contacts: [ObjectID: String]

  /// Names of apps alone (calendars and contacts by their ids): what a mirror of the store's
  /// records knows without its projections.
  package init(apps: [String: String]) {
    self.apps = apps
    (calendars, contacts) = ([:], [:])
  }

  package init(_ owner: EventStore) throws {
    apps = Dictionary(try owner.clients().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    calendars = Dictionary(
      try owner.calendars().map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    contacts = Dictionary(
      try owner.contactStore.contacts().map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
  }

  /// An app as people read it: `Planner (com.example.planner)`, or its id alone when it has no name.
  package func app(_ client: String) -> String {
    guard let name = apps[client], !name.isEmpty, name != client else { return client }
    return "\(name) (\(client))"
  }

  /// A calendar's or contact's name, else its id.
  package func object(_ id: ObjectID) -> String { calendars[id] ?? contacts[id] ?? id.description }
}
