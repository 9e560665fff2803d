import Foundation
import KalendsTestSupport
import Testing

/// Asking the person through the store server: the app's request waits for the answer given on the
/// person's channel (`kalends prompts`), which no app can reach.
@Suite("The store server asks the person, and only the person answers")
struct ServerConsentTests {
  static let request = "/v1/authorization/calendars/request?level=full"

  @Test func theAppWaitsForThePersonsAnswerAndGetsIt() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let (process, output, errors) = try served.start("POST", Self.request, by: agenda)

    let waiting = try served.waitForPrompts(1)
    let prompt = try #require(waiting.first)
    #expect(prompt["client"] as? String == "com.example.agenda")
    #expect(prompt["name"] as? String == "Agenda")
    #expect(prompt["service"] as? String == "calendars")
    #expect(prompt["usageDescription"] as? String == "Shows your week.")
    #expect(prompt["executable"] as? String == agenda)
    #expect(process.isRunning, "the app's call waits for the answer")
    #expect(try served.records("accessRequested").isEmpty, "nothing is recorded before the answer")

    let id = try #require(prompt["id"] as? Int)
    let answered = try served.store.run(["prompts", "answer", "\(id)", "allow", "--socket", served.socket])
    #expect(answered.status == 0, "\(answered.stderr)")
    let (status, body) = try ServedStore.parse(CLI.finish(process, output, errors), "the request")
    #expect(status == 200)
    #expect((body as? [String: Any])?["status"] as? String == "fullAccess")

