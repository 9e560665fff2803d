/// How a store server is set up: where it listens, how long it waits and how much it serves at
/// once. The defaults are `kalends serve`'s (docs/server.md).
package struct ServerConfiguration: Sendable {
  /// The Unix socket to listen on; `nil` for the one a service manager handed over (socket
  /// activation), else `$XDG_RUNTIME_DIR/kalends/kalends.sock` for the person's default store
  /// (``defaultStore``) and `$XDG_RUNTIME_DIR/kalends/STORE-ID.sock` for another. With socket
  /// activation it must be `nil` or the handed-over socket's path.
  package var socket: String?
  /// Whether the store served is the person's default one, served at the well-known socket.
  package var defaultStore = false
  /// How long an app's access request waits for the person before it is recorded as a timeout.
  package var promptTimeout: Duration = .seconds(60)
  /// Whether the person answers on this process's terminal rather than through `kalends prompts`.
  package var promptsOnTerminal = false
  /// How many connections each listener serves at once; more wait.
  package var maxConnections = 512
  /// How long a connection may stay idle before it is closed.
  package var idleTimeout: Duration = .seconds(60)
  /// How long a request's headers and body may take to arrive.
  package var headerTimeout: Duration = .seconds(10)
  /// Also serve TCP at `[HOST:]PORT`, where apps present tokens.
  package var listen: String?
  /// The TLS certificate chain and private key (PEM files) for ``listen``.
  package var tlsCertificate: String?
  package var tlsKey: String?
  /// How often the person's retention policy is applied (and once at start).
  package var retentionInterval: Duration = .seconds(3_600)
  /// How often the refusals counted in a minute are written once the minute has ended.
  package var refusalFlushInterval: Duration = .seconds(5)
  /// How the person is told of alarms of events and reminders as they fire, and of an app's
  /// prompt as it opens; `nil`: not (prompts still wait for `kalends prompts`).
  package var notifier: DesktopNotifier?
  /// The protocol front ends served beside the API (KalendsDAV's CalDAV and CardDAV).
  package var frontEnds: [any FrontEnd] = []
  /// Work done beside serving (the fleet's publisher, `kalends serve --fleet-nats`).
  package var companions: [Companion] = []

  package init() {}
}
