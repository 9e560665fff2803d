internal import CPrefetch

/// Transparent huge pages for the large buffers of a rebuild, which are filled once from start to
/// end: a 1M-event rebuild touched about a gigabyte of fresh memory 4 KiB at a time, some 230,000
/// page faults and a second of system time. Where the kernel offers transparent huge pages only on
/// request (`madvise`, Debian's default), buffers reserved here get 2 MiB pages when first touched.
package enum HugePages {
  /// Buffers smaller than this are left to the allocator as they are.
  package static let threshold = 4 << 20

  /// Reserves room for at least `capacity` elements in `array` and, when that is a large buffer,
  /// asks for huge pages under it (the elements already there are copied first, and their pages
  /// keep their size).
  package static func reserve<Element>(_ array: inout [Element], capacity: Int) {
    array.reserveCapacity(capacity)
    let bytes = array.capacity * MemoryLayout<Element>.stride
    guard bytes >= threshold else { return }
    // The buffer pointer of an array with reserved room starts at its storage, also when empty.
    array.withUnsafeMutableBufferPointer { buffer in
      if let base = buffer.baseAddress { kalends_advise_huge_pages(base, bytes) }
    }
  }

  /// Asks for huge pages under `buffer` when it is large and not touched yet.
  package static func advise<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
    let bytes = buffer.count * MemoryLayout<Element>.stride
    guard bytes >= threshold, let base = buffer.baseAddress else { return }
    kalends_advise_huge_pages(base, bytes)
  }
}
