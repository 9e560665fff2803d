import Foundation
import Testing

/// Contacts through the store server: access checked as in the library, the person's limited
/// choice at the prompt desk, versions as entity tags.
@Suite("The store server serves contacts as the app's access allows")
struct ServerContactTests {
  @Test func anAppAsksIsGivenTwoContactsAndSeesAndChangesOnlyThose() throws {
    let served = try ServedStore()
    let book = try served.app("book")
    try served.store.object([
      "client", "register", "com.example.book", "--name", "Book", "--usage", "contacts=Friends.", "--executable", book,
    ])
    var ids: [String] = []
    for name in ["Ann", "Bob", "Cy"] {
      ids.append(try #require(try served.store.object(["contact", "add", "--given", name])["id"] as? String))
    }

    // Before any decision: refused, and the refusal recorded.
    let refused = try served.call("GET", "/v1/contacts", by: book)
    #expect(refused.status == 403)
    #expect(
      try served.store.objects(["audit", "history"]).contains { $0["kind"] as? String == "accessAttemptRefused" })

    // The app asks; the person answers at the desk: limited, to Ann and Cy.
    let (asking, output, _) = try served.start("POST", "/v1/authorization/contacts/request", by: book)
    let prompt = try #require(try served.waitForPrompts(1).first)
    let id = try #require(prompt["id"] as? Int)
    let answered = try served.store.run([
      "prompts", "answer", String(id), "limited", "--contacts", ids[0], ids[2], "--socket", served.socket,
    ])
    #expect(answered.status == 0, "\(answered.stderr)")
    asking.waitUntilExit()
    let reply = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(reply.contains("\"status\":\"limited\""), "\(reply)")

    let seen = try served.get("/v1/contacts", by: book)
    #expect(seen.status == 200)
    #expect(Set(((seen.body as? [[String: Any]]) ?? []).compactMap { $0["givenName"] as? String }) == ["Ann", "Cy"])
    #expect(try served.call("GET", "/v1/contacts/\(ids[1])", by: book).status == 404)
    #expect(try served.call("DELETE", "/v1/contacts/\(ids[1])", by: book).status == 404)
    let groups = try served.get("/v1/groups", by: book)
    #expect(groups.status == 200 && (groups.body as? [Any])?.isEmpty == true, "a limited app sees no groups")

    let created = try served.exchange(
      "POST", "/v1/contacts", by: book,
      body: #"{"givenName":"Dee","emailAddresses":[{"label":"work","value":"dee@example.com"}]}"#)
    #expect(created.status == 201)
    let dee = try #require(created.body as? [String: Any])
    let deeID = try #require(dee["id"] as? String)
    let changed = try served.exchange(
      "PATCH", "/v1/contacts/\(deeID)", by: book, headers: ["If-Match: \(created.etag)"], body: #"{"nickname":"D"}"#)
    #expect(changed.status == 200)
    let stale = try served.call(
      "PATCH", "/v1/contacts/\(deeID)", by: book, headers: ["If-Match: \(created.etag)"], body: #"{"nickname":"E"}"#)
    #expect(stale.status == 412)
    let searched = try served.get("/v1/contacts?email=DEE@", by: book)
    #expect(((searched.body as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String } == [deeID])
    #expect(try served.call("POST", "/v1/contacts", by: book, body: #"{"bogus":1}"#).status == 400)
    let saved = try #require(try served.records("contactSaved").last)
    #expect((saved["caller"] as? [String: Any])?["executable"] as? String == book)
  }
}
