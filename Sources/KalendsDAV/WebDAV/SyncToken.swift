import Foundation
import HTTPTypes
import Kalends
import KalendsFormats

/// The sync tokens of `sync-collection` (RFC 6578): a URI holding the app's position token (the
/// position sealed for this app, ``AppPositions``), so that a token tells the app nothing about
/// records it may not see, and a token made up or taken from another app is refused.
enum SyncToken {
  static let prefix = "urn:kalends:sync:"

  /// The token of `position` for the app of `positions`.
  static func text(_ position: LogPosition, _ positions: AppPositions) -> String {
    prefix + positions.token(position)
  }

  /// The position `text` stands for; `nil` for an empty token (a first sync). Throws the
  /// `valid-sync-token` refusal (403) for a token this app was not given.
  static func position(_ text: String, _ positions: AppPositions) throws -> LogPosition? {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return nil }
    guard text.hasPrefix(prefix), let position = positions.position(of: String(text.dropFirst(prefix.count))) else {
      throw DAVError(
        .forbidden, .dav("valid-sync-token"),
        "the sync token is not one this server gave this app: sync from the start with an empty token")
    }
    return position
  }
}
