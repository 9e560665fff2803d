import Foundation
import KalendsTestSupport
import Testing

/// `https` feeds, as most are: TLS on the system's OpenSSL, against a feed server of Python's
/// `ssl` (Tests/Oracles/feed_server.py) whose certificates `openssl` made. A test's authority is
/// trusted through `SSL_CERT_FILE`, as OpenSSL's default paths allow; without it, only the
/// system's roots are.
@Suite("Command line: feeds over TLS, their certificates checked")
struct SubscriptionTLSTests {
  typealias Feed = SubscriptionTests.Feed

  @Test func anHTTPSFeedIsMirroredWhenItsCertificateIsTrustedAndNamesTheHost() throws {
    let store = try CLIStore()
    let authority = try TestCertificates.authority(
      in: store.directory, "feeds", serverName: "DNS:localhost,IP:127.0.0.1")
    let feed = try Feed(store.directory.path, tls: (authority.cert, authority.key), host: "localhost")
    try feed.serve([SubscriptionTests.event("a@feed", "New Year", day: 1)])
    let trusted = ["SSL_CERT_FILE": authority.ca]
    // By name (sent as SNI and checked against the certificate) and by address.
    let made = try store.object(["subscribe", feed.base + "/feed.ics"], environment: trusted)
    #expect((made["feed"] as? [String: Any])?["created"] as? Int == 1, "\(made)")
    let byAddress = try store.object(
      ["subscribe", "https://127.0.0.1:\(feed.port)/feed.ics", "--title", "By address"], environment: trusted)
    #expect((byAddress["feed"] as? [String: Any])?["created"] as? Int == 1, "\(byAddress)")
    // Refreshed over TLS: unchanged (304), then changed; and a feed of 17 MiB, many TLS records,
    // refused by its size as over plain HTTP.
    let unchanged = try store.run(["subscription", "refresh"], environment: trusted)
    #expect(unchanged.status == 0 && unchanged.stdout.contains("not modified"), "\(unchanged.stdout)")
    try feed.serve([SubscriptionTests.event("a@feed", "New Year's Day", day: 1)])
    let changed = try store.run(["subscription", "refresh", "Holidays"], environment: trusted)
    #expect(changed.status == 0 && changed.stdout.contains("1 changed"), "\(changed.stdout) \(changed.stderr)")
    try feed.serve([], mode: "big")
    let big = try store.run(["subscription", "refresh", "Holidays"], environment: trusted)
    #expect(big.status == 65 && big.stdout.contains("larger than"), "\(big.stdout) \(big.stderr)")
    let events = try store.run(["event", "list", "--calendar", try #require(made["id"] as? String)])
    #expect(events.stdout.contains("New Year's Day"), "\(events.stdout)")
    #expect(feed.requests.filter { $0.hasPrefix("GET /feed.ics") }.count == 6, "\(feed.requests)")
  }

  @Test func aCertificateNotTrustedOrNamingAnotherHostIsRefusedAndNothingIsSent() throws {
    let store = try CLIStore()
    let authority = try TestCertificates.authority(in: store.directory, "feeds", serverName: "DNS:localhost")
    let feed = try Feed(store.directory.path, tls: (authority.cert, authority.key), host: "localhost")
    try feed.serve([SubscriptionTests.event("a@feed", "New Year", day: 1)])
    let head = try store.head()
    let cases: [(url: String, environment: [String: String], reason: String)] = [
      // An authority the system does not trust.
      (feed.base + "/feed.ics", [:], "unable to get local issuer certificate"),
      // Trusted, but the certificate names localhost and not the address asked for.
      ("https://127.0.0.1:\(feed.port)/feed.ics", ["SSL_CERT_FILE": authority.ca], "IP address mismatch"),
    ]
    for (url, environment, reason) in cases {
      let refused = try store.run(["subscribe", url], environment: environment)
      #expect(refused.status == 66, "\(url): \(refused.stderr)")
      #expect(
        refused.stderr.contains("certificate was refused") && refused.stderr.contains(reason), "\(refused.stderr)")
    }
    // A certificate of the trusted authority, for another name.
    let other = try TestCertificates.issued(
      by: authority.ca, subject: "other.example", at: store.directory.path + "/other", serverName: "DNS:other.example")
    let impostor = try Feed(store.directory.path, tls: other, host: "localhost")
    let named = try store.run(["subscribe", impostor.base + "/feed.ics"], environment: ["SSL_CERT_FILE": authority.ca])
    #expect(named.status == 66 && named.stderr.contains("hostname mismatch"), "\(named.stderr)")
    // No request was sent over a connection refused, and nothing was written.
    #expect(feed.requests.isEmpty && impostor.requests.isEmpty, "\(feed.requests)")
    #expect(try store.head() == head)
  }
}
