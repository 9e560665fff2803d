import Kalends
import KalendsTestSupport
import Testing

/// The seal of what the store server shows apps of the log's positions: version tags and position
/// tokens of each app's own, under a secret the store keeps.
@Suite("Privacy: apps are shown tags and tokens, never positions")
struct PositionSealTests {
  @Test func tokensOpenOnlyForTheirAppAndNeverRepeat() throws {
    try withStore { store, _ in
      let seal = try store.positionSeal()
      let agenda = seal.view(for: "com.example.agenda")
      let planner = seal.view(for: "com.example.planner")
      for position in [LogPosition(0), LogPosition(1), LogPosition(41_977), LogPosition(UInt64.max)] {
        let token = agenda.token(position)
        #expect(token.utf8.count == AppPositions.tokenLength)
        #expect(agenda.position(of: token) == position)
        #expect(agenda.token(position) != token, "sealed with a fresh nonce each time")
        #expect(planner.position(of: token) == nil, "another app's token does not open")
      }
      // Any change to a token, or a token of another shape, opens to nothing.
      let token = agenda.token(LogPosition(7))
      for index in [0, 20, 40, 63] {
        var bytes = Array(token.utf8)
        bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(agenda.position(of: String(decoding: bytes, as: UTF8.self)) == nil)
      }
      for text in ["", "7", String(repeating: "A", count: 64), token + "A", String(token.dropLast()), token + "="] {
        #expect(agenda.position(of: text) == nil, "\(text)")
      }
    }
  }

  @Test func tagsAreStablePerVersionAndUnrelatedAcrossApps() throws {
    try withStore { store, _ in
      let seal = try store.positionSeal()
      let agenda = seal.view(for: "com.example.agenda")
      let planner = seal.view(for: "com.example.planner")
      let tags = (1...1_000).map { agenda.tag(LogPosition(UInt64($0))) }
      #expect(Set(tags).count == tags.count)
      #expect(
        tags.allSatisfy { $0.utf8.count == AppPositions.tagLength && $0.utf8.allSatisfy(AppPositions.isBase64URL) })
      #expect(agenda.tag(LogPosition(12)) == tags[11])
      #expect(planner.tag(LogPosition(12)) != tags[11])
    }
  }

  @Test func theSecretIsTheStoresAndOutlivesTheProcess() throws {
    let directory = TemporaryDirectory()
    let (tag, token): (String, String)
    do {
      let store = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
      let view = try store.positionSeal().view(for: "com.example.agenda")
      let head = try store.head().position
      (tag, token) = (view.tag(LogPosition(3)), view.token(head))
      // Making the secret writes no record: the log is shared with auditors, the secret is not.
      #expect(try store.head().position == head)
    }
    let reopened = try Store.open(at: directory.storePath)
    let view = try reopened.positionSeal().view(for: "com.example.agenda")
    #expect(view.tag(LogPosition(3)) == tag)
    #expect(view.position(of: token) == (try reopened.head().position))

    // Another store's secret is another.
    let otherTag = try withStore { other, _ in
      try other.positionSeal().view(for: "com.example.agenda").tag(LogPosition(3))
    }
    #expect(otherTag != tag)
  }
}
