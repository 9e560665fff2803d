import Kalends
import Testing

@Suite("The slot table of bulk loaders")
struct ObjectSlotsTests {
  @Test func aTableThatGrowsFindsEverySlotItGaveAndNoOther() {
    var table = ObjectSlots()
    let ids = (0..<50_000).map { _ in ObjectID.random() }
    for (slot, id) in ids.enumerated() {
      let given = table.slot(for: 2, id, next: slot)
      #expect(given.slot == slot && given.isNew)
    }
    #expect(table.count == ids.count)
    // Asked again, under the same kind, each keeps its slot; under another kind it is another key.
    for (slot, id) in ids.enumerated() where slot % 7 == 0 {
      let again = table.slot(for: 2, id, next: ids.count)
      #expect(again.slot == slot && !again.isNew)
      #expect(table.slot(of: 3, id) == nil)
    }
    #expect(ids.indices.allSatisfy { table.slot(of: 2, ids[$0]) == $0 })
    #expect((0..<1_000).allSatisfy { _ in table.slot(of: 2, ObjectID.random()) == nil })
    #expect(table.count == ids.count)
  }

  @Test func theSameIdentifierUnderTwoKindsHasTwoSlots() {
    var table = ObjectSlots(capacity: 4)
    let id = ObjectID.random()
    #expect(table.slot(for: 1, id, next: 0) == (0, true))
    #expect(table.slot(for: 2, id, next: 1) == (1, true))
    #expect(table.slot(of: 1, id) == 0)
    #expect(table.slot(of: 2, id) == 1)
    #expect(table.count == 2)
  }

  @Test func aCopyIsAValueOfItsOwn() {
    var table = ObjectSlots()
    let (first, second) = (ObjectID.random(), ObjectID.random())
    _ = table.slot(for: 2, first, next: 0)
    var copy = table
    _ = copy.slot(for: 2, second, next: 1)
    #expect(copy.slot(of: 2, second) == 1 && copy.slot(of: 2, first) == 0)
    #expect(table.slot(of: 2, second) == nil && table.slot(of: 2, first) == 0)
    #expect((table.count, copy.count) == (1, 2))
  }
}
