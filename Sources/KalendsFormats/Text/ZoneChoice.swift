package import Kalends

/// What a person's `--tz` says about the times they type: nothing (``unspecified``), that they are
/// floating (`--tz floating`, or `--tz ''` where a value clears), or that they are in a named zone.
///
/// The command line reads a wall-clock time without `--tz` in the item's own zone; an item with
/// no time of day yet (a new one, an all-day event, a date-only reminder) takes the person's zone,
/// ``LocalZone/current``, as Calendar and Reminders do. Only `--tz floating` makes a floating time.
package enum ZoneChoice: Hashable {
  case unspecified
  case floating
  case named(ZoneRules)

  /// Reads `text` given to `option`; `nil` is ``unspecified``.
  package init(_ text: String?, option: String = "--tz") throws(RequestError) {
    switch text {
    case nil: self = .unspecified
    case "", "floating": self = .floating
    case let name?:
      do {
        self = .named(try ZoneRules.named(name))
      } catch {
        throw .invalidInput("\(option): \(error) — or write floating")
      }
    }
  }

  /// The zone named, if one was.
  package var named: ZoneRules? {
    if case .named(let zone) = self { return zone }
    return nil
  }

  /// The zone a new item's wall-clock times are in: the one named, none when floating, else the
  /// person's.
  package var forNewItem: ZoneRules? {
    switch self {
    case .unspecified: LocalZone.current
    case .floating: nil
    case .named(let zone): zone
    }
  }
}
