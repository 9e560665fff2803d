internal import Foundation

/// The indexing side of a rebuild of `range.instances`, run in the background while the writer
/// appends: the live items are cut into units (a calendar's items, in slices of a bounded size),
/// which workers index and sort in order, at most ``lookahead`` units ahead of the one the writer
/// waits for. A unit that holds its whole calendar is also coded into blocks by its worker
/// (``CodedBlocks``). The writer reads a calendar's units once they are all indexed, appends their
/// coded blocks or merges them into blocks (``MergedBlocks``), and releases them; a released unit's
/// buffers are handed to the next units indexed, so the index is held a few calendars at a time in
/// memory that stays warm
/// (indexing all of it up front touched as much fresh memory as the index takes, and the page
/// faults cost more than the sort).
final class RangeIndexPipeline: @unchecked Sendable {
  /// One unit of work: a slice of one calendar's items.
  struct Unit: Sendable {
    /// The calendar's number (its place in key order).
    let calendar: Int
    /// The unit's items, as a range of the loader's items grouped by calendar.
    let slots: Range<Int>
    /// The calendar, when the unit holds all its items: the worker then codes its blocks
    /// (``CodedBlocks``), which the writer would otherwise merge and code from the units' parts.
    var whole: ObjectID? = nil
  }

  /// What indexing one unit gave: its instances sorted in key order, where each of the calendar's
  /// runs starts in them (``InstanceEntry/runs`` offsets and one more), its open series (sorted by
  /// item) and the items whose indexing the loader had not foretold (in the order indexed), as
  /// slots of the loader's items, and the longest instance of each run (`Int64.min`: none).
  struct Part: Sendable {
    var entries: [InstanceEntry] = []
    var runStarts: [Int] = []
    /// The calendar's blocks, coded, in place of `entries` when the unit is the whole calendar.
    var coded: CodedBlocks?
    var openSeries: [(calendar: ObjectID, id: ObjectID, slot: Int)] = []
    var corrections: [(id: ObjectID, slot: Int)] = []
    var longest = [Int64](repeating: .min, count: InstanceEntry.runs)
  }

  let units: [Unit]
  /// How many units workers may index ahead of the one the writer waits for: eight per worker, so
  /// that workers keep indexing while the `objects` loader holds the write lock and the writer
  /// cannot take their units (with fewer, a core idles); each unit held ahead costs its entries'
  /// memory until written.
  private let lookahead: Int
  private let index:
    @Sendable (Unit, _ entries: inout [InstanceEntry], _ scratch: inout InstanceEntry.SortScratch) throws -> Part

  private let condition = NSCondition()
  /// The units indexed and not released, by number.
  private var results: [Int: Result<Part, any Error>] = [:]
  /// What each unit indexed besides its instances, kept after the unit is released (its lists only
  /// until they are gathered), and how many units are indexed.
  private var summaries: [Part?]
  private var indexed = 0
  /// Every unit's open series and corrections in key order, gathered by the worker that indexed
  /// the last unit (so that the writer does not sort them after its last instance).
  private var gathered: Part?
  /// The next unit a worker takes, the unit the writer waits for or has read, and the units
  /// released (every unit below it).
  private var next = 0
  private var wanted = 0
  private var released = 0
  /// Buffers of released units, for the next units indexed, and for the next blocks coded.
  private var buffers: [[InstanceEntry]] = []
  private var codedBuffers: [[UInt8]] = []
  private var cancelled = false

  /// Starts `workers` threads that index `units` with `index`, which appends a unit's instances,
  /// sorted, to an empty buffer whose capacity is reused, and returns the rest of the part; it is
  /// also given a scratch buffer that each worker keeps.
  init(
    units: [Unit], workers: Int,
    index:
      @escaping @Sendable (Unit, _ entries: inout [InstanceEntry], _ scratch: inout InstanceEntry.SortScratch) throws ->
      Part
  ) {
    (self.units, self.index) = (units, index)
    lookahead = 8 * workers
    summaries = Array(repeating: nil, count: units.count)
    if units.isEmpty { gathered = Part() }
    for _ in 0..<min(workers, units.count) {
      Thread { [self] in work() }.start()
    }
  }

