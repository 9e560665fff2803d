import Kalends
import Testing

/// WebDAV dead properties of calendar objects, cards and the address book: facts in the log,
/// kept through a new body, rebuilt from the log, bounded, and set only by who may change the
/// resource.
@Suite("Dead properties of objects, cards and the address book")
struct ResourcePropertiesTests {
  static let mine = "{urn:example}mine"

  @Test func anObjectsPropertiesOutliveANewBodyAndARebuild() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      var event = Event(
        calendarID: work.id, title: "Standup", start: LocalDateTime(year: 2027, month: 3, day: 1, hour: 9),
        end: LocalDateTime(year: 2027, month: 3, day: 1, hour: 10), timeZone: "Europe/Paris")
      event.externalID = "standup@example.com"
      try owner.putCalendarObject(CalendarObject(uid: event.externalID, events: [event]), inCalendar: work.id)
      let set = try owner.updateClientProperties(
        [Self.mine: #"x &amp; y<x:inner xmlns:x="urn:example">deep</x:inner>"#, "{urn:example}gone": nil],
        ofObjectNamed: event.externalID, inCalendar: work.id)
      #expect(set.clientProperties.count == 1)
      #expect(try store.lastRecords(1).map(\.kind) == [.eventSaved])
      // The same again writes nothing.
      let head = try store.head().position
      try owner.updateClientProperties(
        [Self.mine: set.clientProperties[Self.mine]], ofObjectNamed: event.externalID, inCalendar: work.id)
      #expect(try store.head().position == head)

      event.title = "Standup (moved)"
      let (replaced, created) = try owner.putCalendarObject(
        CalendarObject(uid: event.externalID, events: [event]), inCalendar: work.id)
      #expect(!created && replaced.clientProperties == set.clientProperties)
      // A change through the API keeps them too.
      var fetched = try #require(try owner.calendarObject(named: event.externalID, inCalendar: work.id)?.events.first)
      fetched.location = "Room 4"
      try owner.save(fetched, span: .futureEvents)
      _ = try store.rebuildProjections()
      #expect(try store.verifyProjections().isConsistent)
      let rebuilt = try #require(try owner.calendarObject(named: event.externalID, inCalendar: work.id))
      #expect(rebuilt.clientProperties == set.clientProperties && rebuilt.events[0].location == "Room 4")

      // Bounded: more than a resource keeps, refused with nothing written; a missing object too.
      let full = try store.head().position
      var many: [String: String?] = [:]
      for index in 0..<EventCalendar.maximumClientProperties { many["{urn:x}p\(index)"] = "v" }
      #expect(throws: StoreError.self) {
        try owner.updateClientProperties(many, ofObjectNamed: event.externalID, inCalendar: work.id)
      }
      #expect(throws: StoreError.self) {
        try owner.updateClientProperties([Self.mine: "1"], ofObjectNamed: "nothing", inCalendar: work.id)
      }
      #expect(try store.head().position == full)
    }
  }

  @Test func cardsAndTheAddressBookKeepTheirsAndLimitedAccessReachesNeitherOthersNorTheBook() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var ann = Contact(givenName: "Ann", familyName: "Lee")
      ann.externalID = "ann"
      ann = try owner.contactStore.save(ann)
      let bob = try owner.contactStore.save(Contact(givenName: "Bob", familyName: "Lee"))
      try owner.contactStore.updateClientProperties([Self.mine: "ann's"], ofCardNamed: "ann")
      var renamed = ann
      renamed.givenName = "Anne"
      try owner.contactStore.putContact(renamed, named: "ann")
      #expect(try owner.contactStore.addressObject(named: "ann")?.clientProperties == [Self.mine: "ann's"])

      #expect(
        try owner.contactStore.contactContainer(withID: ContactContainer.localID)?.clientProperties.isEmpty == true)
      try owner.contactStore.updateContainer(
        ContactContainer.localID, properties: ["{urn:ietf:params:xml:ns:carddav}addressbook-description": "Family"])
      #expect(try store.lastRecords(1).map(\.kind) == [.addressBookSaved])
      _ = try store.rebuildProjections()
      #expect(try store.verifyProjections().isConsistent)
      #expect(try owner.contactStore.contactContainer(withID: ContactContainer.localID)?.clientProperties.count == 1)
      #expect(try owner.contactStore.addressObject(named: "ann")?.clientProperties == [Self.mine: "ann's"])

      let app = "com.example.book"
      try owner.register(Client(id: app, name: "Book", usageDescriptions: [.contacts: "Friends."]))
      try owner.privacySettings().setLimitedAccess(for: app, contacts: [ann.id])
      let limited = try owner.session(for: app)
      try limited.contactStore.updateClientProperties([Self.mine: "set by the app"], ofCardNamed: "ann")
      #expect(try limited.contactStore.contactContainer(withID: ContactContainer.localID)?.clientProperties.count == 1)
      let head = try store.head().position
      #expect(throws: StoreError.self) {
        try limited.contactStore.updateClientProperties([Self.mine: "x"], ofCardNamed: bob.externalID)
      }
      #expect(try store.head().position == head)
      // The book is every contact's: limited access is refused, and the refusal recorded.
      #expect(throws: StoreError.self) {
        try limited.contactStore.updateContainer(ContactContainer.localID, properties: [Self.mine: "x"])
      }
      #expect(try store.lastRecords(1).map(\.kind) == [.accessAttemptRefused])
      #expect(
        try owner.contactStore.contactContainer(withID: ContactContainer.localID)?.clientProperties[Self.mine] == nil)
    }
  }
}
