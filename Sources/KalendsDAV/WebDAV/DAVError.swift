import HTTPTypes
import KalendsFormats

/// A DAV request the server refuses, with the status, the precondition element of RFC 4918 §16 /
/// RFC 4791 §5.3.2 (`{urn:ietf:params:xml:ns:caldav}valid-calendar-data`) when one applies, and
/// a sentence saying why, which the body carries as `{https://kalends.dev/ns/dav}message`.
struct DAVError: Error, Sendable {
  let status: HTTPResponse.Status
  let precondition: XMLName?
  let message: String
  /// The resource the precondition names, when it names one (`no-uid-conflict` names the resource
  /// that already holds the `UID`, RFC 4791 §5.3.2.1).
  let href: String?

  init(_ status: HTTPResponse.Status, _ precondition: XMLName? = nil, _ message: String, href: String? = nil) {
    self.status = status
    self.precondition = precondition
    self.message = message
    self.href = href
  }

  /// The `DAV:error` body.
  var body: String {
    var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<D:error" + Multistatus.declarations + ">"
    if let precondition {
      let name = Multistatus.qualified(precondition)
      xml += href.map { "<\(name)><D:href>\(XMLText.escaped($0))</D:href></\(name)>" } ?? "<\(name)/>"
    }
    xml += "<K:message>\(XMLText.escaped(message))</K:message></D:error>\n"
    return xml
  }
}