  private func work() {
    var scratch = InstanceEntry.SortScratch()
    // The instances of a unit whose blocks this worker coded stay here, for its next unit.
    var buffer: [InstanceEntry] = []
    while true {
      condition.lock()
      while !cancelled && next < units.count && next >= wanted + lookahead { condition.wait() }
      guard !cancelled, next < units.count else {
        condition.unlock()
        return
      }
      let unit = next
      next += 1
      if buffer.capacity == 0 { buffer = buffers.popLast() ?? [] }
      let whole = units[unit].whole
      let codedBuffer = whole == nil ? [] : codedBuffers.popLast() ?? []
      condition.unlock()
      buffer.removeAll(keepingCapacity: true)
      let result = Result { () throws -> Part in
        var part = try index(units[unit], &buffer, &scratch)
        if let whole {
          part.coded = CodedBlocks(
            MergedBlocks([buffer], runStarts: [part.runStarts], calendar: whole), instances: buffer.count,
            into: codedBuffer)
        } else {
          part.entries = buffer
          buffer = []
        }
        return part
      }
      condition.lock()
      results[unit] = result
      if case .success(let part) = result {
        summaries[unit] = Part(
          entries: [], openSeries: part.openSeries, corrections: part.corrections, longest: part.longest)
        indexed += 1
      }
      let isLast = indexed == units.count
      let summaries = isLast ? self.summaries : []
      condition.broadcast()
      condition.unlock()
      if isLast { gather(summaries) }
    }
  }

  /// Sorts the open series of every unit by calendar and item (each unit's come sorted by item, and
  /// a unit holds one calendar, so the sort merges runs), and the corrections by item.
  private func gather(_ summaries: [Part?]) {
    var all = Part()
    all.corrections.reserveCapacity(summaries.reduce(0) { $0 + $1!.corrections.count })
    for part in summaries {
      all.openSeries += part!.openSeries
      all.corrections += part!.corrections
    }
    all.openSeries.sort { ($0.calendar, $0.id) < ($1.calendar, $1.id) }
    IdentifierOrder.sort(&all.corrections) { $0.id }
    condition.lock()
    gathered = all
    // Only the longest durations are read from the summaries from now on: their lists, gathered,
    // would otherwise be held twice until the load is written.
    for unit in self.summaries.indices {
      self.summaries[unit]?.openSeries = []
      self.summaries[unit]?.corrections = []
    }
    condition.broadcast()
    condition.unlock()
  }

  /// The parts of `units`, in order, waiting for them to be indexed when `wait` is true (else `nil`
  /// when one is not indexed yet); rethrows an error a worker met indexing one.
  func parts(_ wantedUnits: Range<Int>, wait: Bool) throws -> [Part]? {
    condition.lock()
    defer { condition.unlock() }
    if let last = wantedUnits.last, last > wanted {
      wanted = last
      condition.broadcast()
    }
    var parts: [Part] = []
    for unit in wantedUnits {
      while results[unit] == nil {
        guard wait, !cancelled else { return nil }
        condition.wait()
      }
      parts.append(try results[unit]!.get())
    }
    return parts
  }

  /// Releases every unit below `unit` (their instances are written); their buffers are reused.
  func release(below unit: Int) {
    condition.lock()
    defer { condition.unlock() }
    while released < unit {
      if case .success(let part)? = results.removeValue(forKey: released) {
        if part.entries.capacity > 0 { buffers.append(part.entries) }
        if let coded = part.coded { codedBuffers.append(coded.bytes) }
      }
      released += 1
    }
  }

  /// Every unit's open series (sorted by calendar and item) and corrections (sorted by item), and
  /// the longest instance of each run of each unit, in unit order; once every unit is read.
  func summary() -> (gathered: Part, longest: [[Int64]]) {
    condition.lock()
    defer { condition.unlock() }
    while gathered == nil && !cancelled { condition.wait() }
    return (gathered ?? Part(), summaries.map { $0?.longest ?? [] })
  }

  /// Stops the workers (once the load is written, or given up).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// Cancels the pipeline when the last copy of the loader holding it goes.
  final class Owner: @unchecked Sendable {
    let pipeline: RangeIndexPipeline

    init(_ pipeline: RangeIndexPipeline) { self.pipeline = pipeline }

    deinit { pipeline.cancel() }
  }
}
