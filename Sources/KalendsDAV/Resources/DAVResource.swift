import Kalends
import KalendsFormats

/// A resource of the DAV space as an app is shown it, and its live properties.
enum DAVResource {
  /// The app itself (`/dav/`), by its registered name.
  case principal(name: String)
  /// The app's calendar home (`/dav/calendars/`).
  case calendarHome
  /// A calendar the app may see, with its collection state when it was asked for.
  case calendar(EventCalendar, CollectionState? = nil)
  /// A calendar object of the calendar with that id; its `calendar-data` expanded to its instances
  /// in that window (UTC seconds) when a REPORT asked for `expand` (RFC 4791 §9.6.5), else the
  /// object's text as `texts` keeps it.
  case object(CalendarObject, in: ObjectID, expand: Expansion? = nil, texts: ObjectTextCache? = nil)
  /// The app's address book home (`/dav/addressbooks/`).
  case addressBookHome
  /// An address book (a contacts container) at `/dav/addressbooks/BOOK/` (`at`: the name the
  /// client knows it by), with its collection state when it was asked for.
  case addressBook(ContactContainer, CollectionState? = nil, at: String)
  /// A contact's or a group's card in the address book at `at`, written as a vCard of that version.
  case card(AddressObject, VCardVersion, at: String)

  /// What a client compares to know whether a calendar changed: CalendarServer's `getctag` and
  /// RFC 6578's `sync-token`, read when a PROPFIND names them.
  struct CollectionState {
    /// The collection tag: the app's entity tag of the calendar's stamp
    /// (``EventStore/calendarStamp(inCalendar:)``) and its count of items — equal exactly while
    /// what the app sees of the calendar is unchanged.
    let tag: String
    /// A sync token for the head (``SyncToken``).
    let syncToken: String
    /// What WebDAV-Push shows of the collection to this app: its topic for the app, and the
    /// store's VAPID public key (base64url); set when a PROPFIND asks for them.
    var push: (topic: String, vapidKey: String)?

    /// The state of a collection whose stamp (``EventStore/calendarStamp(inCalendar:)``,
    /// ``ContactStore/contactsStamp(in:)``) is `stamp`, as the app of `positions` is shown it.
    init(_ stamp: (version: LogPosition, items: Int), _ positions: AppPositions, syncToken: String) {
      tag = positions.tag(stamp.version) + "-" + String(stamp.items)
      self.syncToken = syncToken
    }
  }

  /// Where it is.
  var href: String {
    switch self {
    case .principal: DAVPath.root
    case .calendarHome: DAVPath.calendarHomePath
    case .calendar(let calendar, _):
      calendar.resourceName.map { DAVPath.named($0) } ?? DAVPath.calendar(calendar.id)
    case .object(let object, let calendar, _, _): DAVPath.object(object.name, in: calendar)
    case .addressBookHome: DAVPath.addressBookHomePath
    case .addressBook(_, _, let book): DAVPath.bookHref(book)
    case .card(let card, _, let book): DAVPath.contact(card.name, in: book)
    }
  }

  /// The live properties of every resource, which the server computes or keeps in the model: a
  /// client sets only a calendar's ``DAVMiddleware/settable`` ones; any other name is a dead property
  /// (``EventCalendar/clientProperties``, ``Event/clientProperties``).
  static let liveProperties: Set<XMLName> = [
    .dav("resourcetype"), .dav("displayname"), .dav("current-user-principal"), .dav("owner"), .dav("principal-URL"),
    .dav("getetag"), .dav("getcontenttype"), .dav("getcontentlength"), .dav("getlastmodified"), .dav("creationdate"),
    .dav("lockdiscovery"), .dav("supportedlock"), .dav("sync-token"), .dav("supported-report-set"),
    .dav("current-user-privilege-set"), .dav("acl"), .dav("quota-used-bytes"), .dav("quota-available-bytes"),
    .caldav("supported-calendar-component-set"), .caldav("supported-calendar-data"), .caldav("max-resource-size"),
    .caldav("calendar-home-set"), .caldav("min-date-time"), .caldav("max-date-time"), .caldav("max-instances"),
    .caldav("max-attendees-per-instance"), .caldav("calendar-data"), .carddav("addressbook-home-set"),
    .carddav("address-data"), .carddav("supported-address-data"), .carddav("max-resource-size"),
    XMLName(Namespace.calendarServer, "getctag"), XMLName(Namespace.apple, "calendar-color"),
    XMLName(Namespace.push, "transports"), XMLName(Namespace.push, "topic"),
    XMLName(Namespace.push, "supported-triggers"),
  ]