    let requested = try #require(try served.records("accessRequested").first)
    #expect((requested["actor"] as? [String: Any])?["id"] as? String == "com.example.agenda")
    #expect((requested["payload"] as? [String: Any])?["prompted"] as? Bool == true)
    // Each record says which process made it: the app's how the server identified the app, the
    // person's decision the `kalends prompts answer` process that spoke for the person.
    #expect(requested["formatVersion"] as? Int == 2)
    let caller = try #require(requested["caller"] as? [String: Any])
    #expect(caller["identifiedBy"] as? String == "executable")
    #expect(caller["executable"] as? String == agenda)
    #expect(caller["executableSha256"] as? String == (try ServerTests.digest(agenda)))
    #expect(caller["uid"] as? Int == Int(getuid()))
    #expect(caller["pid"] as? Int == Int(process.processIdentifier))
    let decided = try #require(try served.records("accessDecided").first)
    #expect((decided["actor"] as? [String: Any])?["type"] as? String == "person")
    let answerer = try #require(decided["caller"] as? [String: Any])
    #expect(answerer["executable"] as? String == CLI.executable.resolvingSymlinksInPath().path)
    #expect(answerer["executableSha256"] as? String == (try ServerTests.digest(CLI.executable.path)))
    #expect(answerer["uid"] as? Int == Int(getuid()))
    #expect(answerer["pid"] as? Int != Int(process.processIdentifier))
    #expect(decided["formatVersion"] as? Int == 2)
    #expect(try served.prompts().isEmpty)
    // Asked once: the next request returns the decision without a prompt.
    let again = try served.call("POST", Self.request, by: agenda)
    #expect((again.body as? [String: Any])?["status"] as? String == "fullAccess")
  }

  /// An app registered as built for iOS 16 asks with `requestAccess(to:)`: the person is shown
  /// the write-only prompt, and the app hears a grant and sees iOS 16's `authorized`.
  @Test func anOldAppsRequestAccessShowsTheWriteOnlyPromptThroughTheServer() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    let registered = try served.store.run([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--executable", agenda, "--sdk", "16",
      "--usage", "calendars=Adds your bookings.",
    ])
    try #require(registered.status == 0, "\(registered.stderr)")
    let legacy = "/v1/authorization/calendars/request?level=legacy"
    let (process, output, errors) = try served.start("POST", legacy, by: agenda)
    let prompt = try #require(try served.waitForPrompts(1).first)
    #expect(prompt["level"] as? String == "write-only")
    #expect(prompt["usageDescription"] as? String == "Adds your bookings.")
    let id = try #require(prompt["id"] as? Int)
    #expect(try served.store.run(["prompts", "answer", "\(id)", "allow", "--socket", served.socket]).status == 0)
    let (status, body) = try ServedStore.parse(CLI.finish(process, output, errors), "the request")
    #expect(status == 200)
    let answer = try #require(body as? [String: Any])
    #expect(answer["granted"] as? Bool == true && answer["status"] as? String == "fullAccess")
    #expect(
      try served.store.objects(["access", "status", "com.example.agenda"]).first?["status"] as? String == "writeOnly")
    let modern = try served.call("POST", Self.request, by: agenda)
    #expect(modern.status == 400, "an app built for iOS 16 has no requestFullAccessToEvents")
  }

  /// An app built for iOS 5 has no request call: its first read asks the person through the
  /// server, and the request is recorded as implicit.
  @Test func anIOS5AppsFirstUseAsksThePersonThroughTheServer() throws {
    let served = try ServedStore()
    _ = try served.store.calendar("Work")
    let agenda = try served.app("agenda")
    let registered = try served.store.run([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--executable", agenda, "--sdk", "5",
      "--usage", "calendars=Shows your week.",
    ])
    try #require(registered.status == 0, "\(registered.stderr)")
    let (process, output, errors) = try served.start("GET", "/v1/calendars", by: agenda)
    let prompt = try #require(try served.waitForPrompts(1).first)
    #expect(prompt["level"] as? String == "full" && prompt["usageDescription"] as? String == "Shows your week.")
    let id = try #require(prompt["id"] as? Int)
    #expect(try served.store.run(["prompts", "answer", "\(id)", "allow", "--socket", served.socket]).status == 0)
    let (status, body) = try ServedStore.parse(CLI.finish(process, output, errors), "the first use")
    #expect(status == 200)
    #expect((body as? [[String: Any]])?.first?["title"] as? String == "Work")
    let requested = try #require(try served.records("accessRequested").first)
    #expect((requested["payload"] as? [String: Any])?["implicit"] as? Bool == true)
    let again = try served.get("/v1/calendars", by: agenda)
    #expect(try again.status == 200 && served.prompts().isEmpty, "asked once")
  }

  @Test func aTimeoutDecidesNothingAndIsRecorded() throws {
    let served = try ServedStore(["--prompt-timeout", "1"])
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let answer = try served.call("POST", Self.request, by: agenda)
    #expect(answer.status == 200)
    #expect((answer.body as? [String: Any])?["status"] as? String == "notDetermined")
    let requested = try #require(try served.records("accessRequested").first)
    #expect((requested["payload"] as? [String: Any])?["promptTimeout"] as? Bool == true)
    #expect(try served.records("accessDecided").isEmpty)
    // The same app declared with --as, on the store's files directly: the audit tells them apart.
    let declared = try served.store.run([
      "access", "request", "--as", "com.example.agenda", "--service", "calendars", "--answer", "deny",
    ])
    #expect(declared.status == 0, "\(declared.stderr)")
    let history = try served.store.objects(["audit", "history"])
    let requests = history.filter { $0["kind"] as? String == "accessRequested" }
    #expect(requests.count == 2)
    #expect(requests.first?["promptTimeout"] as? Bool == true)
    #expect((requests.first?["caller"] as? [String: Any])?["identifiedBy"] as? String == "executable")
    #expect(requests.last?["caller"] as? String == "declared")
    let status = try served.get("/v1/authorization/calendars", by: agenda)
    #expect((status.body as? [String: Any])?["status"] as? String == "denied")
  }

  /// `--prompt tty`: the person answers on the server's terminal; the end of input is no answer.
  @Test func thePersonAnswersOnTheServersTerminal() throws {
    let served = try ServedStore(["--prompt", "tty", "--prompt-timeout", "5"], stdin: "write-only\n")
    let agenda = try served.app("agenda")
    try served.store.object([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--usage", "calendars-full=Shows your week.",
      "--usage", "calendars-write-only=Adds bookings.", "--executable", agenda,
    ])
    let first = try served.call("POST", Self.request, by: agenda)
    #expect((first.body as? [String: Any])?["status"] as? String == "writeOnly")
    // The one upgrade prompt finds no more input: nothing is decided.
    let second = try served.call("POST", Self.request, by: agenda)
    #expect((second.body as? [String: Any])?["status"] as? String == "writeOnly")
    served.stop()
    let asked = String(decoding: served.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(asked.contains("“Agenda” (\(agenda)) would like full access to your calendars."))
    #expect(asked.contains("Shows your week."))
    #expect(asked.contains("(it can already add events)"))
    // The person answered on the server's terminal: the decision names the server's process.
    let decided = try #require(try served.records("accessDecided").first)
    let answerer = try #require(decided["caller"] as? [String: Any])
    #expect(answerer["executable"] as? String == CLI.executable.resolvingSymlinksInPath().path)
    #expect(answerer["uid"] as? Int == Int(getuid()))
    let requests = try served.records("accessRequested").map { $0["payload"] as? [String: Any] }
    #expect(requests.count == 2)
    #expect(requests.last??["promptTimeout"] as? Bool == true)
  }

  @Test func anAppCannotListOrAnswerPrompts() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let (process, output, errors) = try served.start("POST", Self.request, by: agenda)
    let id = try #require(try served.waitForPrompts(1).first?["id"] as? Int)

    // The same app, from another process, tries the person's channel.
    let listed = try served.get("/v1/prompts", by: agenda)
    #expect(listed.status == 403)
    let forged = try served.call("POST", "/v1/prompts/\(id)?answer=allow", by: agenda)
    #expect(forged.status == 403)
    #expect(try served.prompts().count == 1, "the prompt still waits for the person")
    let refused = try served.records("ownerActionRefused")
    #expect(refused.count == 1, "the first attempt of the minute is recorded; the second is counted")
    #expect((refused.first?["actor"] as? [String: Any])?["id"] as? String == "com.example.agenda")

    // An unidentified program gets nothing either.
    let stranger = try served.app("stranger")
    #expect(try served.call("POST", "/v1/prompts/\(id)?answer=allow", by: stranger).status == 401)

    _ = try served.store.run(["prompts", "answer", "\(id)", "deny", "--socket", served.socket])
    let (status, body) = try ServedStore.parse(CLI.finish(process, output, errors), "the request")
    #expect(status == 200)
    #expect((body as? [String: Any])?["status"] as? String == "denied")
  }

  /// The review's attack: an app that ships a byte-identical copy of `kalends` — a distribution's
  /// build is public — runs it to answer its own prompt. A copy at another path, and the very
  /// binary started in another mount and user namespace (what bubblewrap, and so Flatpak, does),
  /// are not the person: refused and recorded; the prompt waits for the person.
  @Test func aCopyOfKalendsOrKalendsInASandboxIsNotThePersonsChannel() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let (process, output, errors) = try served.start("POST", Self.request, by: agenda)
    let id = try #require(try served.waitForPrompts(1).first?["id"] as? Int)
    let answer = ["prompts", "answer", "\(id)", "allow", "--socket", served.socket]

    let copy = served.store.directory.path + "/bin/kalends"
    try FileManager.default.createDirectory(
      atPath: served.store.directory.path + "/bin", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: CLI.executable.path, toPath: copy)
    #expect(try ServerTests.digest(copy) == (try ServerTests.digest(CLI.executable.path)))
    let byCopy = try CLI.run(answer, program: URL(fileURLWithPath: copy))
    #expect(byCopy.status != 0, "\(byCopy.stdout)")
    let sandboxes = [["--user", "--map-root-user", "--mount"], ["--mount"], ["--user", "--map-root-user"]]
    for namespaces in sandboxes {
      let sandboxed = try CLI.run(
        namespaces + [CLI.executable.path] + answer, program: URL(fileURLWithPath: "/usr/bin/unshare"))
      #expect(sandboxed.status != 0, "\(namespaces): \(sandboxed.stdout)")
      #expect(
        sandboxed.stderr.contains("no registered app's requirement matches"), "\(namespaces): \(sandboxed.stderr)")
    }
    #expect(try served.prompts().count == 1, "the prompt still waits for the person")
    #expect(try served.records("accessDecided").isEmpty)
    let refused = try served.records("callerUnidentified")
    let executables = refused.compactMap { ($0["payload"] as? [String: Any])?["executable"] as? String }
    #expect(executables.contains(copy), "\(refused)")
    #expect(executables.contains(CLI.executable.resolvingSymlinksInPath().path), "\(refused)")

    let answered = try served.store.run(answer)
    #expect(answered.status == 0, "\(answered.stderr)")
    let (status, body) = try ServedStore.parse(CLI.finish(process, output, errors), "the request")
    #expect(status == 200 && (body as? [String: Any])?["status"] as? String == "fullAccess")
  }
}

