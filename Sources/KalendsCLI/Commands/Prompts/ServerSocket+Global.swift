import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsServer

extension ServerSocket {
  /// The socket of the server of the store `global` names, for a command that talks to it:
  /// `socket` when given; the well-known one for the default store (the store is not opened).
  static func path(_ socket: String?, global: GlobalOptions) throws -> String {
    if let socket, !socket.isEmpty { return socket }
    if global.isDefaultStore { return try path(nil, storeID: nil, defaultStore: true, create: false) }
    return try path(
      nil, storeID: GlobalOptions.open(global.storePath, readOnly: true).id, defaultStore: false, create: false)
  }
}
