extension Dictionary where Value == Int {
  /// The slot of `key`, after giving it `next` when it has none, in one hash lookup (a lookup and
  /// then an insertion hash the key twice); whether it was given. Slots are below `next`.
  mutating func slot(for key: Key, next: Int) -> (slot: Int, isNew: Bool) {
    func read(_ value: inout Int) -> Int { value }
    let slot = read(&self[key, default: next])
    return (slot, slot == next)
  }
}
