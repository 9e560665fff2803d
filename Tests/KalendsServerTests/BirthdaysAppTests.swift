import Foundation
import KalendsTestSupport
import Testing

/// The example birthdays app (Examples/Birthdays, on KalendsClient's contacts) as a real peer of
/// a real server: given limited access at the prompt it sees the chosen contacts and those it
/// adds; through the picker it is handed one contact without access; denied, it adds nothing.
@Suite("A contacts app on KalendsClient through the store server")
struct BirthdaysAppTests {
  /// The built example app.
  static var birthdays: URL {
    CLI.executable.deletingLastPathComponent().appendingPathComponent("kalends-birthdays")
  }

  /// Runs the app to its end: its exit status and what it printed.
  static func run(_ arguments: [String], _ served: ServedStore) throws -> CLI.Result {
    try CLI.run(["--socket", served.socket] + arguments, program: birthdays)
  }

  /// Starts the app, answers the one prompt it opens with `answer`, and waits for its end.
  static func answering(
    _ arguments: [String], with answer: [String], _ served: ServedStore
  ) throws -> (CLI.Result, prompt: [String: Any]) {
    let (process, output, errors) = try CLI.start(["--socket", served.socket] + arguments, program: birthdays)
    let prompt = try #require(try served.waitForPrompts(1).first)
    let id = String(try #require(prompt["id"] as? Int))
    let answered = try served.store.run(["prompts", "answer", id] + answer + ["--socket", served.socket])
    #expect(answered.status == 0, "\(answered.stderr)")
    return (CLI.finish(process, output, errors), prompt)
  }

  @Test func givenTwoContactsItSeesThoseAndTheOneItAddsAndIsHandedAPick() throws {
    let served = try ServedStore()
    try served.store.object([
      "client", "register", "com.example.birthdays", "--name", "Birthdays", "--usage", "contacts=Shows birthdays.",
      "--executable", Self.birthdays.path,
    ])
    try served.store.object(["contact", "book", "add", "Therapy clients"])
    var ids: [String: String] = [:]
    for (name, birthday) in [("Ann", "1990-05-17"), ("Bob", "--01-02"), ("Cy", "1970-03-09")] {
      ids[name] = try #require(
        try served.store.object(["contact", "add", "--given", name, "--birthday", birthday])["id"] as? String)
    }

    // Asked once; the person gives it Ann and Cy only.
    let (first, prompt) = try Self.answering(
      [], with: ["limited", "--contacts", ids["Ann"]!, ids["Cy"]!], served)
    #expect(prompt["kind"] as? String == "access" && prompt["service"] as? String == "contacts")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("== birthdays (limited access, 2 contacts)"), "\(first.stdout)")
    #expect(first.stdout.contains("03-09  Cy\n05-17  Ann"), "\(first.stdout)")
    #expect(!first.stdout.contains("Bob"))
    // Its contacts' address book, and no other: the person's Therapy book stays unseen.
    #expect(first.stdout.contains("from: Contacts (2)"), "\(first.stdout)")

    // A contact it adds joins its set: decided already, so no prompt.
    let added = try Self.run(["--add", "Dee Doe", "--birthday", "1991-12-24"], served)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("added: 12-24  Dee Doe"), "\(added.stdout)")
    #expect(added.stdout.contains("(limited access, 3 contacts)"), "\(added.stdout)")
    #expect(try served.store.objects(["contact", "list"]).count == 4)

    // The picker: the person hands it Bob once; its access stays limited, without Bob.
    let (picked, pick) = try Self.answering(["--pick"], with: ["pick", "--contacts", ids["Bob"]!], served)
    #expect(pick["kind"] as? String == "pick")
    #expect(picked.stdout.contains("picked: 01-02  Bob"), "\(picked.stdout) \(picked.stderr)")
    let (cancelled, _) = try Self.answering(["--pick"], with: ["cancel"], served)
    #expect(cancelled.status == 5 && cancelled.stdout.contains("nothing picked"), "\(cancelled.stdout)")
    let after = try Self.run([], served)
    #expect(!after.stdout.contains("Bob") && after.stdout.contains("(limited access, 3 contacts)"))
    #expect(try served.records("contactPicked").count == 1)

    // Denied in settings: the app learns its status and adds nothing.
    try served.store.object(["access", "set", "com.example.birthdays", "--service", "contacts", "--status", "denied"])
    let denied = try Self.run(["--add", "Eve"], served)
    #expect(denied.status == 3 && denied.stdout.contains("no access to contacts: denied"), "\(denied.stdout)")
    #expect(try served.store.objects(["contact", "list"]).count == 4)
  }
}
