/// The fields of one record kind's payload: their tags, names and types.
///
/// Schemas let a reader (the CLI, the audit tools, a Python script with docs/log-format.md) show any
/// payload by name without kind-specific code. Fields are only ever added, with new tags; a reader
/// ignores tags it does not know and uses defaults for fields an old record lacks.
package struct RecordSchema: Sendable {
  /// The type of a field's value, which fixes its byte encoding.
  package enum FieldType: Sendable, Hashable {
    /// Unsigned, 8 bytes big-endian.
    case unsigned
    /// Signed two's complement, 8 bytes big-endian.
    case signed
    /// 1 byte, 0 or 1.
    case bool
    /// UTF-8 text.
    case string
    /// Opaque bytes.
    case bytes
    /// 16 bytes.
    case uuid
    /// Microseconds since the Unix epoch, signed, 8 bytes big-endian.
    case timestamp
    /// A wall-clock date and time: seconds since 1970-01-01T00:00:00 in no particular zone,
    /// signed, 8 bytes big-endian.
    case localDateTime
    /// A nested payload with these fields.
    case message([Field])
  }

  /// One field.
  package struct Field: Sendable, Hashable {
    /// Its tag in the payload (1–255).
    package let tag: UInt8
    /// Its name in JSON output.
    package let name: String
    /// Its value type.
    package let type: FieldType
    /// Whether a record of this kind must have it.
    package let required: Bool
  }

  /// The kind's name.
  package let name: String
  /// The kind's fields.
  package let fields: [Field]
  /// The top-level tags that hold an object's content (titles, notes, places, times, rules):
  /// written apart from the other fields in format version 3 so that they can be erased while the
  /// record's hash stays verifiable. Empty for kinds with nothing erasable (privacy records,
  /// removals).
  package var contentTags: [UInt8] = []

  /// The field with `tag`, if known.
  package func field(tag: UInt8) -> Field? { fields.first { $0.tag == tag } }

  static let storeCreated = RecordSchema(
    name: "storeCreated",
    fields: [
      Field(tag: 1, name: "storeId", type: .uuid, required: true),
      Field(tag: 2, name: "software", type: .string, required: false),
    ])

  static let annotationAdded = RecordSchema(
    name: "annotationAdded",
    fields: [Field(tag: 1, name: "text", type: .string, required: true)])

  static let contentErased = RecordSchema(
    name: "contentErased",
    fields: [
      Field(tag: 1, name: "objectType", type: .unsigned, required: true),
      Field(tag: 2, name: "id", type: .uuid, required: true),
      Field(tag: 3, name: "erasedPosition", type: .unsigned, required: true),
      Field(tag: 4, name: "reason", type: .string, required: false),
      Field(tag: 5, name: "indexVersion", type: .unsigned, required: false),
      Field(tag: 6, name: "indexHorizon", type: .signed, required: false),
      Field(tag: 7, name: "indexBound", type: .bytes, required: false),
      Field(tag: 8, name: "retentionPolicy", type: .unsigned, required: false),
      Field(tag: 9, name: "legacyErasure", type: .bytes, required: false),
      Field(tag: 10, name: "bindsLegacyErasures", type: .bool, required: false),
    ])

  static let retentionSet = RecordSchema(
    name: "retentionSet",
    fields: [Field(tag: 1, name: "removedAfter", type: .unsigned, required: true)])

  static let calendarState: [Field] = [
    Field(tag: 1, name: "title", type: .string, required: true),
    Field(tag: 2, name: "color", type: .string, required: false),
    Field(tag: 3, name: "sourceId", type: .uuid, required: true),
    Field(tag: 4, name: "sourceTitle", type: .string, required: false),
    Field(tag: 5, name: "sourceType", type: .unsigned, required: false),
    Field(tag: 6, name: "allowedEntityTypes", type: .unsigned, required: true),
    Field(tag: 7, name: "allowsContentModifications", type: .bool, required: true),
    Field(tag: 8, name: "importSource", type: .string, required: false),
    Field(tag: 9, name: "resourceName", type: .string, required: false),
    Field(tag: 10, name: "clientProperty", type: .message(clientProperty), required: false),
    Field(tag: 11, name: "resourceOwner", type: .string, required: false),
    Field(tag: 12, name: "subscription", type: .message(subscription), required: false),
    Field(tag: 13, name: "remote", type: .message(remoteCollection), required: false),
  ]

  /// The collection of an account's server a calendar mirrors, as its last completed sync left it.
  static let remoteCollection: [Field] = [
    Field(tag: 1, name: "url", type: .string, required: true),
    Field(tag: 2, name: "syncToken", type: .string, required: false),
    Field(tag: 3, name: "ctag", type: .string, required: false),
    Field(
      tag: 4, name: "quarantined",
      type: .message([
        Field(tag: 1, name: "name", type: .string, required: true),
        Field(tag: 2, name: "reason", type: .string, required: false),
      ]), required: false),
  ]

  /// An account's state.
  static let sourceState: [Field] = [
    Field(tag: 1, name: "title", type: .string, required: true),
    Field(tag: 2, name: "sourceType", type: .unsigned, required: true),
    Field(tag: 3, name: "principal", type: .string, required: true),
    Field(tag: 4, name: "user", type: .string, required: false),
    Field(tag: 5, name: "calendarHome", type: .string, required: false),
    Field(tag: 6, name: "addressBookHome", type: .string, required: false),
  ]

  static let sourceSaved = RecordSchema(
    name: "sourceSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(tag: 3, name: "change", type: .unsigned, required: true),
      Field(tag: 5, name: "state", type: .message(sourceState), required: true),
    ])

  /// The feed a subscribed calendar mirrors, as its last refresh that changed it saw it.
  static let subscription: [Field] = [
    Field(tag: 1, name: "url", type: .string, required: true),
    Field(tag: 2, name: "entityTag", type: .string, required: false),
    Field(tag: 3, name: "lastModified", type: .string, required: false),
    Field(tag: 4, name: "digest", type: .bytes, required: false),
    Field(tag: 5, name: "refreshInterval", type: .unsigned, required: false),
  ]

  /// A WebDAV dead property a client stored on a calendar, an item's resource or a card.
  static let clientProperty: [Field] = [
    Field(tag: 1, name: "name", type: .string, required: true),
    Field(tag: 2, name: "value", type: .string, required: false),
  ]

  static let calendarSaved = RecordSchema(
    name: "calendarSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(tag: 3, name: "change", type: .unsigned, required: true),
      Field(tag: 5, name: "state", type: .message(calendarState), required: true),
      Field(tag: 8, name: "restoredFrom", type: .unsigned, required: false),
    ], contentTags: [5])

  static let calendarRemoved = RecordSchema(
    name: "calendarRemoved", fields: [Field(tag: 1, name: "id", type: .uuid, required: true)])

  /// The fields an event and a detached occurrence share.
  static let occurrenceState: [Field] = [
    Field(tag: 2, name: "title", type: .string, required: false),
    Field(tag: 3, name: "start", type: .localDateTime, required: true),
    Field(tag: 4, name: "end", type: .localDateTime, required: true),
    Field(tag: 5, name: "allDay", type: .bool, required: false),
    Field(tag: 6, name: "timeZone", type: .string, required: false),
    Field(tag: 7, name: "location", type: .string, required: false),
    Field(tag: 8, name: "notes", type: .string, required: false),
    Field(tag: 9, name: "url", type: .string, required: false),
    Field(tag: 10, name: "availability", type: .unsigned, required: false),
    Field(tag: 11, name: "status", type: .unsigned, required: false),
    Field(tag: 12, name: "alarm", type: .signed, required: false),
    Field(tag: 19, name: "sequence", type: .unsigned, required: false),
    Field(tag: 20, name: "property", type: .string, required: false),
    Field(tag: 21, name: "category", type: .string, required: false),
    Field(tag: 25, name: "alarmProperties", type: .message(alarmProperties), required: false),
  ]

  /// What an alarm keeps of its `VALARM`: which alarm, and its lines.
  static let alarmProperties: [Field] = [
    Field(tag: 1, name: "index", type: .unsigned, required: true),
    Field(tag: 2, name: "property", type: .string, required: false),
  ]

  static let eventState: [Field] =
    [Field(tag: 1, name: "externalId", type: .string, required: true)] + occurrenceState + [
      Field(tag: 13, name: "recurrenceRule", type: .string, required: false),
      Field(tag: 14, name: "exceptionDate", type: .localDateTime, required: false),
      Field(tag: 15, name: "recurrenceDate", type: .localDateTime, required: false),
      Field(
        tag: 16, name: "detachedOccurrence",
        type: .message(
          [Field(tag: 17, name: "occurrenceDate", type: .localDateTime, required: true)] + occurrenceState),
        required: false),
      Field(tag: 18, name: "created", type: .timestamp, required: false),
      Field(tag: 24, name: "clientProperty", type: .message(clientProperty), required: false),
      Field(tag: 26, name: "remoteEntityTag", type: .string, required: false),
    ]

  static let eventSaved = RecordSchema(
    name: "eventSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(tag: 2, name: "calendarId", type: .uuid, required: true),
      Field(tag: 3, name: "change", type: .unsigned, required: true),
      Field(tag: 4, name: "occurrenceDate", type: .localDateTime, required: false),
      Field(tag: 5, name: "state", type: .message(eventState), required: true),
      Field(tag: 6, name: "splitFrom", type: .uuid, required: false),
      Field(tag: 7, name: "movedFrom", type: .uuid, required: false),
      Field(tag: 8, name: "restoredFrom", type: .unsigned, required: false),
    ], contentTags: [4, 5])

  static let reminderState: [Field] = [
    Field(tag: 1, name: "externalId", type: .string, required: true),
    Field(tag: 2, name: "title", type: .string, required: false),
    Field(tag: 3, name: "notes", type: .string, required: false),
    Field(tag: 4, name: "due", type: .localDateTime, required: false),
    Field(tag: 5, name: "dueDateOnly", type: .bool, required: false),
    Field(tag: 6, name: "timeZone", type: .string, required: false),
    Field(tag: 7, name: "priority", type: .unsigned, required: false),
    Field(tag: 8, name: "completed", type: .timestamp, required: false),
    Field(tag: 9, name: "recurrenceRule", type: .string, required: false),
    Field(tag: 10, name: "alarm", type: .signed, required: false),
    Field(tag: 18, name: "created", type: .timestamp, required: false),
    Field(tag: 19, name: "sequence", type: .unsigned, required: false),
    Field(tag: 20, name: "property", type: .string, required: false),
    Field(tag: 24, name: "clientProperty", type: .message(clientProperty), required: false),
    Field(tag: 25, name: "alarmProperties", type: .message(alarmProperties), required: false),
    Field(tag: 26, name: "remoteEntityTag", type: .string, required: false),
  ]

  static let reminderSaved = RecordSchema(
    name: "reminderSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(tag: 2, name: "calendarId", type: .uuid, required: true),
      Field(tag: 3, name: "change", type: .unsigned, required: true),
      Field(tag: 5, name: "state", type: .message(reminderState), required: true),
      Field(tag: 7, name: "movedFrom", type: .uuid, required: false),
      Field(tag: 8, name: "restoredFrom", type: .unsigned, required: false),
    ], contentTags: [5])

  static let labeledValue: [Field] = [
    Field(tag: 1, name: "label", type: .string, required: false),
    Field(tag: 2, name: "value", type: .string, required: true),
  ]

  static let contactState: [Field] = [
    Field(tag: 1, name: "externalId", type: .string, required: true),
    Field(tag: 2, name: "contactType", type: .unsigned, required: false),
    Field(tag: 3, name: "namePrefix", type: .string, required: false),
    Field(tag: 4, name: "givenName", type: .string, required: false),
    Field(tag: 5, name: "middleName", type: .string, required: false),
    Field(tag: 6, name: "familyName", type: .string, required: false),
    Field(tag: 7, name: "nameSuffix", type: .string, required: false),
    Field(tag: 8, name: "nickname", type: .string, required: false),
    Field(tag: 9, name: "phoneticGivenName", type: .string, required: false),
    Field(tag: 10, name: "phoneticMiddleName", type: .string, required: false),
    Field(tag: 11, name: "phoneticFamilyName", type: .string, required: false),
    Field(tag: 12, name: "organizationName", type: .string, required: false),
    Field(tag: 13, name: "departmentName", type: .string, required: false),
    Field(tag: 14, name: "jobTitle", type: .string, required: false),
    Field(tag: 15, name: "note", type: .string, required: false),
    Field(tag: 20, name: "email", type: .message(labeledValue), required: false),
    Field(tag: 21, name: "phone", type: .message(labeledValue), required: false),
    Field(tag: 22, name: "postalAddress", type: .message(labeledValue), required: false),
    Field(tag: 23, name: "url", type: .message(labeledValue), required: false),
    Field(tag: 24, name: "birthday", type: .message(contactDate), required: false),
    Field(tag: 25, name: "groupId", type: .uuid, required: false),
    Field(tag: 26, name: "property", type: .string, required: false),
    Field(tag: 27, name: "created", type: .timestamp, required: false),
    Field(tag: 30, name: "clientProperty", type: .message(clientProperty), required: false),
    Field(tag: 31, name: "containerId", type: .uuid, required: false),
    Field(tag: 32, name: "anniversary", type: .message(contactDate), required: false),
  ]

  /// A contact's date (birthday, anniversary): its year when known, month and day.
  static let contactDate: [Field] = [
    Field(tag: 1, name: "year", type: .unsigned, required: false),
    Field(tag: 2, name: "month", type: .unsigned, required: true),
    Field(tag: 3, name: "day", type: .unsigned, required: true),
  ]

  static let contactSaved = RecordSchema(
    name: "contactSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(tag: 3, name: "change", type: .unsigned, required: true),
      Field(tag: 5, name: "state", type: .message(contactState), required: true),
      Field(tag: 8, name: "restoredFrom", type: .unsigned, required: false),
      Field(tag: 9, name: "remoteEntityTag", type: .string, required: false),
    ], contentTags: [5])

  static let groupSaved = RecordSchema(
    name: "groupSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(tag: 3, name: "change", type: .unsigned, required: true),
      Field(
        tag: 5, name: "state",
        type: .message([
          Field(tag: 1, name: "externalId", type: .string, required: true),
          Field(tag: 2, name: "name", type: .string, required: true),
          Field(tag: 27, name: "created", type: .timestamp, required: false),
          Field(tag: 31, name: "containerId", type: .uuid, required: false),
        ]), required: true),
      Field(tag: 8, name: "restoredFrom", type: .unsigned, required: false),
      Field(tag: 9, name: "remoteEntityTag", type: .string, required: false),
    ], contentTags: [5])

  static let addressBookSaved = RecordSchema(
    name: "addressBookSaved",
    fields: [
      Field(tag: 1, name: "id", type: .uuid, required: true),
      Field(
        tag: 5, name: "state",
        type: .message([
          Field(tag: 1, name: "title", type: .string, required: false),
          Field(tag: 2, name: "resourceName", type: .string, required: false),
          Field(tag: 3, name: "creator", type: .string, required: false),
          Field(tag: 10, name: "clientProperty", type: .message(clientProperty), required: false),
          Field(tag: 11, name: "accountId", type: .uuid, required: false),
          Field(tag: 13, name: "remote", type: .message(remoteCollection), required: false),
          Field(tag: 14, name: "readOnly", type: .bool, required: false),
          Field(tag: 27, name: "created", type: .timestamp, required: false),
        ]),
        required: true),
    ], contentTags: [5])

  static let itemRemoved: [Field] = [
    Field(tag: 1, name: "id", type: .uuid, required: true),
    Field(tag: 2, name: "calendarId", type: .uuid, required: true),
  ]

  /// Every kind this version knows.
  static let clientRegistered = RecordSchema(
    name: "clientRegistered",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "name", type: .string, required: true),
      Field(tag: 3, name: "calendarsFullUsage", type: .string, required: false),
      Field(tag: 4, name: "calendarsWriteOnlyUsage", type: .string, required: false),
      Field(tag: 5, name: "remindersFullUsage", type: .string, required: false),
      Field(tag: 6, name: "contactsUsage", type: .string, required: false),
      Field(tag: 7, name: "executable", type: .string, required: false),
      Field(tag: 8, name: "executableSha256", type: .bytes, required: false),
      Field(tag: 9, name: "flatpakApp", type: .string, required: false),
      Field(tag: 10, name: "sdk", type: .unsigned, required: false),
      Field(tag: 11, name: "calendarsUsage", type: .string, required: false),
      Field(tag: 12, name: "remindersUsage", type: .string, required: false),
    ])

  static let callerUnidentified = RecordSchema(
    name: "callerUnidentified",
    fields: [
      Field(tag: 1, name: "uid", type: .unsigned, required: false),
      Field(tag: 2, name: "gid", type: .unsigned, required: false),
      Field(tag: 3, name: "pid", type: .unsigned, required: false),
      Field(tag: 4, name: "executable", type: .string, required: false),
      Field(tag: 5, name: "executableSha256", type: .bytes, required: false),
      Field(tag: 6, name: "flatpakApp", type: .string, required: false),
      Field(tag: 7, name: "count", type: .unsigned, required: false),
      Field(tag: 8, name: "minute", type: .signed, required: false),
      Field(tag: 9, name: "address", type: .string, required: false),
      Field(tag: 10, name: "tokenId", type: .string, required: false),
    ])

  static let clientTokenCreated = RecordSchema(
    name: "clientTokenCreated",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "tokenId", type: .string, required: true),
      Field(tag: 3, name: "tokenSha256", type: .bytes, required: true),
      Field(tag: 4, name: "label", type: .string, required: false),
    ])

  static let clientTokenRevoked = RecordSchema(
    name: "clientTokenRevoked",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "tokenId", type: .string, required: true),
    ])

  static let accessRequested = RecordSchema(
    name: "accessRequested",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "service", type: .unsigned, required: true),
      Field(tag: 3, name: "level", type: .unsigned, required: true),
      Field(tag: 4, name: "status", type: .unsigned, required: true),
      Field(tag: 5, name: "prompted", type: .bool, required: true),
      Field(tag: 6, name: "promptTimeout", type: .bool, required: false),
      Field(tag: 7, name: "implicit", type: .bool, required: false),
      Field(tag: 8, name: "count", type: .unsigned, required: false),
      Field(tag: 9, name: "minute", type: .signed, required: false),
    ])

  static let accessDecided = RecordSchema(
    name: "accessDecided",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "service", type: .unsigned, required: true),
      Field(tag: 3, name: "status", type: .unsigned, required: true),
      Field(tag: 4, name: "previousStatus", type: .unsigned, required: true),
      Field(tag: 5, name: "reason", type: .unsigned, required: true),
      Field(tag: 6, name: "lift", type: .bool, required: false),
    ])

  static let accessAttemptRefused = RecordSchema(
    name: "accessAttemptRefused",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "service", type: .unsigned, required: true),
      Field(tag: 3, name: "status", type: .unsigned, required: true),
      Field(tag: 4, name: "operation", type: .string, required: true),
      Field(tag: 5, name: "count", type: .unsigned, required: true),
      Field(tag: 6, name: "minute", type: .signed, required: true),
    ])

  static let ownerActionRefused = RecordSchema(
    name: "ownerActionRefused",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 4, name: "operation", type: .string, required: true),
      Field(tag: 5, name: "count", type: .unsigned, required: false),
      Field(tag: 6, name: "minute", type: .signed, required: false),
    ])

  static let accessScopeChanged = RecordSchema(
    name: "accessScopeChanged",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "service", type: .unsigned, required: true),
      Field(tag: 3, name: "added", type: .uuid, required: false),
      Field(tag: 4, name: "removed", type: .uuid, required: false),
      Field(tag: 5, name: "scoped", type: .bool, required: false),
    ])

  static let dataRead = RecordSchema(
    name: "dataRead",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "service", type: .unsigned, required: true),
      Field(tag: 3, name: "status", type: .unsigned, required: true),
      Field(tag: 4, name: "operation", type: .string, required: true),
      Field(tag: 5, name: "count", type: .unsigned, required: true),
      Field(tag: 6, name: "minute", type: .signed, required: true),
      Field(tag: 7, name: "objects", type: .uuid, required: false),
      Field(tag: 8, name: "decision", type: .unsigned, required: false),
    ])

  static let contactPicked = RecordSchema(
    name: "contactPicked",
    fields: [
      Field(tag: 1, name: "client", type: .string, required: true),
      Field(tag: 2, name: "contactId", type: .uuid, required: true),
    ])

  static let all: [RecordKind: RecordSchema] = [
    .storeCreated: storeCreated,
    .annotationAdded: annotationAdded,
    .contentErased: contentErased,
    .retentionSet: retentionSet,
    .calendarSaved: calendarSaved,
    .calendarRemoved: calendarRemoved,
    .eventSaved: eventSaved,
    .eventRemoved: RecordSchema(name: "eventRemoved", fields: itemRemoved),
    .reminderSaved: reminderSaved,
    .reminderRemoved: RecordSchema(name: "reminderRemoved", fields: itemRemoved),
    .contactSaved: contactSaved,
    .contactRemoved: RecordSchema(
      name: "contactRemoved", fields: [Field(tag: 1, name: "id", type: .uuid, required: true)]),
    .groupSaved: groupSaved,
    .addressBookSaved: addressBookSaved,
    .addressBookRemoved: RecordSchema(
      name: "addressBookRemoved", fields: [Field(tag: 1, name: "id", type: .uuid, required: true)]),
    .groupRemoved: RecordSchema(name: "groupRemoved", fields: [Field(tag: 1, name: "id", type: .uuid, required: true)]),
    .sourceSaved: sourceSaved,
    .sourceRemoved: RecordSchema(
      name: "sourceRemoved", fields: [Field(tag: 1, name: "id", type: .uuid, required: true)]),
    .remoteDelivered: RecordSchema(
      name: "remoteDelivered",
      fields: [
        Field(tag: 1, name: "calendar", type: .uuid, required: true),
        Field(tag: 2, name: "name", type: .string, required: true),
        Field(tag: 3, name: "entityTag", type: .string, required: false),
        Field(tag: 4, name: "carries", type: .unsigned, required: true),
        Field(tag: 5, name: "event", type: .uuid, required: false),
        Field(tag: 6, name: "reminder", type: .uuid, required: false),
        Field(tag: 7, name: "contact", type: .uuid, required: false),
        Field(tag: 8, name: "group", type: .uuid, required: false),
      ]),
    .remoteConflict: RecordSchema(
      name: "remoteConflict",
      fields: [
        Field(tag: 1, name: "calendar", type: .uuid, required: true),
        Field(tag: 2, name: "name", type: .string, required: true),
        Field(tag: 3, name: "localVersion", type: .unsigned, required: true),
        Field(tag: 4, name: "baseEntityTag", type: .string, required: false),
        Field(tag: 5, name: "serverEntityTag", type: .string, required: false),
      ]),
    .pushRegistered: RecordSchema(
      name: "pushRegistered",
      fields: [
        Field(tag: 1, name: "id", type: .uuid, required: true),
        Field(tag: 2, name: "client", type: .string, required: true),
        Field(tag: 3, name: "service", type: .unsigned, required: true),
        Field(tag: 4, name: "collection", type: .uuid, required: true),
        Field(tag: 5, name: "expires", type: .timestamp, required: true),
        Field(tag: 6, name: "host", type: .string, required: true),
        Field(tag: 7, name: "subscription", type: .bytes, required: true),
        Field(tag: 8, name: "tokenId", type: .string, required: false),
        Field(tag: 9, name: "triggers", type: .unsigned, required: false),
      ]),
    .pushUnregistered: RecordSchema(
      name: "pushUnregistered",
      fields: [
        Field(tag: 1, name: "id", type: .uuid, required: true),
        Field(tag: 2, name: "reason", type: .unsigned, required: true),
      ]),
    .clientRegistered: clientRegistered,
    .accessRequested: accessRequested,
    .accessDecided: accessDecided,
    .accessAttemptRefused: accessAttemptRefused,
    .ownerActionRefused: ownerActionRefused,
    .callerUnidentified: callerUnidentified,
    .clientTokenCreated: clientTokenCreated,
    .clientTokenRevoked: clientTokenRevoked,
    .accessScopeChanged: accessScopeChanged,
    .contactPicked: contactPicked,
    .dataRead: dataRead,
  ]
}
