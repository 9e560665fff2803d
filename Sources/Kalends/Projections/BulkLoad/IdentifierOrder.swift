/// Puts a bulk load's lists in identifier order, for the databases keyed by item.
///
/// Identifiers are random (version 4 UUIDs), so distributing a list by their top bits (about one
/// bucket per element, at most 65,536) leaves buckets of a few elements each, which insertion
/// sorts finish: two passes over the list instead of about log₂ n comparisons per element. A
/// bucket that is not small (identifiers that are not random, such as those of a test) is sorted
/// by comparison, so any identifiers come out in order.
package enum IdentifierOrder {
  /// Below this many elements, a list is sorted by comparison.
  private static let smallList = 64

  /// Sorts `elements` by `id`, ascending (the order of `ObjectID`). Not stable: elements with the
  /// same identifier come out in any order.
  package static func sort<Element>(_ elements: inout [Element], by id: (Element) -> ObjectID) {
    guard elements.count > smallList else {
      elements.sort { id($0) < id($1) }
      return
    }
    let bits = min(16, Int.bitWidth - elements.count.leadingZeroBitCount)
    let shift = UInt64(UInt64.bitWidth - bits)
    func bucket(_ element: Element) -> Int { Int(truncatingIfNeeded: id(element).high >> shift) }
    var starts = [Int](repeating: 0, count: (1 << bits) + 1)
    for element in elements { starts[bucket(element) + 1] += 1 }
    for index in 0..<(1 << bits) { starts[index + 1] += starts[index] }
    var next = starts
    let unordered = elements
    elements = [Element](unsafeUninitializedCapacity: unordered.count) { buffer, count in
      for element in unordered {
        let home = bucket(element)
        (buffer.baseAddress! + next[home]).initialize(to: element)
        next[home] += 1
      }
      count = unordered.count
    }
    elements.withUnsafeMutableBufferPointer { buffer in
      for index in 0..<(1 << bits) {
        buffer.sortGroup(starts[index]..<starts[index + 1]) { id($0) < id($1) }
      }
    }
  }
}
