internal import Foundation
internal import Synchronization

/// The UTC offsets of one IANA time zone over time, loaded once per identifier from the system's
/// TZif files and shared process-wide.
///
/// The rules are read from `/usr/share/zoneinfo` (or `/usr/lib/zoneinfo`, `/usr/share/lib/zoneinfo`,
/// `/etc/zoneinfo`), the same files and search path as Python's `zoneinfo`, rather than from
/// Foundation's `TimeZone`, which on Linux carries ICU's own, possibly older, copy of the database.
/// After the last transition in the file the POSIX TZ footer rule applies, for any year.
/// `offset(atUTC:)` and `resolve(_:)` are binary searches; neither calls Foundation.
public struct ZoneRules: Hashable, Sendable, CustomStringConvertible {
  /// The IANA identifier, such as `Europe/Berlin`.
  public let identifier: String
  private let table: Table

  /// Coordinated Universal Time: offset zero, always.
  public static let utc = ZoneRules(identifier: "UTC", table: Table(file: nil))

  private static let searchPath = [
    "/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo", "/etc/zoneinfo",
  ]
  private static let cache = Mutex<[String: ZoneRules]>(["UTC": utc])

  /// The rules of the zone named `identifier`, loaded on first use and cached for the process.
  public static func named(_ identifier: String) throws(ZoneRulesError) -> ZoneRules {
    if let cached = cache.withLock({ $0[identifier] }) { return cached }
    let components = identifier.split(separator: "/", omittingEmptySubsequences: false)
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-./")
    guard !identifier.isEmpty, identifier.count <= 255, identifier.allSatisfy(allowed.contains),
      components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
    else { throw .unknownIdentifier(identifier) }
    var isDirectory: ObjCBool = false
    guard
      let path = searchPath.map({ "\($0)/\(identifier)" }).first(where: {
        FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
      }),
      let data = FileManager.default.contents(atPath: path)
    else { throw .unknownIdentifier(identifier) }
    let file: TZifFile
    do {
      file = try TZifFile(bytes: Array(data))
    } catch {
      guard case .malformed(let reason) = error else { throw .unknownIdentifier(identifier) }
      throw .malformedData(identifier: identifier, reason: reason)
    }
    let rules = ZoneRules(identifier: identifier, table: Table(file: file))
    return cache.withLock { cached in
      if let existing = cached[identifier] { return existing }
      cached[identifier] = rules
      return rules
    }
  }

  private init(identifier: String, table: Table) {
    self.identifier = identifier
    self.table = table
  }

  /// The UTC offset, in seconds east of UTC, in effect at `utc` seconds since 1970.
  public func offset(atUTC utc: Int64) -> Int {
    Int(table.offset(atUTC: utc))
  }

  /// The instant (UTC seconds since 1970) at which the wall clock of this zone shows `local`, by
  /// RFC 5545 §3.3.5: a time inside a gap (clocks jumping forward) is read with the offset before the
  /// gap, so 02:30 on a day clocks jump from 02:00 to 03:00 is 03:30 after the jump; a time that occurs
  /// twice (clocks falling back) means the first occurrence.
  public func resolve(_ local: LocalDateTime) -> Int64 {
    table.resolve(local: local.wallClockSeconds)
  }

  /// The wall-clock time of this zone at `utc` seconds since 1970 (nil outside years 1…9999).
  public func localDateTime(atUTC utc: Int64) -> LocalDateTime? {
    LocalDateTime(wallClockSeconds: utc + table.offset(atUTC: utc))
  }

  func resolve(wallClock: Int64) -> Int64 { table.resolve(local: wallClock) }

  /// What resolving a run of nearby wall-clock times carries from one to the next: where the last
  /// one fell among the zone's transitions, and the POSIX rule's transitions around its year. One
  /// caller (an occurrence iterator) owns it; it starts over when used with another zone.
  struct ResolutionCache {
    fileprivate var table: ObjectIdentifier?
    fileprivate var index = 0
    fileprivate var nearby = PosixTimeZoneRule.NearbyTransitions()
  }

  /// `resolve(wallClock:)`, faster for ascending times: it starts from where the last one fell.
  func resolve(wallClock: Int64, cache: inout ResolutionCache) -> Int64 {
    table.resolve(local: wallClock, cache: &cache)
  }

  /// The instants in `[from, to)` (UTC seconds, before the year 2200) at which the offset changes,
  /// with the offsets before and after: what a VTIMEZONE of the zone lists.
  func transitions(fromUTC from: Int64, toUTC to: Int64) -> [(utc: Int64, before: Int64, after: Int64)] {
    table.transitions(from: from, to: to)
  }

  /// The smallest and largest offsets the zone ever uses, bounding `wall clock − instant`.
  var offsetBounds: (minimum: Int64, maximum: Int64) { (table.minimumOffset, table.maximumOffset) }

  public var description: String { identifier }

  public static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool { lhs.identifier == rhs.identifier }
  public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

