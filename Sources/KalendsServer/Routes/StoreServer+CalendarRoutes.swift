import Foundation
import Hummingbird
import Kalends
import KalendsFormats

extension StoreServer {
  /// The routes of calendars and reminder lists (docs/server.md), as EKCalendar allows an app:
  /// list those of a service it may see, and — with full access to each service a calendar holds,
  /// within the calendars it was given — create, rename, recolour and remove them, with versions as
  /// entity tags. The store checks each against the stored calendar, and records each refusal.
  func addCalendarRoutes(to router: Router<ServerContext>) {
    router.get("v1/calendars") { request, context in
      let types = try Self.calendarTypes(request)
      let service: Service = types == .reminders ? .reminders : .calendars
      let use = try await self.app(context, using: service, reading: service == .reminders)
      let calendars = try await self.withStore(use) { try use.session.calendars(for: types) }
      return Self.json(.array(calendars.map { .object(use.positions.sealing($0.jsonFields, version: $0.version)) }))
    }
    router.get("v1/sources") { _, context in
      // The sources of the calendars the app may see of the services it holds access to (asking
      // for no other: that would be a refused attempt); the local one always.
      let session = try await self.app(context).1
      let calendars = try await self.withStore { () throws -> [EventCalendar] in
        var types: EntityTypes = []
        for (service, type) in [(Service.calendars, EntityTypes.events), (.reminders, .reminders)] {
          let status = try session.authorizationStatus(for: service)
          if status == .fullAccess || status == .writeOnly { types.insert(type) }
        }
        return types.isEmpty ? [] : try session.calendars(for: types)
      }
      var sources = [CalendarSource.local]
      for calendar in calendars where !sources.contains(calendar.source) { sources.append(calendar.source) }
      return Self.json(
        .array(
          sources.map { source in
            .object([
              ("id", .string(source.id.description)), ("title", .string(source.title)),
              ("kind", .string(String(describing: source.kind))),
            ])
          }))
    }
    router.post("v1/calendars") { request, context in
      let body = try await Self.body(request)
      let edit = try CalendarEdit(json: body)
      let types = edit.types ?? .events
      let use = try await self.app(context, using: types.contains(.events) ? .calendars : .reminders, reading: false)
      guard let title = edit.title else { throw RequestError.invalidInput("a new calendar needs a title") }
      let saved = try await self.withStore(use) {
        try use.session.save(
          EventCalendar(title: title, color: edit.color ?? "#1BADF8", allowedEntityTypes: types))
      }
      return Self.versioned(saved.jsonFields, saved.version, status: .created, use.positions)
    }
    router.patch("v1/calendars/:id") { request, context in
      let use = try await self.app(context, using: .calendars, reading: false)
      let id = try Self.eventID(context)
      let edit = try CalendarEdit(json: try await Self.body(request))
      let expected = try Self.expectedVersion(request)
      let saved = try await self.withStore(use) { () throws -> EventCalendar in
        var calendar = try Self.existingCalendar(id, in: use.session)
        try expected?.require(calendar.version, use.positions, of: "calendar \(id)")
        if let types = edit.types, types != calendar.allowedEntityTypes {
          throw StoreError.calendar(.entityTypesCannotChange(id))
        }
        if let title = edit.title { calendar.title = title }
        if let color = edit.color { calendar.color = color }
        return try use.session.save(calendar)
      }
      return Self.versioned(saved.jsonFields, saved.version, status: .ok, use.positions)
    }
    router.delete("v1/calendars/:id") { request, context in
      let use = try await self.app(context, using: .calendars, reading: false)
      let id = try Self.eventID(context)
      let expected = try Self.expectedVersion(request)
      try await self.withStore(use) {
        let calendar = try Self.existingCalendar(id, in: use.session)
        try expected?.require(calendar.version, use.positions, of: "calendar \(id)")
        try use.session.remove(calendar)
      }
      return Response(status: .noContent)
    }
  }

  /// The entity types `GET /v1/calendars` lists: `for=events` (the default) or `for=reminders`.
  static func calendarTypes(_ request: Request) throws -> EntityTypes {
    switch request.uri.queryParameters["for"].map(String.init) {
    case nil, "events": .events
    case "reminders": .reminders
    case let other?: throw RequestError.invalidInput("for is events or reminders, not \"\(other)\"")
    }
  }

  /// The live calendar `id` as the session sees it, or a not-found error.
  static func existingCalendar(_ id: ObjectID, in session: EventStore) throws -> EventCalendar {
    guard let calendar = try session.calendar(withID: id) else { throw StoreError.calendar(.calendarNotFound(id)) }
    return calendar
  }

  /// What a calendar's JSON body says: `title`, `color` (`#RRGGBB`) and, for a new calendar,
  /// `allowedEntityTypes` (`["events"]` by default; a change must leave them as they are). The
  /// read-only fields of a fetched calendar (`id`, `allowsContentModifications`, `source`,
  /// `version`) are taken and ignored.
  struct CalendarEdit {
    var title: String?
    var color: String?
    var types: EntityTypes?

    init(json body: [String: Any]) throws(RequestError) {
      let known: Set<String> = ["title", "color", "allowedEntityTypes"]
      let readOnly: Set<String> = ["id", "allowsContentModifications", "source", "version"]
      if let unknown = body.keys.sorted().first(where: { !known.contains($0) && !readOnly.contains($0) }) {
        throw RequestError.invalidInput("unknown field \"\(unknown)\"")
      }
      switch body["title"] {
      case nil: title = nil
      case let text as String: title = text
      default: throw RequestError.invalidInput("title must be text")
      }
      switch body["color"] {
      case nil: color = nil
      case let text as String: color = try CalendarColor.parse(text, option: "color")
      default: throw RequestError.invalidInput("color must be text such as #1BADF8")
      }
      switch body["allowedEntityTypes"] {
      case nil: types = nil
      case let names as [String] where !names.isEmpty:
        var types: EntityTypes = []
        for name in names {
          switch name {
          case "events": types.insert(.events)
          case "reminders": types.insert(.reminders)
          default: throw RequestError.invalidInput("allowedEntityTypes holds events and reminders, not \"\(name)\"")
          }
        }
        self.types = types
      default: throw RequestError.invalidInput("allowedEntityTypes is a non-empty array of events and reminders")
      }
    }
  }
}
