import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

extension DAVMiddleware {
  /// The live properties of a calendar an app may set: its title and its colour. Any other property
  /// the server does not compute is a dead property, kept as the client wrote it
  /// (``EventCalendar/clientProperties``).
  static let settable: Set<XMLName> = [.dav("displayname"), XMLName(Namespace.apple, "calendar-color")]

  /// MKCALENDAR (RFC 4791 §5.3.1): a new calendar at `/dav/calendars/UUID/`, or at a name of the
  /// client's own (`name`, kept in the calendar as its resource name), its title, colour and
  /// kind of items (`supported-calendar-component-set`: VEVENT, VTODO or both; without it, both when
  /// the app holds full access to reminders too, else events) from the body, any
  /// other property kept as a dead property (`calendar-description`, `calendar-timezone`). The
  /// app needs full access to the service of what it will hold; an app given chosen calendars
  /// cannot make one (the person makes it and gives it). A property the server cannot set (a
  /// protected one, or a value it cannot hold) fails the whole request with `403` and a `propstat`
  /// naming it; nothing is written.
  ///
  /// Extended MKCOL (RFC 5689, as DAVx⁵ makes calendars) is answered alike when its body sets a
  /// `resourcetype` of a calendar; any other collection here (a plain one, an address book: those
  /// are made under `/dav/addressbooks/`) is refused with `403 DAV:valid-resourcetype`.
  func mkcalendar(
    _ request: Request, _ path: DAVPath, _ context: ServerContext, name: String? = nil
  ) async throws -> Response {
    let isMKCOL = request.method.rawValue == "MKCOL"
    guard case .calendar(let id) = path else {
      if isMKCOL, path == .addressBookHome {
        throw DAVError(
          .forbidden, .dav("valid-resourcetype"), "a new address book is made at \(DAVPath.addressBookHomePath)NAME/")
      }
      throw DAVError(
        .forbidden, nil, "a new calendar is made at \(DAVPath.calendarHomePath)NAME/")
    }
    let body = try await Self.body(request)
    let properties = try Self.creationProperties(
      body, root: isMKCOL ? .dav("mkcol") : .caldav("mkcalendar"), method: request.method.rawValue,
      type: isMKCOL ? (.caldav("calendar"), "calendar") : nil)
    var calendar = EventCalendar(title: name ?? "Calendar")
    calendar.id = id
    calendar.resourceName = name
    var refused: [XMLName] = []
    var componentsGiven = false
    for property in properties {
      switch property.name {
      case .caldav("supported-calendar-component-set"):
        componentsGiven = true
        let names = Set(property.children(.caldav("comp")).compactMap { $0.attributes["name"]?.uppercased() })
        var types: EntityTypes = []
        if names.contains("VEVENT") { types.insert(.events) }
        if names.contains("VTODO") { types.insert(.reminders) }
        if types.isEmpty || !names.subtracting(["VEVENT", "VTODO"]).isEmpty {
          refused.append(property.name)
        } else {
          calendar.allowedEntityTypes = types
        }
      default:
        if !Self.set(property, on: &calendar) { refused.append(property.name) }
      }
    }
    if !refused.isEmpty {
      return Self.creationRefused(
        properties, refused: refused, response: isMKCOL ? "D:mkcol-response" : "C:mkcalendar-response")
    }
    let app = try await server.app(context)
    let service: Service = calendar.allowedEntityTypes.contains(.events) ? .calendars : .reminders
    let use = server.use(app, of: service, reading: false, firstUseAsks: true)
    let unrestricted = !componentsGiven
    let made = calendar
    try await server.withStore(use) {
      try Self.mapped {
        if try use.session.calendar(withID: id) != nil {
          throw DAVError(.methodNotAllowed, .dav("resource-must-be-null"), "a calendar is already at \(id)")
        }
        var calendar = made
        // Without a component set a calendar accepts every kind (RFC 4791 §5.2.3): events and
        // tasks when the app may write both, else events (asking for reminders access here would
        // prompt the person for what the program never asked).
        if unrestricted, try use.session.authorizationStatus(for: .reminders) == .fullAccess {
          calendar.allowedEntityTypes = [.events, .reminders]
        }
        _ = try use.session.save(calendar)
      }
    }
    return Response(status: .created, headers: [.contentLength: "0"])
  }

  /// PROPPATCH (RFC 4918 §9.2) of a calendar's title (`displayname`), colour (`calendar-color`)
  /// and dead properties (set and removed): all or nothing, in one save. A protected property, a
  /// value the calendar cannot hold, or the removal of its title or colour is refused (`403`) and
  /// the others then fail with `424`.
  func proppatchCalendar(_ id: ObjectID, _ request: Request, _ context: ServerContext) async throws -> Response {
    let updates = try await Self.propertyUpdates(request)
    let (original, use) = try await self.calendar(id, context, reading: false)
    let session = use.session
    return try await proppatchCollection(
      updates, at: DAVPath.calendar(id), of: original, use, set: { Self.set($0, on: &$1) },
      remove: { Self.remove($0, from: &$1.clientProperties) }, save: { _ = try session.save($0) })
  }

  /// DELETE of a calendar: removed with everything it holds, in one fact of the log.
  func deleteCalendar(_ id: ObjectID, _ context: ServerContext) async throws -> Response {
    let (calendar, use) = try await self.calendar(id, context, reading: false)
    try await server.withStore(use) { try Self.mapped { try use.session.remove(calendar) } }
    return Response(status: .noContent)
  }

  /// Sets `property` on `calendar`: its title, its colour, or a dead property; `false` when it is a
  /// protected property or a value the calendar cannot hold (an empty title, a colour that is not
  /// `#RRGGBB`, `#RRGGBBAA` or a basic CSS colour name, too many or too large dead properties).
  static func set(_ property: XMLElement, on calendar: inout EventCalendar) -> Bool {
    let name = property.name
    let value = property.text.trimmingCharacters(in: .whitespacesAndNewlines)
    switch name {
    case .dav("displayname"):
      guard !value.isEmpty else { return false }
      calendar.title = value
    case XMLName(Namespace.apple, "calendar-color"):
      guard let color = CalendarColor.canonical(value) else { return false }
      calendar.color = color
      // The client's own spelling (`#FF0000FF`, `blue`) is served back while the colour is this.
      calendar.clientProperties[name.description] = value == color ? nil : value
    default:
      return setDead(property, in: &calendar.clientProperties)
    }
    return true
  }

  /// Sets the dead property `property` in a collection's `properties`; `false` when it is a live
  /// (protected) property or the result holds more, or more bytes, than a collection keeps.
  static func setDead(_ property: XMLElement, in properties: inout [String: String]) -> Bool {
    guard !DAVResource.liveProperties.contains(property.name) else { return false }
    properties[property.name.description] = property.content
    return properties.count <= EventCalendar.maximumClientProperties
      && EventCalendar.clientPropertyBytes(properties) <= EventCalendar.maximumClientPropertyBytes
  }

  /// Removes the dead property `name` from a resource's `properties` (removing one it does not
  /// have succeeds, RFC 4918 §14.23); `false` for a live property.
  static func remove(_ name: XMLName, from properties: inout [String: String]) -> Bool {
    guard !DAVResource.liveProperties.contains(name) else { return false }
    properties[name.description] = nil
    return true
  }
}
