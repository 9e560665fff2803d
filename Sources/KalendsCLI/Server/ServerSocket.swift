import Foundation
import Kalends
import KalendsCommandSupport

/// Where the store server of a store listens.
enum ServerSocket {
  /// `socket` when given, else `$XDG_RUNTIME_DIR/kalends/STORE-ID.sock` (its directory created
  /// `0700` when `create`).
  static func path(_ socket: String?, storeID: StoreID, create: Bool) throws -> String {
    if let socket, !socket.isEmpty { return socket }
    guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
      throw CLIError(message: "give --socket: XDG_RUNTIME_DIR is not set", status: .usage)
    }
    let directory = runtime + "/kalends"
    if create {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    return directory + "/\(storeID).sock"
  }

  /// The socket of the store `global` names, for a command that talks to its server.
  static func path(_ socket: String?, global: GlobalOptions) throws -> String {
    if let socket, !socket.isEmpty { return socket }
    return try path(nil, storeID: GlobalOptions.open(global.storePath, readOnly: true).id, create: false)
  }
}
