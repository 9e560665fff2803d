import Foundation
import KalendsTestSupport
import Testing

/// WebDAV-Push to push services over HTTPS, as real ones are (ntfy, Mozilla's autopush, FCM): the
/// receiver serves TLS with a certificate `openssl` made, trusted by `kalends serve` through
/// `SSL_CERT_FILE`; one whose certificate the server does not trust is told nothing.
@Suite("WebDAV-Push: push services over TLS, their certificates checked")
struct DAVPushTLSTests {
  @Test func aPushServiceOverHTTPSIsToldAndOneWithAnUntrustedCertificateIsNot() throws {
    let store = try CLIStore()
    let trusted = try TestCertificates.authority(in: store.directory, "push")
    let served = try ServedStore(
      serving: store, ["--listen", "127.0.0.1:0", "--push-allow-loopback"],
      environment: ["SSL_CERT_FILE": trusted.ca])
    defer { served.stop() }
    let base = "http://" + (try #require(served.tcpAddress))
    let receiver = try DAVPushDeliveryTests.Receiver(store.directory.path, tls: (trusted.cert, trusted.key))
    // Another authority's certificate for the same address: not one the server trusts.
    let aside = store.directory.path + "/stranger"
    try FileManager.default.createDirectory(atPath: aside, withIntermediateDirectories: true)
    let stranger = try TestCertificates.authority(in: store.directory, "stranger")
    let impostor = try DAVPushDeliveryTests.Receiver(aside, tls: (stranger.cert, stranger.key))
    let work = try store.calendar("Work")
    let app = try served.tokenApp("org.example.full", access: ["--status", "full"])
    for (target, path) in [(receiver, "/ok/tls"), (impostor, "/ok/impostor")] {
      let answer = try target.register(app, on: base + "/dav/calendars/\(work)/", path)
      try #require(answer.0 == 201, "\(answer)")
    }
    Thread.sleep(forTimeInterval: 0.5)  // The delivery has taken its first look.
    try store.object(["event", "add", "--calendar", work, "--title", "Standup", "--start", "2026-12-01T09:00"])
    let heard = try receiver.wait(for: 1, to: "/ok/tls")
    let push = try #require(heard.first, "nothing came over TLS")
    #expect(push["vapid"] as? String == "ok", "\(push)")
    #expect((push["message"] as? String)?.contains("push-message") == true, "\(push)")
    // The impostor's handshake is refused: no request reaches it.
    let refused = try impostor.wait(for: 1, to: "/ok/impostor", seconds: 3)
    #expect(refused.isEmpty, "\(refused)")
  }
}
