import Kalends
import KalendsSynthetic
import Testing

@Suite("Identifier order of bulk loads")
struct IdentifierOrderTests {
  /// Sorts `ids` paired with their places, and checks the result against a comparison sort.
  private func expectSortedLikeComparison(_ ids: [ObjectID]) {
    var pairs = ids.enumerated().map { (id: $0.element, slot: $0.offset) }
    IdentifierOrder.sort(&pairs) { $0.id }
    #expect(pairs.map(\.id) == ids.sorted())
    // Every element is kept with its own payload, once.
    #expect(pairs.allSatisfy { ids[$0.slot] == $0.id })
    #expect(Set(pairs.map(\.slot)).count == ids.count)
  }

  @Test(arguments: [0, 1, 2, 63, 64, 65, 1_000, 100_000])
  func randomIdentifiersComeOutInOrder(count: Int) {
    expectSortedLikeComparison((0..<count).map { _ in ObjectID.random() })
  }

  /// Identifiers that share their top bits fall in one bucket: it is sorted by comparison.
  @Test func identifiersInOneBucketComeOutInOrder() {
    var random = SeededGenerator(seed: 0x1D0)
    let ids = (0..<5_000).map { _ in
      ObjectID(bytes: [0, 0, 0, 0] + (0..<12).map { _ in UInt8.random(in: 0...255, using: &random) })!
    }
    expectSortedLikeComparison(ids)
  }

  /// Buckets of a few elements each (one per element on average), some holding an identifier
  /// twice, are sorted by insertion.
  @Test func smallBucketsAndRepeatsComeOutInOrder() {
    var random = SeededGenerator(seed: 0x1D1)
    let distinct = (0..<3_000).map { _ in
      ObjectID(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })!
    }
    expectSortedLikeComparison(distinct + distinct.prefix(500))
  }
}
