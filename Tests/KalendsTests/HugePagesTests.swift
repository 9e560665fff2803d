import Foundation
import Kalends
import Testing

@Suite("Huge pages under the large buffers of a rebuild")
struct HugePagesTests {
  /// Whether the kernel gives transparent huge pages, at least on request.
  static let offered =
    (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8))
    .map { !$0.contains("[never]") } ?? false

  @Test func reservingKeepsTheElementsAndTheRoomAsked() {
    var small: [Int] = [4, 5]
    HugePages.reserve(&small, capacity: 10)
    #expect(small == [4, 5] && small.capacity >= 10)
    var large: [UInt64] = [1, 2, 3]
    HugePages.reserve(&large, capacity: 3 << 20)
    #expect(large == [1, 2, 3] && large.capacity >= 3 << 20)
  }

  /// What Kalends controls is the advice: the buffer's mappings are marked for huge pages
  /// (`MADV_HUGEPAGE`, `hg` in smaps' `VmFlags`). Whether the kernel then backs them with huge
  /// pages depends on the machine's free, unfragmented memory (on a shared machine after a long
  /// test run, often not), so it is not asserted.
  @Test(.enabled(if: offered)) func aLargeReservedBufferIsAdvisedForHugePages() throws {
    var buffer: [UInt64] = [1, 2, 3]
    HugePages.reserve(&buffer, capacity: 4 << 20)
    let capacity = buffer.capacity
    buffer.append(contentsOf: repeatElement(7, count: (4 << 20) - 3))
    #expect(buffer.capacity == capacity)
    let base = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) }
    let end = base + UInt(buffer.count * MemoryLayout<UInt64>.stride)
    // The mappings that hold the buffer, in /proc/self/smaps (the advice splits the allocator's
    // mapping at the 2 MiB boundaries): 32 MiB filled.
    // Read to its end: a file of /proc tells no size, and a read of its size stops short.
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
    let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    var overlaps = false
    var advisedBytes: UInt = 0
    var bounds: [UInt] = []
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
        bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
        overlaps = bounds.count == 2 && bounds[0] < end && base < bounds[1]
      } else if overlaps, fields.first == "VmFlags:", fields.contains("hg") {
        advisedBytes += min(end, bounds[1]) - max(base, bounds[0])
      }
    }
    // All but the partial 2 MiB pages at either end of the 32 MiB are advised.
    #expect(advisedBytes >= end - base - 4 << 20, "\(advisedBytes) of \(end - base) bytes advised")
    #expect(buffer[3] == 7 && buffer.last == 7)
  }
}
