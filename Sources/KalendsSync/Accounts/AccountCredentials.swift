import Foundation

/// Where an account's password comes from — never from the store: a command that prints it (as
/// vdirsyncer's `fetch`: `pass show fastmail`, `secret-tool lookup …`) or a file only the person
/// may read. It is read when a request needs it and kept in no file, record or answer.
public enum AccountCredentials: Sendable, Hashable {
  /// `/bin/sh -c COMMAND`; the first line it prints is the password.
  case command(String)
  /// A file's first line; the file must belong to this user and be readable by no one else
  /// (mode 0600 or stricter).
  case file(String)
  /// `/bin/sh -c COMMAND`; the first line it prints is an OAuth 2.0 access token, sent as
  /// `Authorization: Bearer` (RFC 6750) instead of a user name and password — for servers such as
  /// Google's CalDAV that take no password. Run for every sync, so a command that refreshes the
  /// token keeps it current.
  case tokenCommand(String)

  /// The longest a password command may take.
  static let commandTimeout: TimeInterval = 30

  /// The password, read now.
  public func password() throws(AccountError) -> String {
    switch self {
    case .command(let command), .tokenCommand(let command): return try Self.run(command)
    case .file(let path): return try Self.read(path)
    }
  }

  /// `Authorization`'s value: `user:password` in Basic authentication (RFC 7617), or the token as
  /// a Bearer token (RFC 6750).
  func authorization(user: String) throws(AccountError) -> String {
    if case .tokenCommand = self { return "Bearer " + (try password()) }
    return "Basic " + Data("\(user):\(try password())".utf8).base64EncodedString()
  }

  private static func read(_ path: String) throws(AccountError) -> String {
    try firstLine(PrivateFile.read(path, missing: "cannot be read"), of: path)
  }

  private static func run(_ command: String) throws(AccountError) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw .credentials("the password command could not start: \(error)")
    }
    let deadline = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + commandTimeout, execute: deadline)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    deadline.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw .credentials("the password command failed (status \(process.terminationStatus))")
    }
    return try firstLine(data, of: "the password command's output")
  }

  private static func firstLine(_ data: Data, of what: String) throws(AccountError) -> String {
    let line =
      String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first
      .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) } ?? ""
    guard !line.isEmpty else { throw .credentials("\(what) is empty") }
    return line
  }
}
