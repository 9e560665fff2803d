import Kalends
import Synchronization

/// A prompter that answers from a script and counts how often it was asked.
final class ScriptedPrompter: ConsentPrompter {
  private let state: Mutex<(answers: [ConsentAnswer], asked: [ConsentRequest])>

  init(_ answers: ConsentAnswer...) { state = Mutex((answers, [])) }

  func answer(_ request: ConsentRequest) -> ConsentAnswer? {
    state.withLock { state in
      state.asked.append(request)
      return state.answers.isEmpty ? .deny : state.answers.removeFirst()
    }
  }

  /// Every request it was asked, in order.
  var asked: [ConsentRequest] { state.withLock { $0.asked } }
}

/// A store with an owner facade, a calendar with one event, and a registered planner app.
struct PrivacyFixture {
  static let planner = "com.example.planner"

  let store: Store
  let owner: EventStore
  let calendar: EventCalendar
  let existing: Event

  init(
    _ store: Store,
    usage: [Client.Usage: String] = [
      .calendarsFull: "Shows your agenda.", .calendarsWriteOnly: "Adds bookings.", .remindersFull: "Tracks tasks.",
    ]
  ) throws {
    self.store = store
    owner = EventStore(store: store)
    calendar = try owner.save(EventCalendar(title: "Work"))
    existing = try owner.save(
      Event(
        calendarID: calendar.id, title: "Review", start: local(2026, 5, 4, 10), end: local(2026, 5, 4, 11),
        timeZone: "Europe/Berlin"), span: .thisEvent)
    try owner.register(Client(id: Self.planner, name: "Planner", usageDescriptions: usage))
  }

  /// A new event for the planner to add.
  func newEvent(_ title: String = "Booked") -> Event {
    Event(
      calendarID: calendar.id, title: title, start: local(2026, 5, 5, 10), end: local(2026, 5, 5, 11),
      timeZone: "Europe/Berlin")
  }

  /// The named fields of the last `count` records.
  func lastRecords(_ count: Int) throws -> [(kind: RecordKind, principal: Principal, fields: [String: PayloadValue])] {
    try store.lastRecords(count).map { record in
      (record.kind, record.principal, try namedFields(record))
    }
  }
}

/// The refused calls of `client` counted since `position` — in `accessAttemptRefused` records and
/// still pending — for `service` (every service when `nil`).
func countedRefusals(_ store: Store, client: String, service: Service? = nil, since position: LogPosition) throws -> Int
{
  let audit = PrivacyAudit(store: store)
  let logged = try audit.history(client: client).filter {
    $0.kind == .accessAttemptRefused && $0.position > position && (service == nil || $0.service == service)
  }.reduce(0) { $0 + ($1.count ?? 0) }
  let pending = try audit.pendingRefusals(client: client).filter { service == nil || $0.service == service }
    .reduce(0) { $0 + $1.count }
  return logged + pending
}
