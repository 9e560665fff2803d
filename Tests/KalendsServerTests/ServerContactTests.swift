import Foundation
import KalendsTestSupport
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
    // Of the address books, the local one and those holding a contact it was given; not the
    // person's other book.
    try served.store.object(["contact", "book", "add", "Therapy clients"])
    let books = try served.get("/v1/address-books", by: book)
    #expect(books.status == 200)
    #expect(((books.body as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String } == ["Contacts"])

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

  /// The contact picker through the server: a prompt of its own kind, answered only by the person;
  /// the app is handed the card once, needs no access and gains none; a cancelled picker is 204
  /// and records nothing.
  @Test func anAppWithoutAccessIsHandedTheOneContactThePersonPicks() throws {
    let served = try ServedStore()
    let rides = try served.app("rides")
    try served.store.object(["client", "register", "com.example.rides", "--name", "Rides", "--executable", rides])
    let ann = try #require(try served.store.object(["contact", "add", "--given", "Ann"])["id"] as? String)
    let bob = try #require(try served.store.object(["contact", "add", "--given", "Bob"])["id"] as? String)
    let group = try #require(try served.store.object(["group", "add", "Friends"])["id"] as? String)
    try #require(try served.store.run(["group", "add-member", group, bob]).status == 0)

    let picking = try served.start("POST", "/v1/contacts/pick", by: rides)
    let prompt = try #require(try served.waitForPrompts(1).first)
    #expect(prompt["kind"] as? String == "pick")
    #expect(prompt["level"] as? String == "pick" && prompt["service"] as? String == "contacts")
    #expect(prompt["usageDescription"] is NSNull)
    let id = String(try #require(prompt["id"] as? Int))
    let answer = ["prompts", "answer", id]
    let socket = ["--socket", served.socket]

    // Answers of the wrong kind, or of a contact that does not exist, leave it waiting.
    let wrong = try served.store.run(answer + ["allow"] + socket)
    #expect(wrong.status == 65 && wrong.stderr.contains("contact picker"), "\(wrong.stderr)")
    let missing = try served.store.run(answer + ["pick", "--contacts", UUID().uuidString] + socket)
    #expect(missing.status == 66, "\(missing.stderr)")
    #expect(try served.store.run(answer + ["pick", "--contacts", ann, bob] + socket).status == 65)
    // The app cannot answer its own picker.
    #expect(try served.call("POST", "/v1/prompts/\(id)?answer=pick&contact=\(bob)", by: rides).status == 403)
    #expect(try served.prompts().count == 1)

    let picked = try served.store.run(answer + ["pick", "--contacts", bob] + socket)
    #expect(picked.status == 0, "\(picked.stderr)")
    let handed = try ServedStore.reply(picking, "pick")
    #expect(handed.status == 200)
    let card = try #require(handed.body as? [String: Any])
    #expect(card["id"] as? String == bob && card["givenName"] as? String == "Bob")
    #expect((card["groupIds"] as? [Any])?.isEmpty == true, "the app is handed the card, not the person's groups")

    let records = try served.records("contactPicked")
    #expect(records.count == 1)
    #expect((records.first?["actor"] as? [String: Any])?["type"] as? String == "person")
    // No access was granted: the app is still refused the book and the card itself.
    let status = try served.get("/v1/authorization/contacts", by: rides)
    #expect((status.body as? [String: Any])?["status"] as? String == "notDetermined")
    #expect(try served.call("GET", "/v1/contacts/\(bob)", by: rides).status == 403)

    // A cancelled picker: 204, nothing recorded.
    let cancelling = try served.start("POST", "/v1/contacts/pick", by: rides)
    let second = String(try #require(try served.waitForPrompts(1).first?["id"] as? Int))
    #expect(try served.store.run(["prompts", "answer", second, "cancel"] + socket).status == 0)
    let nothing = try ServedStore.reply(cancelling, "cancel")
    #expect(nothing.status == 204 && nothing.body == nil)
    #expect(try served.records("contactPicked").count == 1)
  }

  /// `--prompt tty`: the person chooses contacts for a limited answer on the line that answers,
  /// and picks for the picker by number.
  @Test func thePersonChoosesAndPicksOnTheServersTerminal() throws {
    let store = try CLIStore()
    var ids: [String] = []
    for name in ["Ann", "Bob", "Cy"] {
      ids.append(try #require(try store.object(["contact", "add", "--given", name])["id"] as? String))
    }
    let served = try ServedStore(
      serving: store, ["--prompt", "tty", "--prompt-timeout", "10"],
      stdin: "limited\nlimited \(ids[2])\n9\n2\n")
    let rides = try served.app("rides")
    try store.object([
      "client", "register", "com.example.rides", "--name", "Rides", "--usage", "contacts=Finds friends.",
      "--executable", rides,
    ])
    // `limited` alone names no contact: asked again; then limited to Cy.
    let asked = try served.call("POST", "/v1/authorization/contacts/request", by: rides)
    #expect((asked.body as? [String: Any])?["status"] as? String == "limited")
    let seen = try served.get("/v1/contacts", by: rides)
    #expect(((seen.body as? [[String: Any]]) ?? []).compactMap { $0["givenName"] as? String } == ["Cy"])
    // The picker lists Ann, Bob, Cy: 9 is no number of the list, 2 is Bob.
    let picked = try served.call("POST", "/v1/contacts/pick", by: rides)
    #expect(picked.status == 200)
    #expect((picked.body as? [String: Any])?["id"] as? String == ids[1])
    served.stop()
    let terminal = String(decoding: served.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(terminal.contains("[allow/limited contact ID…/deny]"), "\(terminal)")
    #expect(terminal.contains("  2. Bob"), "\(terminal)")
    #expect(terminal.contains("a number from 1 to 3"), "\(terminal)")
  }

  /// Calls asking the same question while its prompt waits share it: one prompt, the person asked
  /// once, every call given the answer; one decision recorded.
  @Test func callsAskingTheSameQuestionShareOnePrompt() throws {
    let served = try ServedStore()
    let book = try served.app("book")
    try served.store.object([
      "client", "register", "com.example.book", "--name", "Book", "--usage", "contacts=Friends.", "--executable", book,
    ])
    let ann = try #require(try served.store.object(["contact", "add", "--given", "Ann"])["id"] as? String)
    func waitForCallers(_ callers: Int) throws -> [[String: Any]] {
      try served.waitForPrompts("a prompt with \(callers) callers") { prompts in
        prompts.contains { $0["callers"] as? Int == callers }
      }
    }

    let requests = try (0..<3).map { _ in try served.start("POST", "/v1/authorization/contacts/request", by: book) }
    let asked = try waitForCallers(3)
    #expect(asked.count == 1, "\(asked)")
    let id = String(try #require(asked.first?["id"] as? Int))
    #expect(
      try served.store.run(["prompts", "answer", id, "limited", "--contacts", ann, "--socket", served.socket]).status
        == 0)
    for request in requests {
      #expect(
        (try ServedStore.reply(request, "a shared prompt").body as? [String: Any])?["status"] as? String == "limited")
    }
    #expect(try served.records("accessDecided").count == 1)
    let prompted = try served.records("accessRequested").map { ($0["payload"] as? [String: Any])?["prompted"] as? Bool }
    // One prompted request; the two that took its answer asked nobody: the first of them is a record,
    // the second is counted with it (a record of its count once the minute ends).
    #expect(prompted.filter { $0 == true }.count == 1 && (2...3).contains(prompted.count), "\(prompted)")

    let pickers = try (0..<2).map { _ in try served.start("POST", "/v1/contacts/pick", by: book) }
    let shown = try waitForCallers(2)
    #expect(shown.count == 1 && shown.first?["kind"] as? String == "pick")
    let pick = String(try #require(shown.first?["id"] as? Int))
    #expect(
      try served.store.run(["prompts", "answer", pick, "pick", "--contacts", ann, "--socket", served.socket]).status
        == 0)
    for picker in pickers {
      #expect((try ServedStore.reply(picker, "a shared picker").body as? [String: Any])?["id"] as? String == ann)
    }
    #expect(try served.records("contactPicked").count == 2)
    #expect(try served.prompts().isEmpty)
  }

  /// `--prompt tty`: a call that waits its turn at the terminal while the same question is asked
  /// takes that answer: the person is asked once.
  @Test func callsWaitingForTheTerminalShareTheAnswerToTheSameQuestion() throws {
    let store = try CLIStore()
    let ann = try #require(try store.object(["contact", "add", "--given", "Ann"])["id"] as? String)
    let served = try ServedStore(serving: store, ["--prompt", "tty", "--prompt-timeout", "20"], typing: true)
    let book = try served.app("book")
    try store.object([
      "client", "register", "com.example.book", "--name", "Book", "--usage", "contacts=Friends.", "--executable", book,
    ])
    let terminal = try #require(served.terminal)
    let requests = try (0..<2).map { _ in try served.start("POST", "/v1/authorization/contacts/request", by: book) }
    let question = "would like full access to your contacts"
    var shown = ServerChangeTests.read(served.errors.fileHandleForReading, until: question)
    #expect(shown.contains(question), "\(shown)")
    // Time for the second call to queue behind the first: arriving after the answer it would find
    // the decision stored and pass as well, so a short wait weakens the test but never fails it.
    Thread.sleep(forTimeInterval: 0.5)
    terminal.write(Data("limited \(ann)\n".utf8))
    for request in requests {
      let reply = try ServedStore.reply(request, "a shared question")
      #expect((reply.body as? [String: Any])?["status"] as? String == "limited")
    }
    try terminal.close()
    served.stop()
    shown += String(decoding: served.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(shown.components(separatedBy: question).count == 2, "asked once: \(shown)")
    #expect(try served.records("accessDecided").count == 1)
  }
}
