import Foundation
package import Kalends
import KalendsFormats
import Platform

/// Where the store server of a store listens.
package enum ServerSocket {
  /// The name of the socket of the person's default store in `$XDG_RUNTIME_DIR/kalends`: one
  /// well-known path that apps, `kalends prompts` and a systemd unit find without the store.
  package static let wellKnownName = "kalends.sock"

  /// `socket` when given; else for the person's default store (`defaultStore`)
  /// `$XDG_RUNTIME_DIR/kalends/kalends.sock`, for another `$XDG_RUNTIME_DIR/kalends/STORE-ID.sock`
  /// (its directory created `0700` when `create`).
  package static func path(
    _ socket: String?, storeID: StoreID?, defaultStore: Bool, create: Bool
  ) throws -> String {
    if let socket, !socket.isEmpty { return socket }
    guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
      throw ServerError(message: "give --socket: XDG_RUNTIME_DIR is not set", category: .usage)
    }
    let directory = runtime + "/kalends"
    if create {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    guard !defaultStore, let storeID else { return directory + "/" + wellKnownName }
    return directory + "/\(storeID).sock"
  }
}

extension ServerSocket {
  /// Removes a socket left at `path` by a server that is gone; refuses when one still answers
  /// there, or when the path is something else.
  static func clearStale(_ path: String) throws {
    guard let info = FileStatus(path: path, followingLinks: false) else { return }
    guard info.isSocket else {
      throw ServerError(message: "\(path) exists and is not a socket", category: .usage)
    }
    if let probe = try UnixSocket.connect(to: path) {
      close(probe)
      throw ServerError(message: "a server already listens on \(path)", category: .usage)
    }
    unlink(path)
  }
}