  /// Transitions in UTC and in wall-clock terms, searched like Python's `zoneinfo` (`bisect_right`).
  private final class Table: Sendable {
    /// Footer transitions are precomputed into the table up to this year; later ones are computed.
    static let precomputedUntilYear: Int64 = 2200

    let utcTransitions: [Int64]
    /// The wall-clock time from which each transition's offset applies when resolving local times:
    /// the transition instant plus the larger of the offsets before and after it.
    let localTransitions: [Int64]
    let offsets: [Int64]
    let initialOffset: Int64
    let footer: PosixTimeZoneRule?
    let minimumOffset: Int64
    let maximumOffset: Int64

    init(file: TZifFile?) {
      var transitions = file?.transitions ?? []
      var offsets = file?.offsets ?? []
      let initialOffset = file?.initialOffset ?? 0
      let footer = file?.footer
      var allOffsets = (file?.allOffsets ?? []) + [initialOffset]
      if let footer {
        allOffsets.append(footer.standardOffset)
        if let daylight = footer.daylight { allOffsets.append(daylight.offset) }
        let last = transitions.last ?? Int64.min
        let firstYear =
          last == Int64.min ? 1970 : CivilDate.fromDays(last.floorDividedWithRemainder(by: 86_400).quotient).year
        for year in firstYear...Self.precomputedUntilYear {
          guard let (start, end) = footer.transitions(in: year), let daylight = footer.daylight else { break }
          for (time, offset) in [(start, daylight.offset), (end, footer.standardOffset)].sorted(by: { $0.0 < $1.0 })
          where time > (transitions.last ?? Int64.min) {
            transitions.append(time)
            offsets.append(offset)
          }
        }
      }
      var local: [Int64] = []
      local.reserveCapacity(transitions.count)
      for index in transitions.indices {
        let before = index == 0 ? initialOffset : offsets[index - 1]
        local.append(transitions[index] + max(before, offsets[index]))
      }
      self.utcTransitions = transitions
      self.localTransitions = local
      self.offsets = offsets
      self.initialOffset = initialOffset
      self.footer = footer
      self.minimumOffset = allOffsets.min() ?? 0
      self.maximumOffset = allOffsets.max() ?? 0
    }

    func offset(atUTC utc: Int64) -> Int64 {
      offset(at: utc, in: utcTransitions) { $0.offset(atUTC: utc) }
    }

    func transitions(from: Int64, to: Int64) -> [(utc: Int64, before: Int64, after: Int64)] {
      var low = 0
      var high = utcTransitions.count
      while low < high {
        let middle = (low + high) / 2
        if utcTransitions[middle] < from { low = middle + 1 } else { high = middle }
      }
      var result: [(utc: Int64, before: Int64, after: Int64)] = []
      var index = low
      while index < utcTransitions.count, utcTransitions[index] < to {
        let before = index == 0 ? initialOffset : offsets[index - 1]
        if before != offsets[index] { result.append((utcTransitions[index], before, offsets[index])) }
        index += 1
      }
      return result
    }

    func resolve(local: Int64) -> Int64 {
      local - offset(at: local, in: localTransitions) { local - $0.resolve(local: local) }
    }

    /// `resolve(local:)`, trying the transition interval of the last call and the next one before
    /// searching, and keeping the POSIX rule's transitions of the last year.
    func resolve(local: Int64, cache: inout ResolutionCache) -> Int64 {
      if cache.table != ObjectIdentifier(self) { cache = ResolutionCache(table: ObjectIdentifier(self)) }
      let list = localTransitions
      guard let last = list.last else {
        return footer.map { $0.resolve(local: local, nearby: &cache.nearby) } ?? local - initialOffset
      }
      if local > last, let footer { return footer.resolve(local: local, nearby: &cache.nearby) }
      // `low`: the first transition after `local` (bisect_right), as `offset(at:in:)` finds it.
      var low = cache.index
      func isFirstAfter(_ index: Int) -> Bool {
        (index == 0 || list[index - 1] <= local) && (index == list.count || local < list[index])
      }
      if !isFirstAfter(low) {
        if low < list.count, isFirstAfter(low + 1) {
          low += 1
        } else {
          low = 0
          var high = list.count
          while low < high {
            let middle = (low + high) / 2
            if local < list[middle] { high = middle } else { low = middle + 1 }
          }
        }
      }
      cache.index = low
      return local - (low == 0 ? initialOffset : offsets[low - 1])
    }

    @inline(__always)
    private func offset(at time: Int64, in list: [Int64], footerOffset: (PosixTimeZoneRule) -> Int64) -> Int64 {
      guard let last = list.last else { return footer.map(footerOffset) ?? initialOffset }
      if time > last, let footer { return footerOffset(footer) }
      var low = 0
      var high = list.count
      while low < high {
        let middle = (low + high) / 2
        if time < list[middle] { high = middle } else { low = middle + 1 }
      }
      return low == 0 ? initialOffset : offsets[low - 1]
    }
  }
}
