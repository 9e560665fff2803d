import Foundation
public import Kalends

extension AccountCredentials {
  /// The file that says where the password of the account `id` of the store at `storePath` comes
  /// from: `STORE/accounts/ID.credentials`, mode 0600 in a directory of mode 0700. It holds the
  /// command or the password file's path, never the password; it is kept out of the log so that
  /// a log — replicated, restored from a backup, handed to an auditor — can never make `kalends`
  /// run a command.
  public static func path(forAccount id: ObjectID, store storePath: String) -> String {
    storePath + "/accounts/" + id.description + ".credentials"
  }

  /// Writes where the password comes from to `path` (mode 0600), replacing what was there.
  public func save(to path: String) throws(AccountError) {
    let text: String
    switch self {
    case .command(let command): text = "command\n\(command)\n"
    case .file(let file): text = "file\n\(file)\n"
    case .tokenCommand(let command): text = "token-command\n\(command)\n"
    }
    try PrivateFile.write(Data(text.utf8), to: path)
  }

  /// Where the password comes from, as `path` says — a file of this user's that no one else may
  /// read.
  public static func load(from path: String) throws(AccountError) -> AccountCredentials {
    let data = try PrivateFile.read(
      path, missing: "is missing — give it again with `kalends account update ACCOUNT --password-command …`")
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1).map(String.init)
    guard lines.count == 2 else { throw .credentials("\(path) is not a credentials file") }
    let value = lines[1].hasSuffix("\n") ? String(lines[1].dropLast()) : lines[1]
    switch lines[0] {
    case "command": return .command(value)
    case "file": return .file(value)
    case "token-command": return .tokenCommand(value)
    default: throw .credentials("\(path) is not a credentials file")
    }
  }

  /// Removes the file at `path`, if there is one.
  public static func remove(at path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
