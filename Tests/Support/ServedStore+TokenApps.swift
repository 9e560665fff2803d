import Foundation
import Testing

extension ServedStore {
  /// Registers the app `id`, sets its calendars access with `access` (the arguments of `access
  /// set` after the service, none to leave it unasked) and creates a token for it; the token's
  /// secret, for a client that reaches the server over TCP (CalDAV, CardDAV, the HTTP API).
  package func tokenApp(_ id: String, access: [String]) throws -> String {
    try store.register(id)
    if !access.isEmpty {
      try store.object(["access", "set", id, "--service", "calendars"] + access)
    }
    let token = try store.object(["client", "token", "create", id, "--label", "dav"])
    return try #require(token["secret"] as? String)
  }

  /// curl (the system's: over TCP the executable identifies nothing) for `method url`, with
  /// `token` as the Basic password as DAV clients send it: the status, the body and the
  /// `WWW-Authenticate` header.
  package static func request(
    _ method: String, _ url: String, token: String?, body: String? = nil, headers: [String] = []
  ) throws -> (status: Int, body: String, challenge: String) {
    var arguments = ["-s", "-X", method, "-w", "\n%{http_code}\n%header{www-authenticate}"]
    if let token { arguments += ["-u", "calendar-app:\(token)"] }
    for header in headers { arguments += ["-H", header] }
    if let body { arguments += ["--data-binary", body] }
    let result = try CLI.run(arguments + [url], program: try curl())
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(lines.count >= 2, "\(method) \(url): \(result.stdout) \(result.stderr)")
    let status = try #require(Int(lines[lines.count - 2]), "\(result.stdout)")
    return (status, lines.dropLast(2).joined(separator: "\n"), String(lines[lines.count - 1]))
  }
}
