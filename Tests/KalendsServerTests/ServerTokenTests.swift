import Foundation
import KalendsTestSupport
import Testing

/// Apps over TCP: identified by the tokens the person created for them, refused without one or
/// with a revoked one, over TLS when the server has a certificate.
@Suite("The store server identifies TCP apps by their tokens")
struct ServerTokenTests {
  /// curl (the system's: over TCP the executable identifies nothing) for `method URL`, printing
  /// the body, then the status and the `WWW-Authenticate` header on lines of their own.
  static func curl(
    _ method: String, _ url: String, token: String?, body: String? = nil, extra: [String] = []
  ) throws -> (status: Int, body: Any?, challenge: String) {
    var arguments = ["-s", "-X", method, "-w", "\n%{http_code}\n%header{www-authenticate}"] + extra
    if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
    if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
    let result = try CLI.run(arguments + [url], program: try ServedStore.curl())
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(lines.count >= 2, "\(method) \(url): \(result.stdout) \(result.stderr)")
    let status = try #require(Int(lines[lines.count - 2]), "\(result.stdout) \(result.stderr)")
    let text = lines.dropLast(2).joined(separator: "\n")
    return (status, text.isEmpty ? nil : try json(text), String(lines[lines.count - 1]))
  }

  /// A registered app with full access to calendars and a token; the token's JSON.
  static func tokenApp(_ served: ServedStore) throws -> [String: Any] {
    try served.store.register("com.example.sync")
    try served.store.object(["access", "set", "com.example.sync", "--service", "calendars", "--status", "full"])
    return try served.store.object(["client", "token", "create", "com.example.sync", "--label", "laptop"])
  }

  @Test func aTokenAppWorksUntilItsTokenIsRevoked() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let token = try Self.tokenApp(served)
    let secret = try #require(token["secret"] as? String)
    let id = try #require(token["id"] as? String)
    #expect(secret.hasPrefix("kalends_") && secret.count == 51)

    // Identified by its token; its records carry the token id and its address, never the secret.
    let whoami = try Self.curl("GET", base + "/v1/whoami", token: secret)
    #expect(whoami.status == 200)
    let me = try #require(whoami.body as? [String: Any])
    #expect(me["client"] as? String == "com.example.sync")
    #expect(me["identifiedBy"] as? String == "token")
    #expect(me["tokenId"] as? String == id)
    let calendar = try served.store.calendar("Work")
    let lunch = """
      {"calendarId":"\(calendar)","title":"Lunch","start":"2026-03-03T12:00:00","end":"2026-03-03T13:00:00"}
      """
    let created = try Self.curl("POST", base + "/v1/events", token: secret, body: lunch)
    #expect(created.status == 201)
    let saved = try #require(try served.records("eventSaved").last)
    let caller = try #require(saved["caller"] as? [String: Any])
    #expect(caller["tokenId"] as? String == id)
    #expect((caller["address"] as? String)?.hasPrefix("127.0.0.1:") == true)
    let data = try Data(contentsOf: URL(fileURLWithPath: served.store.directory.storePath + "/data.mdb"))
    #expect(data.range(of: Data(secret.utf8)) == nil, "the secret is in the store's file")