  /// The properties `allprop` and an empty PROPFIND return (RFC 4918 §9.1): the cheap ones —
  /// never `calendar-data`, which a client asks for by name.
  var allProperties: [XMLName] {
    let common: [XMLName] = [.dav("resourcetype"), .dav("displayname"), .dav("current-user-principal")]
    switch self {
    case .principal:
      return common + [.dav("principal-URL"), .caldav("calendar-home-set"), .carddav("addressbook-home-set")]
    case .calendarHome, .addressBookHome: return common
    case .addressBook(let container, _, _):
      return common + [
        .dav("supported-report-set"), .carddav("supported-address-data"), .dav("current-user-privilege-set"),
        .carddav("max-resource-size"),
      ] + Self.dead(container.clientProperties)
    case .card(let card, _, _):
      return [.dav("resourcetype"), .dav("getetag"), .dav("getcontenttype")] + Self.dead(card.clientProperties)
    case .calendar(let calendar, _):
      // Dead properties too (RFC 4918 §9.1).
      return common + [
        .caldav("supported-calendar-component-set"), .dav("supported-report-set"),
        XMLName(Namespace.apple, "calendar-color"),
        .dav("current-user-privilege-set"), .caldav("max-resource-size"),
      ] + Self.dead(calendar.clientProperties)
    case .object(let object, _, _, _):
      return [.dav("resourcetype"), .dav("getetag"), .dav("getcontenttype")] + Self.dead(object.clientProperties)
    }
  }

  /// The names of the dead properties `properties` holds, in order.
  private static func dead(_ properties: [String: String]) -> [XMLName] {
    properties.keys.sorted().compactMap(XMLName.init(clark:)).filter { !liveProperties.contains($0) }
  }

  /// The value of the live property `name` (XML), or `nil` when this resource has no such property.
  /// `positions` turns versions into the app's entity tags.
  func value(_ name: XMLName, positions: AppPositions) -> String? {
    switch (name.namespace, name.local) {
    case (Namespace.dav, "resourcetype"):
      switch self {
      case .principal: return "<D:collection/><D:principal/>"
      case .calendarHome: return "<D:collection/>"
      case .calendar: return "<D:collection/><C:calendar/>"
      case .object, .card: return ""
      case .addressBookHome: return "<D:collection/>"
      case .addressBook: return "<D:collection/><CR:addressbook/>"
      }
    case (Namespace.dav, "current-user-principal"), (Namespace.dav, "owner"):
      return "<D:href>\(DAVPath.root)</D:href>"
    case (Namespace.dav, "principal-URL"):
      guard case .principal = self else { return nil }
      return "<D:href>\(DAVPath.root)</D:href>"
    case (Namespace.caldav, "calendar-home-set"):
      guard case .principal = self else { return nil }
      return "<D:href>\(DAVPath.calendarHomePath)</D:href>"
    case (Namespace.carddav, "addressbook-home-set"):
      guard case .principal = self else { return nil }
      return "<D:href>\(DAVPath.addressBookHomePath)</D:href>"
    case (Namespace.dav, "displayname"):
      switch self {
      case .principal(let name): return XMLText.escaped(name)
      case .calendarHome: return "Calendars"
      case .calendar(let calendar, _): return XMLText.escaped(calendar.title)
      case .addressBookHome: return "Address books"
      case .addressBook(let container, _, _): return XMLText.escaped(container.title)
      case .object, .card: return nil
      }
    default: break
    }
    switch self {
    case .calendar(let calendar, let state): return Self.value(name, of: calendar, state)
    case .object(let object, _, let expand, let texts):
      return Self.value(name, of: object, expand, texts, positions: positions)
    case .addressBook(let container, let state, _):
      return Self.addressBookValue(name, state, container)
    case .card(let card, let version, _): return Self.value(name, of: card, version, positions: positions)
    default: return nil
    }
  }

  /// A WebDAV-Push property of a collection: the transports (Web Push, with the VAPID key), the
  /// app's topic, the triggers pushed (changes to the members, depth 1); `nil` for another name,
  /// or when the state was not read.
  private static func pushValue(_ name: XMLName, _ state: CollectionState?) -> String? {
    guard let push = state?.push else { return nil }
    switch name.local {
    case "transports":
      return "<P:web-push><P:vapid-public-key type=\"p256ecdsa\">\(push.vapidKey)</P:vapid-public-key></P:web-push>"
    case "topic": return XMLText.escaped(push.topic)
    case "supported-triggers":
      return "<P:content-update><D:depth>1</D:depth></P:content-update>"
        + "<P:property-update><D:depth>0</D:depth></P:property-update>"
    default: return nil
    }
  }

