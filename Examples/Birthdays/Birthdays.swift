import ArgumentParser
import Foundation
import KalendsClient

/// Birthdays: prints the birthdays of the contacts the person lets it use, from the store server;
/// with `--pick`, asks for no access and prints the one contact the person picks. An example of
/// an app using `KalendsClient`'s contacts, and the tests' real peer process.
@main
struct Birthdays: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kalends-birthdays",
    abstract: "Print your contacts' birthdays from a Kalends store server, or the one contact you pick.",
    discussion: """
      Exits 0 after printing, 3 when the person gave no access to contacts, 4 when the app's \
      session ended, 5 when the person picked nothing, 1 on any other failure.
      """)

  @Option(help: "The store server's Unix socket (default: the default store's).") var socket: String?

  @Flag(help: "Ask for no access: show the contact picker and print the contact picked.") var pick = false

  @Option(help: ArgumentHelp("First add a contact of this name (GIVEN [FAMILY]).", valueName: "name"))
  var add: String?

  @Option(help: ArgumentHelp("The birthday of --add: YYYY-MM-DD or --MM-DD.", valueName: "date"))
  var birthday: String?

  func run() async throws {
    let store = ContactStore(endpoint: socket.map { .unixSocket(path: $0) } ?? .defaultStore)
    do {
      if pick {
        guard let contact = try await store.pickContact() else {
          Self.say("nothing picked")
          throw ExitCode(5)
        }
        Self.say("picked: " + Self.line(contact))
        return
      }
      guard try await store.requestAccess() else {
        Self.say("no access to contacts: \(try await store.authorizationStatus().rawValue)")
        throw ExitCode(3)
      }
      if let add {
        let names = add.split(separator: " ", maxSplits: 1).map(String.init)
        var contact = Contact(givenName: names.first, familyName: names.count > 1 ? names[1] : nil)
        contact.birthday = birthday
        let saved = try await store.save(contact)
        Self.say("added: " + Self.line(saved))
      }
      let status = try await store.authorizationStatus()
      let contacts = try await store.contacts()
      let dated = contacts.filter { $0.birthday != nil }.sorted { Self.monthDay($0) < Self.monthDay($1) }
      var lines = ["== birthdays (\(status.rawValue) access, \(contacts.count) contacts)"]
      lines += dated.map(Self.line)
      // Where they live: the address books the app sees, each with how many of its contacts.
      let books = try await store.containers()
      lines.append(
        "from: "
          + books.map { book in "\(book.title) (\(contacts.filter { $0.containerID == book.id }.count))" }
          .joined(separator: ", "))
      Self.say(lines.joined(separator: "\n"))
    } catch KalendsClientError.sessionEnded(let detail) {
      Self.say("session ended: \(detail)")
      throw ExitCode(4)
    } catch let error as KalendsClientError {
      Self.say("error: \(error)")
      throw ExitCode(1)
    }
  }

  /// `MM-DD  Name`, or `-----  Name` without a birthday.
  static func line(_ contact: Contact) -> String {
    (contact.birthday.map { String($0.suffix(5)) } ?? "-----") + "  " + contact.displayName
  }

  static func monthDay(_ contact: Contact) -> String { String((contact.birthday ?? "").suffix(5)) }

  static func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
