extension Event {
  /// The zone its times are kept in; `nil` for an all-day or floating event, whose times a
  /// viewer places in its own zone.
  package var timeZoneRules: ZoneRules? { isAllDay ? nil : timeZone.flatMap { try? ZoneRules.named($0) } }
}
