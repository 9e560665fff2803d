/// The payload encodings of calendars, events and reminders: their full state, as stored in the
/// log's save records and in the object projection (field tags: docs/log-format.md).
enum ModelCodec {
  // MARK: Calendars

  static func encode(_ calendar: EventCalendar) -> Payload {
    var state = Payload()
    state.append(tag: 1, string: calendar.title)
    state.append(tag: 2, string: calendar.color)
    state.append(tag: 3, id: calendar.source.id)
    state.append(tag: 4, string: calendar.source.title)
    state.append(tag: 5, unsigned: UInt64(calendar.source.kind.rawValue))
    state.append(tag: 6, unsigned: UInt64(calendar.allowedEntityTypes.rawValue))
    state.append(tag: 7, bool: calendar.allowsContentModifications)
    if let source = calendar.importSource { state.append(tag: 8, string: source) }
    if let name = calendar.resourceName { state.append(tag: 9, string: name) }
    appendClientProperties(calendar.clientProperties, tag: 10, to: &state)
    if let owner = calendar.resourceOwner { state.append(tag: 11, string: owner) }
    if let subscription = calendar.subscription {
      var feed = Payload()
      feed.append(tag: 1, string: subscription.url)
      if let tag = subscription.entityTag { feed.append(tag: 2, string: tag) }
      if let date = subscription.lastModified { feed.append(tag: 3, string: date) }
      if let digest = subscription.digest { feed.append(tag: 4, bytes: digest) }
      if let interval = subscription.refreshInterval { feed.append(tag: 5, unsigned: UInt64(interval)) }
      state.append(tag: 12, message: feed)
    }
    calendar.remote?.append(to: &state)
    return state
  }

  static func decodeCalendar(id: ObjectID, version: LogPosition, _ state: PayloadReader) throws(StoreError)
    -> EventCalendar
  {
    var calendar = EventCalendar(id: id, title: try state.requiredString(1))
    calendar.version = version
    calendar.color = try state.string(2) ?? calendar.color
    let kind = CalendarSource.Kind(rawValue: UInt8(truncatingIfNeeded: try state.unsigned(5) ?? 0)) ?? .local
    calendar.source = CalendarSource(
      id: try state.requiredObjectID(3), title: try state.string(4) ?? "", kind: kind)
    calendar.allowedEntityTypes = EntityTypes(rawValue: UInt8(truncatingIfNeeded: try state.unsigned(6) ?? 1))
    calendar.allowsContentModifications = try state.bool(7) ?? true
    calendar.importSource = try state.string(8)
    calendar.resourceName = try state.string(9)
    calendar.clientProperties = try clientProperties(tag: 10, of: state)
    calendar.resourceOwner = try state.string(11)
    if let feed = try state.messages(12).first {
      var subscription = CalendarSubscription(url: try feed.requiredString(1))
      subscription.entityTag = try feed.string(2)
      subscription.lastModified = try feed.string(3)
      subscription.digest = feed.bytes(4)
      subscription.refreshInterval = try feed.unsigned(5).map { Int64(clamping: $0) }
      calendar.subscription = subscription
    }
    calendar.remote = try state.messages(13).first.map { remote throws(StoreError) in try RemoteCollection(remote) }
    return calendar
  }

  // MARK: Dead properties

  /// Appends WebDAV dead properties (a calendar's, an item's, a card's) as repeated messages of
  /// `tag`, by name: 1 `name`, 2 `value`.
  static func appendClientProperties(_ properties: [String: String], tag: UInt8, to state: inout Payload) {
    for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
      var property = Payload()
      property.append(tag: 1, string: name)
      property.append(tag: 2, string: value)
      state.append(tag: tag, message: property)
    }
  }

  /// The dead properties ``appendClientProperties(_:tag:to:)`` stored at `tag`.
  static func clientProperties(tag: UInt8, of state: PayloadReader) throws(StoreError) -> [String: String] {
    var properties: [String: String] = [:]
    for property in try state.messages(tag) {
      properties[try property.requiredString(1)] = try property.string(2) ?? ""
    }
    return properties
  }
}