  private static func addressBookValue(
    _ name: XMLName, _ state: CollectionState?, _ container: ContactContainer
  ) -> String? {
    let properties = container.clientProperties
    switch (name.namespace, name.local) {
    case (Namespace.push, _): return pushValue(name, state)
    case (Namespace.calendarServer, "getctag"): return state.map { XMLText.escaped($0.tag) }
    case (Namespace.dav, "sync-token"): return state.map { XMLText.escaped($0.syncToken) }
    case (Namespace.dav, "supported-report-set"):
      return ["<CR:addressbook-query/>", "<CR:addressbook-multiget/>", "<D:sync-collection/>"].map {
        "<D:supported-report><D:report>\($0)</D:report></D:supported-report>"
      }.joined()
    case (Namespace.carddav, "supported-address-data"):
      return VCardVersion.allCases.map {
        "<CR:address-data-type content-type=\"text/vcard\" version=\"\($0.rawValue)\"/>"
      }.joined()
    case (Namespace.dav, "current-user-privilege-set"):
      // An account's address book: its cards change here (and go out to its server) when its
      // server lets the user change them; its own properties are the server's.
      let contents = container.allowsContentModifications ? ["write-content", "bind", "unbind"] : []
      let privileges =
        ["read", "read-current-user-privilege-set"] + (container.accountID == nil ? ["write"] : []) + contents
      return privileges.map { "<D:privilege><D:\($0)/></D:privilege>" }.joined()
    case (Namespace.carddav, "max-resource-size"):
      return String(DAVMiddleware.maximumResource)
    default: return liveProperties.contains(name) ? nil : properties[name.description]
    }
  }

  private static func value(
    _ name: XMLName, of card: AddressObject, _ version: VCardVersion, positions: AppPositions
  ) -> String? {
    switch (name.namespace, name.local) {
    case (Namespace.dav, "getetag"):
      return XMLText.escaped("\"\(positions.tag(card.entityVersion))\"")
    case (Namespace.dav, "getcontenttype"):
      return "text/vcard; charset=utf-8"
    case (Namespace.carddav, "address-data"):
      return XMLText.escaped(card.vCard(version))
    default:
      return Self.liveProperties.contains(name) ? nil : card.clientProperties[name.description]
    }
  }

  private static func value(_ name: XMLName, of calendar: EventCalendar, _ state: CollectionState?) -> String? {
    switch (name.namespace, name.local) {
    case (Namespace.push, _): return pushValue(name, state)
    case (Namespace.calendarServer, "getctag"): return state.map { XMLText.escaped($0.tag) }
    case (Namespace.dav, "sync-token"): return state.map { XMLText.escaped($0.syncToken) }
    case (Namespace.caldav, "supported-calendar-component-set"):
      return (calendar.allowedEntityTypes.contains(.events) ? "<C:comp name=\"VEVENT\"/>" : "")
        + (calendar.allowedEntityTypes.contains(.reminders) ? "<C:comp name=\"VTODO\"/>" : "")
    case (Namespace.dav, "supported-report-set"):
      return ["<C:calendar-query/>", "<C:calendar-multiget/>", "<C:free-busy-query/>", "<D:sync-collection/>"].map {
        "<D:supported-report><D:report>\($0)</D:report></D:supported-report>"
      }.joined()
    case (Namespace.apple, "calendar-color"):
      // The client's own spelling of the colour, while it is still the calendar's colour.
      if let written = calendar.clientProperties[name.description], CalendarColor.canonical(written) == calendar.color {
        return XMLText.escaped(written)
      }
      return XMLText.escaped(calendar.color)
    case (Namespace.dav, "current-user-privilege-set"):
      let privileges =
        ["read", "read-current-user-privilege-set"]
        + (calendar.allowsContentModifications ? ["write", "write-content", "bind", "unbind"] : [])
      return privileges.map { "<D:privilege><D:\($0)/></D:privilege>" }.joined()
    case (Namespace.caldav, "max-resource-size"):
      return String(DAVMiddleware.maximumResource)
    default:
      return Self.liveProperties.contains(name) ? nil : calendar.clientProperties[name.description]
    }
  }

  private static func value(
    _ name: XMLName, of object: CalendarObject, _ expand: Expansion?, _ texts: ObjectTextCache?,
    positions: AppPositions
  ) -> String? {
    switch (name.namespace, name.local) {
    case (Namespace.dav, "getetag"):
      return XMLText.escaped("\"\(positions.tag(object.version))\"")
    case (Namespace.dav, "getcontenttype"):
      return "text/calendar; charset=utf-8; component=\(object.events.isEmpty ? "vtodo" : "vevent")"
    case (Namespace.caldav, "calendar-data"):
      guard let expand else { return texts?.escapedText(of: object) ?? XMLText.escaped(object.file.serialized()) }
      let (window, floating) = (expand.window, expand.floating)
      switch expand.kind {
      case .expand:
        return XMLText.escaped(
          object.file.serialized(expandingFrom: window.lowerBound, to: window.upperBound, floatingIn: floating))
      case .limitRecurrenceSet:
        let limited = object.file.limitingRecurrenceSets(
          from: window.lowerBound, to: window.upperBound, floatingIn: floating)
        return XMLText.escaped(limited.serialized())
      }
    default:
      return Self.liveProperties.contains(name) ? nil : object.clientProperties[name.description]
    }
  }
}