    // Without a token, or with one never created: 401 with the Bearer challenge, and recorded.
    let bare = try Self.curl("GET", base + "/v1/calendars", token: nil)
    #expect(bare.status == 401)
    #expect(bare.challenge.hasPrefix("Bearer"))
    #expect(bare.body.flatMap { ($0 as? [String: Any])?["title"] as? String } == "caller not identified")
    let forged = try Self.curl("GET", base + "/v1/calendars", token: "kalends_" + String(repeating: "A", count: 43))
    #expect(forged.status == 401)
    let unidentified = try served.records("callerUnidentified")
    #expect(!unidentified.isEmpty)
    #expect(
      unidentified.allSatisfy {
        (($0["payload"] as? [String: Any])?["address"] as? String)?.hasPrefix("127.0.0.1:") == true
      })

    // An open change stream ends when the person revokes the token; later calls are refused.
    let (process, output, _) = try CLI.start(
      ["-N", "-s", "-H", "Authorization: Bearer \(secret)", base + "/v1/changes"],
      program: try ServedStore.curl())
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // The stream says when it is open (an SSE comment): the revocation comes after.
    let opened = ServerChangeTests.read(output.fileHandleForReading, until: ": open")
    #expect(opened.contains(": open"), "\(opened)")
    let revoked = try served.store.object(["client", "token", "revoke", "com.example.sync", id])
    #expect(revoked["id"] as? String == id)
    let decided = Date()
    let heard = ServerChangeTests.read(output.fileHandleForReading, until: "sessionEnded")
    let latency = Date().timeIntervalSince(decided)
    let ended = try ServerChangeTests.events("sessionEnded", in: heard)
    #expect(ended.first?.data["token"] as? String == id)
    #expect(latency < 0.5, "the stream ended \(Int(latency * 1000)) ms after the revocation")
    let after = try Self.curl("GET", base + "/v1/whoami", token: secret)
    #expect(after.status == 401)
    #expect(try served.store.objects(["client", "token", "list"]).isEmpty)
    let history = try served.store.objects(["audit", "history", "--client", "com.example.sync"]).compactMap {
      $0["kind"] as? String
    }
    #expect(history.contains("clientTokenCreated") && history.contains("clientTokenRevoked"))
  }

  @Test func anAppCannotManageTokensAndTheSocketsOwnerCanNotUseOne() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let token = try Self.tokenApp(served)
    let secret = try #require(token["secret"] as? String)
    // The app cannot make itself a token: an owner-only action, refused and recorded.
    let made = try served.store.run(["client", "token", "create", "com.example.sync", "--as", "com.example.sync"])
    #expect(made.status == 68)
    let refusals = try served.store.objects(["audit", "history", "--client", "com.example.sync"]).filter {
      $0["kind"] as? String == "ownerActionRefused"
    }
    #expect(refusals.contains { ($0["operation"] as? String) == "create app tokens" })
    // Over TCP no one is the person: a token app asking for the prompts is refused as the app.
    let base = "http://" + (try #require(served.tcpAddress))
    let prompts = try Self.curl("GET", base + "/v1/prompts", token: secret)
    #expect(prompts.status == 403)
    // A revocation of a token the app does not hold is refused, and writes nothing.
    let head = try served.store.object(["log", "head"])
    let wrong = try served.store.run(["client", "token", "revoke", "com.example.sync", "0123456789abcdef"])
    #expect(wrong.status == 66)
    #expect(try served.store.object(["log", "head"])["head"] as? Int == head["head"] as? Int)
  }

  #if TLS
    @Test func tlsCarriesTokens() throws {
      let directory = TemporaryDirectory("tls")
      let certificate = directory.path + "/cert.pem"
      let key = directory.path + "/key.pem"
      _ = try CLI.python(Self.selfSigned, [certificate, key])
      let served = try ServedStore([
        "--listen", "127.0.0.1:0", "--tls-certificate", certificate, "--tls-key", key,
      ])
      let address = try #require(served.tcpAddress)
      let port = try #require(address.split(separator: ":").last)
      let token = try Self.tokenApp(served)
      let secret = try #require(token["secret"] as? String)
      let whoami = try Self.curl(
        "GET", "https://localhost:\(port)/v1/whoami", token: secret, extra: ["--cacert", certificate])
      #expect(whoami.status == 200)
      #expect((whoami.body as? [String: Any])?["client"] as? String == "com.example.sync")
      // Plain HTTP to the TLS port gets no answer.
      let plain = try CLI.run(
        ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/v1/whoami"],
        program: try ServedStore.curl())
      #expect(plain.stdout != "200")
      // TLS 1.2 and 1.3 only: a client offering 1.0 or 1.1 (with every suite, CBC and SHA-1 too) is
      // refused at the handshake.
      for (version, expected) in [
        ("TLSv1", "refused"), ("TLSv1_1", "refused"), ("TLSv1_2", "TLSv1.2"), ("TLSv1_3", "TLSv1.3"),
      ] {
        let handshake = try CLI.python(Self.handshake, [String(port), version])
        #expect(handshake.hasPrefix(expected), "\(version): \(handshake)")
      }
    }
  #else
    /// Built without the trait TLS, a certificate is refused at start with the way to TLS.
    @Test func aBuildWithoutTLSSaysHowToGetIt() throws {
      let directory = TemporaryDirectory("tls")
      let certificate = directory.path + "/cert.pem"
      let key = directory.path + "/key.pem"
      _ = try CLI.python(Self.selfSigned, [certificate, key])
      let store = try CLIStore()
      let refused = try store.run([
        "serve", "--socket", store.directory.path + "/s.sock", "--listen", "127.0.0.1:0", "--tls-certificate",
        certificate, "--tls-key", key,
      ])
      #expect(refused.status == 64, "\(refused.stderr)")
      #expect(refused.stderr.contains("swift build --traits TLS"), "\(refused.stderr)")
      #expect(!refused.stdout.contains("listening"))
    }
  #endif

  @Test func plainTCPStaysOnLoopback() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let address = try #require(served.tcpAddress)
    // A host name is resolved, and what it resolves to must be loopback: a name that merely
    // starts with 127. is not an address.
    let named = try CLIStore()
    let fake = try named.run([
      "serve", "--socket", named.directory.path + "/s.sock", "--listen", "127.example.invalid:0",
    ])
    #expect(fake.status == 65, "\(fake.stderr)")
    #expect(!fake.stdout.contains("listening"), "nothing is announced before the listener is known good")
    // A port that is taken: the server ends before announcing anything, as a conflict.
    let taken = try named.run(["serve", "--socket", named.directory.path + "/t.sock", "--listen", address])
    #expect(taken.status == 67, "\(taken.stdout) \(taken.stderr)")
    #expect(!taken.stdout.contains("listening"), "\(taken.stdout)")

    // Off loopback without TLS the server refuses to start; a half-given TLS pair too.
    let store = try CLIStore()
    let open = try store.run(["serve", "--socket", store.directory.path + "/s.sock", "--listen", "0.0.0.0:0"])
    #expect(open.status == 65)
    #expect(open.stderr.contains("needs --tls-certificate"))
    let half = try store.run([
      "serve", "--socket", store.directory.path + "/s.sock", "--listen", "127.0.0.1:0", "--tls-key",
      store.directory.path + "/key.pem",
    ])
    #expect(half.status == 65)
  }

  /// Handshakes with 127.0.0.1:argv[1] offering only TLS version argv[2] (`TLSv1`, `TLSv1_1`, …)
  /// with every cipher suite; prints the version agreed, or `refused`.
  static let handshake = """
    import socket, ssl, sys
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_ciphers("ALL:@SECLEVEL=0")
    version = getattr(ssl.TLSVersion, sys.argv[2])
    context.minimum_version = version
    context.maximum_version = version
    try:
        with context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)) as s:
            print(s.version())
    except (ssl.SSLError, OSError) as error:
        print("refused", error)
    """

  /// Writes a self-signed certificate for localhost and 127.0.0.1 and its key, with the
  /// `cryptography` package (tools/setup installs it).
  static let selfSigned = """
    import datetime, ipaddress, sys
    from cryptography import x509
    from cryptography.x509.oid import NameOID
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
            x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256()))
    open(sys.argv[1], "wb").write(cert.public_bytes(serialization.Encoding.PEM))
    open(sys.argv[2], "wb").write(key.private_bytes(serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    """
}
