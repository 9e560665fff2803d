import Foundation
import Kalends
import KalendsFormats

/// What a request path names in the DAV space: `/dav/` is the principal (the app itself),
/// `/dav/calendars/` its calendar home, `/dav/calendars/ID/` a calendar and
/// `/dav/calendars/ID/NAME.ics` a calendar object (``CalendarObject/name``: the name a client
/// stored it under, or else its `UID`); `/dav/addressbooks/` its address book home,
/// `/dav/addressbooks/BOOK/` an address book (a ``ContactContainer``: `contacts` for the local
/// one, else the name a client made it under or its identifier) and
/// `/dav/addressbooks/BOOK/NAME.vcf` a card (by the name a client stored it under, or else its
/// `UID`).
enum DAVPath: Equatable {
  /// `/.well-known/caldav` or `/.well-known/carddav` (RFC 6764).
  case wellKnown
  case principal
  case calendarHome
  case calendar(ObjectID)
  /// A calendar object: its calendar and its name (``CalendarObject/name``).
  case object(ObjectID, name: String)
  /// A calendar named by a client's own name rather than its identifier (python `caldav` and
  /// caldav-server-tester make calendars at `/dav/calendars/NAME/`): the calendar whose
  /// ``EventCalendar/resourceName`` it is, among those the app sees.
  case namedCalendar(String)
  /// A calendar object of a calendar named so.
  case namedObject(String, name: String)
  case addressBookHome
  /// An address book, by the name the request gives it (``ContactContainer/davName``, or its
  /// identifier).
  case addressBook(String)
  /// A card of the address book so named, by its name (``Contact/resourceName``, or else its `UID`).
  case contact(String, name: String)
  /// A push registration of the app (WebDAV-Push), `/dav/push/ID`.
  case pushRegistration(ObjectID)
  /// Under `/dav/` but naming nothing the server has.
  case unknown

  static let root = "/dav/"
  static let calendarHomePath = "/dav/calendars/"
  static let addressBookHomePath = "/dav/addressbooks/"
  static let addressBookPath = "/dav/addressbooks/contacts/"
  static let pushPath = "/dav/push/"

  /// Where the push registration `id` is: its registration URL's path.
  static func pushRegistration(_ id: ObjectID) -> String { pushPath + id.description }

  /// The DAV resource `path` names; `nil` for a path outside the DAV space (the API's).
  init?(_ path: String) {
    if path == "/.well-known/caldav" || path == "/.well-known/carddav" || path == "/.well-known/caldav/"
      || path == "/.well-known/carddav/"
    {
      self = .wellKnown
      return
    }
    guard path == "/dav" || path.hasPrefix(Self.root) else { return nil }
    let parts = path.split(separator: "/").dropFirst().map { String($0) }
    switch parts.count {
    case 0: self = .principal
    case 2 where parts[0] == "push":
      self = ObjectID(parts[1]).map { .pushRegistration($0) } ?? .unknown
    case 1 where parts[0] == "addressbooks": self = .addressBookHome
    case 2 where parts[0] == "addressbooks":
      guard let book = parts[1].removingPercentEncoding, !book.isEmpty else {
        self = .unknown
        return
      }
      self = .addressBook(book)
    case 3 where parts[0] == "addressbooks":
      guard let book = parts[1].removingPercentEncoding, !book.isEmpty,
        let name = parts[2].removingPercentEncoding, name.hasSuffix(".vcf"), name.count > 4
      else {
        self = .unknown
        return
      }
      self = .contact(book, name: String(name.dropLast(4)))
    case 1: self = parts[0] == "calendars" ? .calendarHome : .unknown
    case 2:
      guard parts[0] == "calendars", let segment = parts[1].removingPercentEncoding, !segment.isEmpty else {
        self = .unknown
        return
      }
      self = ObjectID(segment).map { .calendar($0) } ?? .namedCalendar(segment)
    case 3:
      guard parts[0] == "calendars", let segment = parts[1].removingPercentEncoding, !segment.isEmpty,
        let name = parts[2].removingPercentEncoding, name.hasSuffix(".ics"), name.count > 4
      else {
        self = .unknown
        return
      }
      let object = String(name.dropLast(4))
      self = ObjectID(segment).map { .object($0, name: object) } ?? .namedObject(segment, name: object)
    default: self = .unknown
    }
  }

  /// The name a request gave the calendar it names, while it is answered: its hrefs are written
  /// with that name, as the client knows the calendar.
  @TaskLocal static var requestName: (id: ObjectID, name: String)?

  /// The href of the calendar `id`: by its identifier, or by the name the request gave it.
  static func calendar(_ id: ObjectID) -> String {
    if let named = requestName, named.id == id { return Self.named(named.name) }
    return calendarHomePath + id.description + "/"
  }

  /// The href of the calendar a client named `name`.
  static func named(_ name: String) -> String {
    calendarHomePath + PathSegment.percentEncoded(name) + "/"
  }

  /// The href of the object `name` (``CalendarObject/name``) in the calendar `id`: the name,
  /// percent-encoded but for the unreserved characters of RFC 3986, then `.ics`.
  static func object(_ name: String, in id: ObjectID) -> String {
    calendar(id) + PathSegment.percentEncoded(name) + ".ics"
  }

  /// The href of the address book named `book`.
  static func bookHref(_ book: String) -> String {
    addressBookHomePath + PathSegment.percentEncoded(book) + "/"
  }

  /// The href of the card named `name` (its ``Contact/resourceName``, or else its `UID`) in the
  /// address book named `book`, percent-encoded as an object's, then `.vcf`.
  static func contact(_ name: String, in book: String) -> String {
    bookHref(book) + PathSegment.percentEncoded(name) + ".vcf"
  }
}
