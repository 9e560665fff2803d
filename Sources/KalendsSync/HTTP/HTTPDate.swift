package import Foundation

/// HTTP dates (RFC 9110 §5.6.7, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`): what `Retry-After`,
/// `Expires` and WebDAV-Push's `expires` carry.
package enum HTTPDate {
  /// `date` as an IMF-fixdate.
  package static func text(_ date: Date) -> String { format.string(from: date) }

  /// The date an IMF-fixdate `text` names; `nil` for anything else.
  package static func date(_ text: String) -> Date? { format.date(from: text) }

  private static var format: DateFormatter {
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "GMT")
    format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return format
  }
}
