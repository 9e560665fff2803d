import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

extension DAVMiddleware {
  /// The reports of the principal (RFC 3744 §9.4–9.5): `principal-property-search`, which finds
  /// the principals whose properties match, and `principal-search-property-set`, which names what
  /// can be searched. An app is its own and only principal, so a search finds it or nothing: it never
  /// learns of other apps, nor of the person.
  func reportPrincipals(_ body: XMLElement, _ context: ServerContext) async throws -> Response {
    let (client, _, _) = try await server.app(context)
    let positions = server.positions(for: client.id)
    switch body.name {
    case .dav("principal-search-property-set"):
      let text =
        #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<D:principal-search-property-set"
        + Multistatus.declarations + "><D:principal-search-property><D:prop><D:displayname/></D:prop>"
        + "<D:description xml:lang=\"en\">Name</D:description></D:principal-search-property>"
        + "</D:principal-search-property-set>\n"
      return Self.xml(text, status: .ok)
    case .dav("principal-property-search"):
      let searches = body.children(.dav("property-search"))
      let anyOf = body.attributes["test"] == "anyof"
      var results: [Bool] = []
      for search in searches {
        guard let match = search.child(.dav("match")) else {
          throw DAVError(.badRequest, nil, "a property-search holds a DAV:match")
        }
        let names = search.child(.dav("prop"))?.children.map(\.name) ?? []
        let wanted = match.text.lowercased()
        // RFC 3744 §9.4: a case-insensitive substring match of each property named.
        results.append(
          names.contains { name in
            name == .dav("displayname") && client.name.lowercased().contains(wanted)
          })
      }
      let matches = results.isEmpty || (anyOf ? results.contains(true) : !results.contains(false))
      var multistatus = Multistatus()
      if matches {
        // The properties asked: those in DAV:prop and, as python `caldav` writes them, beside it.
        let structure: Set<XMLName> = [
          .dav("property-search"), .dav("prop"), .dav("apply-to-principal-collection-set"),
        ]
        let asked =
          (body.child(.dav("prop"))?.children.map(\.name) ?? [])
          + body.children.map(\.name).filter { !structure.contains($0) }
        PropertySelection.named(asked).add(.principal(name: client.name), to: &multistatus, positions: positions)
      }
      return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
    default:
      throw DAVError(.forbidden, .dav("supported-report"), "\(body.name) is not a report of a principal")
    }
  }
}