/// The person is told when an app's prompt opens — once, however many of the app's calls join it —
/// and `kalends prompts --wait` returns as it opens.
@Suite("Server: a prompt is announced")
struct ServerPromptNoticeTests {
  @Test func aPromptIsAnnouncedOnceAndPromptsWaitReturnsWithIt() throws {
    let store = try CLIStore()
    let (program, shown) = try ServerAlarmTests.notifier(in: store.directory.path)
    let served = try ServedStore(serving: store, ["--notify", program])
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let (waiter, waiterOutput, waiterErrors) = try CLI.start(
      ["prompts", "--wait", "30", "--format", "json", "--socket", served.socket, "--store", store.directory.storePath])
    let first = try served.start("POST", ServerConsentTests.request, by: agenda)
    let second = try served.start("POST", ServerConsentTests.request, by: agenda)
    let listed = CLI.finish(waiter, waiterOutput, waiterErrors)
    #expect(listed.status == 0, "\(listed.stderr)")
    let prompts = try #require(try json(listed.stdout) as? [[String: Any]])
    #expect(prompts.first?["client"] as? String == "com.example.agenda")
    let id = try #require(prompts.first?["id"] as? Int)
    #expect(
      ServerAlarmTests.wait(
        for:
          "Agenda asks for full access to your calendars|Shows your week. — answer with kalends prompts answer \(id) allow",
        in: shown), "\(ServerAlarmTests.lines(shown))")
    #expect(try served.store.run(["prompts", "answer", "\(id)", "deny", "--socket", served.socket]).status == 0)
    _ = CLI.finish(first.0, first.1, first.2)
    _ = CLI.finish(second.0, second.1, second.2)
    #expect(ServerAlarmTests.lines(shown).count == 1, "once: \(ServerAlarmTests.lines(shown))")
  }
}
