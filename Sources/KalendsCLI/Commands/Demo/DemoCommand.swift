import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends demo`: the main job — a realistic store, then its privacy audit.
  struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "demo",
      abstract: "Build a realistic demo store (a year of events, apps asking for access) and audit it.",
      discussion: """
        The store goes to --store, else $KALENDS_STORE-demo … or ~/.local/share/kalends/demo; a previous \
        demo store there is replaced (any other store is left alone). Three calendars get a year of \
        events, and a subscribed calendar mirrors a feed of holidays beside the store; a second store \
        beside it (PATH.family), served over CalDAV on loopback while the demo runs, is added as the \
        account "Family server" and its School calendar synced in (docs/accounts.md); a calendar program over CalDAV (Thunderbird's part, identified by its token over TCP) \
        is given the Work calendar at its first request, sees only it, reads a week and stores an \
        event; an agenda app (kalends-agenda, when built beside kalends) asks through the store server \
        and is identified by its binary, and a copy of it changed by one byte is refused; a birthdays app \
        (kalends-birthdays, likewise) is given two contacts at its prompt and handed a third by the \
        contact picker; five more apps \
        ask for access in-process (declared, not identified): one is granted write-only then upgraded, then revoked in \
        settings; one is denied and keeps trying; one is restricted by a policy; one is reset; one \
        forgot its usage description; one built for iOS 5 is asked for on its first read (an implicit \
        prompt) and one built for iOS 16 asks with requestAccess(to:) and gets the write-only prompt \
        (docs/privacy.md); a contacts book of six cards in two groups with the birthdays calendar derived \
        from their birthdays and anniversaries (docs/accounts.md), a messaging app given limited \
        access to two of them, a ride app handed one contact by the picker, and a work app given full \
        access to the Work calendar only (docs/contacts.md, docs/privacy.md). Then the audit timeline and the current state are printed, and \
        the log's tree head is signed as a checkpoint with the demo's own key, written beside the store \
        (PATH.checkpoint-key, replaced with the store), whose verifier key is printed; last the privacy \
        report (kalends audit report) is written beside the store as PATH.report.html.
        """)

    @Option(help: ArgumentHelp("Where to build the demo store.", valueName: "path")) var store: String?

    static let marker = "kalends demo store"

    func run() async throws {
      let path = store ?? Self.defaultPath
      try prepare(path)
      let owner = try EventStore(path: path, options: StoreOptions(durability: .noMetaSync))
      try owner.store.append(.annotation(Self.marker))
      try Self.fillCalendars(owner)
      let holidays = try DemoSubscription.subscribe(owner, storePath: path)
      try Self.playApps(owner)
      try Self.playContacts(owner)
      print("Demo store: \(path)\n")
      print(
        "Subscribed calendar \"\(holidays.title)\" mirrors \(DemoSubscription.feedPath(of: path)) "
          + "(kalends subscription list --store \(path))\n")
      try await DemoAccount.play(owner, storePath: path)
      try DemoServedApps(storePath: path, owner: owner).play()
      print("Privacy timeline (kalends audit history --store \(path)):")
      let audit = PrivacyAudit(store: owner.store)
      let names = try AuditNames(owner)
      ReportFormat.table.write(
        try AuditTimeline(audit).rows(names: names, table: true),
        columns: ["position", "time", "app", "what", "caller"])
      print("\nCurrent state (kalends audit state --store \(path)):")
      ReportFormat.table.write(
        try audit.state(at: .now()).map(\.jsonFields),
        columns: ["client", "service", "status", "decision", "reason", "chosen"])
      let head = try owner.store.head()
      print("\n\(head.position) records; head hash \(head.hash) — kalends audit verify --store \(path)")
      let keyPath = Self.keyPath(of: path)
      try? FileManager.default.removeItem(atPath: keyPath)
      let signer = try CheckpointSigner.generate(name: owner.store.origin)
      try KeyFile.write(signer, to: keyPath)
      let checkpoint = try owner.store.checkpoint(signer: signer)
      print("\nSigned checkpoint of the log's Merkle tree (kalends checkpoint show --store \(path)):")
      print(checkpoint, terminator: "")
      print("Verifier key: \(signer.verifier)")
      print("Private key: \(keyPath) — prove a record with kalends audit prove POSITION --store \(path)")
      let reportPath = Self.reportPath(of: path)
      let report = try PrivacyReport(
        store: owner.store, storePath: path, since: nil, until: nil, logKey: signer.verifier, witnesses: [], quorum: 0)
      try ReportPage.write(report, to: reportPath)
      print("\nPrivacy report (kalends audit report --store \(path) --key VKEY --out FILE): \(reportPath)")
      print("Open it in a browser: it checks its \(report.proofs.count) decisions' proofs itself.")
    }

    /// The demo's privacy report: beside the store.
    static func reportPath(of store: String) -> String { store + ".report.html" }

    /// The demo's checkpoint key: beside the store, never inside it.
    static func keyPath(of store: String) -> String { store + ".checkpoint-key" }

    static var defaultPath: String {
      let environment = ProcessInfo.processInfo.environment
      if let path = environment["KALENDS_STORE"], !path.isEmpty { return path + "-demo" }
      if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/kalends/demo" }
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      return home + "/.local/share/kalends/demo"
    }

    /// Removes a previous demo store at `path`; refuses to touch any other store.
    private func prepare(_ path: String) throws {
      guard FileManager.default.fileExists(atPath: path + "/data.mdb") else { return }
      let existing = try Store.open(at: path, options: StoreOptions(readOnly: true))
      let second = try existing.records(from: LogPosition(2), limit: 1).first
      let isDemo =
        try second.map { record in
          try record.fields().contains { $0.value == .string(Self.marker) }
        } ?? false
      guard isDemo else {
        throw CLIError.invalidInput("\(path) holds a store that is not a demo — pass another --store")
      }
      for file in ["data.mdb", "lock.mdb"] { try? FileManager.default.removeItem(atPath: path + "/" + file) }
    }

    /// Three calendars with a year of single and recurring events.
    static func fillCalendars(_ owner: EventStore) throws {
      let work = try owner.save(EventCalendar(title: "Work"))
      let home = try owner.save(EventCalendar(title: "Home"))
      let family = try owner.save(EventCalendar(title: "Family"))
      let todo = try owner.save(EventCalendar(title: "To Do", allowedEntityTypes: .reminders))
      func at(_ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> LocalDateTime {
        LocalDateTime(year: 2026, month: month, day: day, hour: hour, minute: minute)!
      }
      var events: [Kalends.Event] = []
      var standup = Kalends.Event(
        calendarID: work.id, title: "Standup", start: at(1, 5, 9), end: at(1, 5, 9, 15), timeZone: "Europe/Berlin")
      standup.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")]
      events.append(standup)
      var review = Kalends.Event(
        calendarID: work.id, title: "Monthly review", start: at(1, 30, 14), end: at(1, 30, 15),
        timeZone: "Europe/Berlin")
      review.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")]
      events.append(review)
      var gym = Kalends.Event(calendarID: home.id, title: "Gym", start: at(1, 6, 18), end: at(1, 6, 19), timeZone: nil)
      gym.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20261231T235959")]
      events.append(gym)
      var birthday = Kalends.Event(
        calendarID: family.id, title: "Mia's birthday", start: at(3, 14), end: at(3, 15), timeZone: nil, isAllDay: true)
      birthday.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=YEARLY")]
      events.append(birthday)
      let titles = ["Client call", "Design review", "Dentist", "Lunch with Sam", "Plumber", "Parents' evening"]
      let calendars = [work.id, work.id, home.id, home.id, home.id, family.id]
      for index in 0..<300 {
        let day = index * 365 / 300
        let month = min(12, day / 31 + 1)
        let start = at(month, day % 28 + 1, 8 + index % 10)
        events.append(
          Kalends.Event(
            calendarID: calendars[index % calendars.count], title: titles[index % titles.count], start: start,
            end: LocalDateTime(wallClockSeconds: start.wallClockSeconds + 3_600), timeZone: "Europe/Berlin"))
      }
      events.append(
        Kalends.Event(
          calendarID: family.id, title: "Summer holiday", start: at(7, 20), end: at(8, 10), timeZone: nil,
          isAllDay: true)
      )
      try owner.save(events, span: .thisEvent)
      for (index, title) in ["Renew passport", "Book flights", "Call insurance"].enumerated() {
        var reminder = Kalends.Reminder(
          calendarID: todo.id, title: title, dueDate: at(2 + index, 1, 9), timeZone: "Europe/Berlin")
        reminder.priority = index + 1
        try owner.save(reminder)
      }
    }

    /// Seven apps ask (or, built for iOS 5, are asked for), get answers, and have their access changed
    /// from outside.
    static func playApps(_ owner: EventStore) throws {
      let planner = "com.example.planner"
      let social = "com.example.social"
      let school = "org.example.school"
      let notes = "com.example.notes"
      let forgetful = "com.example.forgetful"
      try owner.register(
        Kalends.Client(
          id: planner, name: "Planner",
          usageDescriptions: [.calendarsWriteOnly: "Adds your bookings.", .calendarsFull: "Shows your whole agenda."]))
      try owner.register(
        Kalends.Client(id: social, name: "Social", usageDescriptions: [.calendarsFull: "Finds free evenings."]))
      try owner.register(
        Kalends.Client(id: school, name: "School", usageDescriptions: [.calendarsFull: "Adds term dates."]))
      try owner.register(
        Kalends.Client(id: notes, name: "Notes", usageDescriptions: [.remindersFull: "Turns notes into tasks."]))
      try owner.register(Kalends.Client(id: forgetful, name: "Forgetful", usageDescriptions: [:]))

      let plannerSession = try owner.session(for: planner)
      _ = try plannerSession.requestWriteOnlyAccess(prompter: FixedAnswerPrompter(.allow))
      let workCalendar = try plannerSession.calendars(for: .events).first
      if let workCalendar {
        try plannerSession.save(
          Kalends.Event(
            calendarID: workCalendar.id, title: "Booked: haircut",
            start: LocalDateTime(year: 2026, month: 12, day: 3, hour: 10),
            end: LocalDateTime(year: 2026, month: 12, day: 3, hour: 11),
            timeZone: "Europe/Berlin"), span: .thisEvent)
      }
      _ = try plannerSession.requestFullAccess(to: .calendars, prompter: FixedAnswerPrompter(.allow))

      do {
        let socialSession = try owner.session(for: social)
        _ = try socialSession.requestFullAccess(to: .calendars, prompter: FixedAnswerPrompter(.deny))
        for _ in 0..<25 { _ = try? socialSession.events(inCalendar: ObjectID.random()) }
      }

      let schoolSession = try owner.session(for: school)
      _ = try schoolSession.requestFullAccess(to: .calendars, prompter: FixedAnswerPrompter(.allow))
      try owner.privacySettings().restrict(school, service: .calendars, policy: "family-mdm")

      let notesSession = try owner.session(for: notes)
      _ = try notesSession.requestFullAccess(to: .reminders, prompter: FixedAnswerPrompter(.allow))
      try owner.privacySettings().resetAccess(client: notes)

      let forgetfulSession = try owner.session(for: forgetful)
      _ = try? forgetfulSession.requestFullAccess(to: .calendars, prompter: FixedAnswerPrompter(.allow))

      // Apps built for older systems (docs/privacy.md): iOS 5 had no request call, so its first read
      // asks the person; an iOS 16 app's requestAccess(to:) gets the write-only prompt.
      let diary = "com.example.diary"
      let bookings = "com.example.bookings"
      try owner.register(
        Kalends.Client(id: diary, name: "Diary", usageDescriptions: [.calendars: "Shows your day."], sdk: 5))
      try owner.register(
        Kalends.Client(id: bookings, name: "Bookings", usageDescriptions: [.calendars: "Adds your bookings."], sdk: 16))
      let diarySession = try owner.session(for: diary, prompter: FixedAnswerPrompter(.allow))
      if let calendar = try diarySession.calendars(for: .events).first {
        _ = try diarySession.events(inCalendar: calendar.id)
      }
      _ = try owner.session(for: bookings).requestAccess(to: .calendars, prompter: FixedAnswerPrompter(.allow))

      try owner.privacySettings().setAccess(.denied, for: planner, service: .calendars)
    }

    /// A contacts book, an app with limited access to two contacts, one handed a contact by the
    /// picker, and one with full access to the Work calendar only.
    static func playContacts(_ owner: EventStore) throws {
      let friends = try owner.contactStore.save(ContactGroup(name: "Friends"))
      let colleagues = try owner.contactStore.save(ContactGroup(name: "Colleagues"))
      let people: [(String, String, String, String, ContactGroup, String)] = [
        ("Ana", "Souza", "ana@example.com", "+55 11 5555 0101", friends, "1990-07-14"),
        ("Bastien", "Roux", "bastien@example.fr", "+33 1 55 55 01 02", friends, "--02-29"),
        ("Chiara", "Bianchi", "chiara@example.it", "+39 06 5555 0103", colleagues, "1985-11-03"),
        ("Dmitri", "Volkov", "dmitri@example.org", "+1 555 0104", colleagues, "1979-04-21"),
        ("Eun-ji", "Park", "eunji@example.kr", "+82 2 5555 0105", friends, "1996-09-08"),
        ("Fatou", "Diallo", "fatou@example.sn", "+221 33 555 0106", colleagues, "1988-01-30"),
      ]
      var saved: [Kalends.Contact] = []
      for (given, family, email, phone, group, birthday) in people {
        var contact = Kalends.Contact(givenName: given, familyName: family)
        contact.emailAddresses = [LabeledValue(label: "home", value: email)]
        contact.phoneNumbers = [LabeledValue(label: "mobile", value: phone)]
        contact.groupIDs = [group.id]
        contact.birthday = ContactDate(parsing: birthday)
        if given == "Chiara" { contact.anniversary = ContactDate(year: 2015, month: 6, day: 20) }
        saved.append(try owner.contactStore.save(contact))
      }
      try owner.addBirthdaysCalendar()
      let messages = "com.example.messages"
      let rides = "com.example.rides"
      let worktime = "com.example.worktime"
      try owner.register(
        Kalends.Client(id: messages, name: "Messages", usageDescriptions: [.contacts: "Finds who to write to."]))
      try owner.register(
        Kalends.Client(id: rides, name: "Rides", usageDescriptions: [.contacts: "Shares your ride."]))
      try owner.register(
        Kalends.Client(id: worktime, name: "Worktime", usageDescriptions: [.calendarsFull: "Tracks your work hours."]))
      // Messages asks; the person allows two contacts only. It adds one contact of its own.
      let messagesSession = try owner.session(for: messages)
      _ = try messagesSession.requestFullAccess(
        to: .contacts, prompter: FixedAnswerPrompter(.limited, contacts: [saved[0].id, saved[4].id]))
      _ = try messagesSession.contactStore.save(Kalends.Contact(givenName: "Support", familyName: "Desk"))
      // Rides never gets access: the person picks one contact for it.
      _ = try owner.session(for: rides).contactStore.pickContact(using: FixedContactPicker(saved[1].id))
      // Worktime is given the Work calendar only.
      if let work = try owner.calendars(for: .events).first(where: { $0.title == "Work" }) {
        _ = try owner.session(for: worktime).requestFullAccess(
          to: .calendars, prompter: FixedAnswerPrompter(.allow, calendars: [work.id]))
      }
    }
  }
}
