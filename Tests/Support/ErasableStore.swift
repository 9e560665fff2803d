package import Foundation
import Testing

/// An audited store (``AuditedStore``) with a calendar holding a secret event (saved twice) and
/// one kept, and a checkpoint kept outside the store from before any erasure: what the erasure
/// tests erase, and where they look for what must be gone.
package struct ErasableStore {
  /// The secret event's title.
  package static let secret = "Oncology QZX7"
  /// The secret event's notes.
  package static let notes = "biopsy WKJ3"

  package let audited: AuditedStore
  package let calendar: String
  package let event: String
  package var store: CLIStore { audited.store }

  package init() throws {
    audited = try AuditedStore()
    let store = audited.store
    calendar = try store.calendar("Health")
    event = try #require(
      try store.object([
        "event", "add", "--calendar", calendar, "--title", Self.secret, "--start", "2026-12-01T10:00:00Z", "--end",
        "2026-12-01T11:00:00Z", "--notes", Self.notes, "--location", "Ward QZX7",
      ])["id"] as? String)
    try store.object(["event", "update", event, "--title", Self.secret + " (moved)"])
    try store.object([
      "event", "add", "--calendar", calendar, "--title", "Dentist", "--start", "2026-12-02T10:00:00Z", "--end",
      "2026-12-02T11:00:00Z",
    ])
    let signed = try store.run(["checkpoint", "sign", "--key", audited.key])
    try #require(signed.status == 0, "\(signed.stderr)")
    try signed.stdout.write(toFile: audited.kept, atomically: true, encoding: .utf8)
  }

  /// Whether `data` holds a word of the secret event.
  package static func holdsSecret(_ data: Data) -> Bool {
    data.range(of: Data("QZX7".utf8)) != nil || data.range(of: Data("WKJ3".utf8)) != nil
  }
}
