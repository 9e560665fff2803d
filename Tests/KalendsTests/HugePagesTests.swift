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

  @Test(.enabled(if: offered)) func aLargeReservedBufferIsBackedByHugePagesOnceFilled() throws {
    var buffer: [UInt64] = [1, 2, 3]
    HugePages.reserve(&buffer, capacity: 4 << 20)
    let capacity = buffer.capacity
    buffer.append(contentsOf: repeatElement(7, count: (4 << 20) - 3))
    #expect(buffer.capacity == capacity)
    let base = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) }
    let end = base + UInt(buffer.count * MemoryLayout<UInt64>.stride)
    // The mappings that hold the buffer, in /proc/self/smaps (the advice splits the allocator's
    // mapping at the 2 MiB boundaries): 32 MiB filled, nearly all of it in 2 MiB pages.
    // Read to its end: a file of /proc tells no size, and a read of its size stops short.
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
    let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    var overlaps = false
    var mappings = 0
    var kilobytes = 0
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
        let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
        overlaps = bounds.count == 2 && bounds[0] < end && base < bounds[1]
        if overlaps { mappings += 1 }
      } else if overlaps, fields.first == "AnonHugePages:", fields.count >= 2 {
        kilobytes += Int(fields[1]) ?? 0
      }
    }
    #expect(mappings >= 1)
    #expect(kilobytes >= 16 * 1024, "\(kilobytes) kB of the buffer's 32 MiB in huge pages")
    #expect(buffer[3] == 7 && buffer.last == 7)
  }
}
