import Kalends

/// The kind of object a `history` or `restore` command addresses: `kalends event history` and
/// `kalends contact restore` are one command each, made for a kind.
protocol HistoryKind {
  static var kind: ErasableItem.Kind { get }
}

enum CalendarHistoryKind: HistoryKind { static var kind: ErasableItem.Kind { .calendar } }
enum EventHistoryKind: HistoryKind { static var kind: ErasableItem.Kind { .event } }
enum ReminderHistoryKind: HistoryKind { static var kind: ErasableItem.Kind { .reminder } }
enum ContactHistoryKind: HistoryKind { static var kind: ErasableItem.Kind { .contact } }
enum GroupHistoryKind: HistoryKind { static var kind: ErasableItem.Kind { .group } }
