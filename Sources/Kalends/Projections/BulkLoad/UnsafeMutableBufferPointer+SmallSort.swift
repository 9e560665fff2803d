extension UnsafeMutableBufferPointer {
  /// Above this many elements, ``sortGroup(_:by:)`` sorts by comparison rather than by insertion.
  static var smallGroup: Int { 32 }

  /// Sorts the elements in `range` by `areInIncreasingOrder`: by insertion when they are few (the
  /// groups a bulk load's radix and bucket sorts leave usually hold a few), else with the standard
  /// library's sort.
  func sortGroup(_ range: Range<Int>, by areInIncreasingOrder: (Element, Element) -> Bool) {
    guard range.count > 1 else { return }
    guard range.count <= Self.smallGroup else {
      var group = UnsafeMutableBufferPointer(rebasing: self[range])
      group.sort(by: areInIncreasingOrder)
      return
    }
    for position in (range.lowerBound + 1)..<range.upperBound {
      let element = self[position]
      var slot = position
      while slot > range.lowerBound && areInIncreasingOrder(element, self[slot - 1]) {
        self[slot] = self[slot - 1]
        slot -= 1
      }
      self[slot] = element
    }
  }
}
