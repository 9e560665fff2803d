import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client {
  /// `kalends client register`: registers an app or changes its name and usage descriptions.
  struct Register: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "register",
      abstract: "Register an app, or change its name and usage descriptions (the Info.plist keys).",
      discussion: """
        --usage takes KEY=TEXT, KEY one of calendars-full, calendars-write-only, reminders-full, contacts, \
        and for apps built before iOS 17 calendars and reminders. An app asking for a level without \
        its description is denied, as on iOS. --sdk is the iOS version the app was built for (5–17): \
        what it may call and sees follows that system (docs/privacy.md).
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier, e.g. com.example.planner.") var id: String

    @Option(help: "The name the person sees.") var name: String

    @Option(help: ArgumentHelp("A usage description, KEY=TEXT (repeatable).", valueName: "key=text"))
    var usage: [String] = []

    @Option(
      help: ArgumentHelp(
        "The app's executable: the store server takes processes running this file for the app.",
        valueName: "path"))
    var executable: String?

    @Option(
      help: ArgumentHelp(
        "The executable's SHA-256 in hex (default: the digest of the file at --executable now).",
        valueName: "hex"))
    var sha256: String?

    @Flag(
      help: "Register an interpreter (python3, node, bash, …) as --executable: every script it runs is then this app.")
    var allowInterpreter = false

    @Option(help: ArgumentHelp("The app's Flatpak application id.", valueName: "id")) var flatpak: String?

    @Option(help: ArgumentHelp("The iOS version the app was built for, 5 to 17.", valueName: "version"))
    var sdk: Int = Kalends.Client.currentSDK

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      var descriptions: [Kalends.Client.Usage: String] = [:]
      for entry in usage {
        guard let equals = entry.firstIndex(of: "="), let key = Kalends.Client.Usage(name: String(entry[..<equals]))
        else {
          throw CLIError.invalidInput(
            "--usage \"\(entry)\": write KEY=TEXT with KEY one of "
              + Kalends.Client.Usage.allCases.map(\.description).joined(separator: ", "))
        }
        descriptions[key] = String(entry[entry.index(after: equals)...])
      }
      let store = try global.openEventStore()
      let client = try store.register(
        Kalends.Client(
          id: id, name: name, usageDescriptions: descriptions, requirement: try requirement(), sdk: sdk))
      format.write(client.jsonFields)
    }

    /// The code requirement the options state; `nil` when none is given.
    private func requirement() throws -> CodeRequirement? {
      try Self.requirement(
        executable: executable, sha256: sha256, flatpak: flatpak, allowInterpreter: allowInterpreter)
    }

    /// The code requirement of an executable (its digest given, else read from the file now)
    /// and a Flatpak id; `nil` when neither is given.
    static func requirement(
      executable: String?, sha256: String?, flatpak: String?, allowInterpreter: Bool
    ) throws -> CodeRequirement? {
      guard executable != nil || flatpak != nil else {
        if sha256 != nil { throw CLIError(message: "--sha256 needs --executable", status: .usage) }
        return nil
      }
      var requirement = CodeRequirement(executable: nil, executableSHA256: nil, flatpakApp: flatpak)
      if var executable {
        executable = try Self.checkedExecutable(executable, allowingInterpreter: allowInterpreter)
        let digest: [UInt8]
        if let sha256 {
          guard let bytes = FileDigest.bytes(hex: sha256.lowercased()) else {
            throw CLIError.invalidInput("--sha256 takes 64 hex digits")
          }
          digest = bytes
        } else {
          guard let bytes = FileDigest.sha256(ofFileAt: executable) else {
            throw CLIError(message: "cannot read --executable \(executable)", status: .notFound)
          }
          digest = bytes
        }
        requirement.executable = executable
        requirement.executableSHA256 = digest
      }
      return requirement
    }

    /// Interpreters by name (a version may follow: python3.11, lua5.4): the kernel names them as
    /// the running program of every script they run. `ld` is the dynamic loader
    /// (`ld-linux-x86-64.so.2`, `ld-musl-…`, `ld.so`), which runs any program it is given.
    static let interpreters = [
      "python", "perl", "ruby", "node", "nodejs", "deno", "bun", "bash", "sh", "dash", "zsh", "ksh", "fish", "php",
      "lua", "luajit", "tclsh", "wish", "java", "gjs", "Rscript", "julia", "guile", "awk", "gawk", "busybox",
      "osascript", "pwsh", "swift", "ld",
    ]

    /// The path the store server will see for `path`: symbolic links resolved, as the kernel names
    /// a running program (a symlink registered verbatim would never match). Refuses a script,
    /// whose process the kernel names by its interpreter, and — unless allowed — an interpreter,
    /// which would make every script it runs this app.
    static func checkedExecutable(_ path: String, allowingInterpreter: Bool) throws -> String {
      guard path.hasPrefix("/") else {
        throw CLIError.invalidInput("--executable takes an absolute path, not \"\(path)\"")
      }
      guard FileManager.default.fileExists(atPath: path) else { return path }
      let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      if resolved != path {
        FileHandle.standardError.write(
          Data("note: --executable \(path) is a link to \(resolved): registered the file it names\n".utf8))
      }
      if let handle = FileHandle(forReadingAtPath: resolved) {
        defer { try? handle.close() }
        if handle.readData(ofLength: 2) == Data("#!".utf8) {
          throw CLIError.invalidInput(
            "\(resolved) is a script: the kernel names its interpreter as the running program, so no "
              + "process would match — register a compiled executable, or the app's Flatpak id (--flatpak)")
        }
      }
      let name = (resolved as NSString).lastPathComponent
      let base = String(name.prefix { !$0.isNumber && $0 != "." && $0 != "-" })
      if !allowingInterpreter, interpreters.contains(base) || interpreters.contains(name) {
        throw CLIError.invalidInput(
          "\(resolved) is an interpreter: every script it runs would be taken for this app — register the "
            + "app's own executable or its Flatpak id, or give --allow-interpreter if that is meant")
      }
      return resolved
    }
  }
}
