import Foundation
import KalendsFormats
import Testing

@testable import Kalends
@testable import KalendsDAV

/// The WebDAV core in process, without a server: request bodies read as RFC 4918, 5689 and 6578
/// say, refusals with their preconditions, and what it writes parsed back as XML.
@Suite("WebDAV core: bodies, refusals and answers")
struct WebDAVCoreTests {
  static func xml(_ text: String) throws -> XMLElement { try XMLReader.parse(Array(text.utf8)) }

  /// The DAV error `body` throws, if any.
  static func refusal(_ body: () throws -> Void) -> DAVError? {
    do {
      try body()
      return nil
    } catch let error as DAVError {
      return error
    } catch {
      return nil
    }
  }

  /// The status code of `error`, as text.
  static func status(_ error: DAVError?) -> String { error.map { String("\($0.status)".prefix(3)) } ?? "none" }

  static let calendar = (name: XMLName.caldav("calendar"), what: "calendar")

  @Test func anExtendedMKCOLMustSetTheCollectionsResourceType() throws {
    let mkcol = try Self.xml(
      """
      <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>\
      <D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname>Team</D:displayname>\
      </D:prop></D:set></D:mkcol>
      """)
    let properties = try DAVMiddleware.creationProperties(
      mkcol, root: .dav("mkcol"), method: "MKCOL", type: Self.calendar)
    #expect(properties.map(\.name) == [.dav("displayname")], "the resource type is the request's, not a property")

    let plain = try Self.xml(
      #"<D:mkcol xmlns:D="DAV:"><D:set><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop></D:set></D:mkcol>"#
    )
    let untyped = Self.refusal {
      _ = try DAVMiddleware.creationProperties(plain, root: .dav("mkcol"), method: "MKCOL", type: Self.calendar)
    }
    #expect(Self.status(untyped) == "403" && untyped?.precondition == .dav("valid-resourcetype"))

    let both = try Self.xml(
      """
      <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:R="urn:ietf:params:xml:ns:carddav">\
      <D:set><D:prop><D:resourcetype><C:calendar/><R:addressbook/></D:resourcetype></D:prop></D:set></D:mkcol>
      """)
    let mixed = Self.refusal {
      _ = try DAVMiddleware.creationProperties(both, root: .dav("mkcol"), method: "MKCOL", type: Self.calendar)
    }
    #expect(mixed?.precondition == .dav("valid-resourcetype"))
    #expect(mixed?.message.contains("addressbook") == true, "\(String(describing: mixed?.message))")

    // MKCALENDAR's body is its own element and sets no resource type.
    let wrongRoot = Self.refusal {
      _ = try DAVMiddleware.creationProperties(mkcol, root: .caldav("mkcalendar"), method: "MKCALENDAR", type: nil)
    }
    #expect(Self.status(wrongRoot) == "400")
    #expect(try DAVMiddleware.creationProperties(nil, root: .dav("mkcol"), method: "MKCOL", type: nil).isEmpty)
  }

  @Test func aRefusedCreationNamesTheRefusedPropertyAndFailsTheOthers() throws {
    let properties = try Self.xml(
      #"<D:prop xmlns:D="DAV:" xmlns:X="urn:x"><D:displayname>A</D:displayname><X:color>red</X:color></D:prop>"#
    ).children
    let document = try Self.xml(
      DAVMiddleware.creationRefusal(properties, refused: [XMLName("urn:x", "color")], response: "D:mkcol-response"))
    #expect(document.name == .dav("mkcol-response"))
    let statuses = document.children(.dav("propstat")).map { propstat in
      (propstat.child(.dav("prop"))?.children.map(\.name) ?? [], propstat.child(.dav("status"))?.text ?? "")
    }
    #expect(statuses.count == 2)
    #expect(statuses.first?.0 == [XMLName("urn:x", "color")] && statuses.first?.1 == "HTTP/1.1 403 Forbidden")
    #expect(statuses.last?.0 == [.dav("displayname")] && statuses.last?.1 == "HTTP/1.1 424 Failed Dependency")
  }

  @Test func aMultigetsHrefsAreTheCollectionsMembersOrNone() throws {
    let calendar = ObjectID.random()
    let body = try Self.xml(
      """
      <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>\
      <D:href> \(DAVPath.object("a.ics", in: calendar)) </D:href>\
      <D:href>http://host:8080\(DAVPath.object("b%20c.ics", in: calendar))</D:href>\
      <D:href>\(DAVPath.object("other.ics", in: ObjectID.random()))</D:href>\
      <D:href>/dav/calendars/\(calendar)/../x.ics</D:href>\
      <D:href>/elsewhere/a.ics</D:href></C:calendar-multiget>
      """)
    let (names, elsewhere) = DAVMiddleware.hrefs(body) { path in
      if case .object(let id, let name) = path, id == calendar { name } else { nil }
    }
    #expect(names == ["a.ics", "b c.ics"])
    #expect(elsewhere.count == 3, "\(elsewhere)")
    #expect(elsewhere.last == "/elsewhere/a.ics")
  }

  @Test func aSyncTokenIsOneThisServerGave() throws {
    let positions = AppPositions(tagKey: Array(repeating: 7, count: 32), tokenKey: Array(repeating: 9, count: 32))
    let token = SyncToken.text(LogPosition(rawValue: 42), positions)
    #expect(try SyncToken.position(token, positions) == LogPosition(rawValue: 42))
    #expect(try SyncToken.position("", positions) == nil, "an empty token asks for everything")
    let other = AppPositions(tagKey: Array(repeating: 7, count: 32), tokenKey: Array(repeating: 8, count: 32))
    let forged = Self.refusal { _ = try SyncToken.position(token, other) }
    #expect(forged?.precondition == .dav("valid-sync-token"))
  }
}
