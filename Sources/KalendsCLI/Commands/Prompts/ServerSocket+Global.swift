import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsServer

extension ServerSocket {
  /// The socket of the server of the store `global` names, for a command that talks to it:
  /// `socket` when given.
  static func path(_ socket: String?, global: GlobalOptions) throws -> String {
    if let socket, !socket.isEmpty { return socket }
    return try path(nil, storeID: GlobalOptions.open(global.storePath, readOnly: true).id, create: false)
  }
}
