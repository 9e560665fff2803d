/// The colours a client may give a calendar (Apple's `calendar-color`): `#RRGGBB`, `#RRGGBBAA`
/// (the alpha dropped: a calendar's colour is opaque) or one of CSS's basic colour names.
enum CalendarColor {
  /// CSS's sixteen basic colour names (CSS Color Module Level 3, §4.1) and `orange`.
  static let named: [String: String] = [
    "black": "#000000", "silver": "#C0C0C0", "gray": "#808080", "white": "#FFFFFF", "maroon": "#800000",
    "red": "#FF0000", "purple": "#800080", "fuchsia": "#FF00FF", "green": "#008000", "lime": "#00FF00",
    "olive": "#808000", "yellow": "#FFFF00", "navy": "#000080", "blue": "#0000FF", "teal": "#008080",
    "aqua": "#00FFFF", "orange": "#FFA500",
  ]

  /// `text` as the calendar keeps it, `#RRGGBB` in capitals; `nil` when it is no colour.
  static func canonical(_ text: String) -> String? {
    if let color = named[text.lowercased()] { return color }
    let hex = text.dropFirst()
    guard text.hasPrefix("#"), hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { return nil }
    return "#" + hex.prefix(6).uppercased()
  }
}
