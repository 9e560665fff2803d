import Foundation
import Kalends
import KalendsFormats

/// One app's timeline as SVG: a lane per service on the report's time axis, with its decisions
/// (diamonds, labelled with the new status), requests (rings), refused calls (crosses) and reads
/// (bars, taller for more). Requests, refusals and reads are gathered into bins a few pixels wide,
/// so that a year of history draws in as many shapes as a day. Every shape carries a `<title>`;
/// the figure's caption says the same in words (shapes, labels and text, never colour alone).
struct ReportTimeline {
  /// The axis.
  let start: Timestamp
  let end: Timestamp
  /// The zone its ticks fall and read in: the person's.
  var zone: ZoneRules = .utc

  static let width = 760.0
  static let left = 96.0
  static let right = 16.0
  static let laneHeight = 40.0
  static let axisHeight = 22.0
  static let binWidth = 5.0

  var plotWidth: Double { Self.width - Self.left - Self.right }

  /// The x of `time`, clamped to the plot.
  func x(_ time: Timestamp) -> Double {
    let span = Double(max(1, end.rawValue - start.rawValue))
    let fraction = Double(time.rawValue - start.rawValue) / span
    return Self.left + min(1, max(0, fraction)) * plotWidth
  }

  /// What one lane shows.
  struct Lane {
    let service: Service
    var decisions: [AuditEntry] = []
    var requests: [AuditEntry] = []
    /// Refused calls: when, and how many.
    var refusals: [(Timestamp, Int)] = []
    var uses: [AccessUse] = []
    /// Where each minute of reads is drawn, and how many: not before the decision in force at its
    /// last read when that decision fell in the same minute (``ReportPage``).
    var reads: [(Timestamp, Int)] = []
  }

  /// The SVG of `lanes`, for the app `app` (its name), with the sentences of `names`.
  func svg(app: String, lanes: [Lane], names: AuditNames, id: String) -> String {
    let height = Self.axisHeight + Double(lanes.count) * Self.laneHeight + 4
    var out = """
      <svg class="timeline" viewBox="0 0 \(Int(Self.width)) \(Int(height))" width="\(Int(Self.width))" \
      height="\(Int(height))" role="img" aria-labelledby="\(id)-caption" xmlns="http://www.w3.org/2000/svg">
      """
    out += axis(height: height)
    for (index, lane) in lanes.enumerated() {
      let top = Self.axisHeight + Double(index) * Self.laneHeight
      let middle = top + Self.laneHeight / 2
      out += """
        <line class="lane" x1="\(Self.left)" y1="\(middle)" x2="\(Self.width - Self.right)" y2="\(middle)"/>\
        <text class="lane-label" x="4" y="\(middle + 4)">\(lane.service.description)</text>
        """
      out += bars(lane.reads, baseline: top + Self.laneHeight - 3, title: "read")
      out += binned(lane.requests.map { ($0.timestamp, $0.count ?? 1) }, title: "request", element: "circle") { x in
        "class=\"request\" cx=\"\(x)\" cy=\"\(middle)\" r=\"4.5\""
      }
      out += binned(lane.refusals, title: "refused call", element: "path") { x in
        let (a, b, c, d) = (x - 4, middle - 4, x + 4, middle + 4)
        return "class=\"refusal\" d=\"M\(a) \(b)L\(c) \(d)M\(a) \(d)L\(c) \(b)\""
      }
      // Decisions closer than a label's width share one label: the last one's, the status that
      // held when they were over.
      var labels: [(x: Double, text: String)] = []
      for decision in lane.decisions {
        let x = Self.round(self.x(decision.occurred))
        let status = decision.status ?? .notDetermined
        let (y, s) = (middle, 6.0)
        out += """
          <polygon class="decision \(Self.statusClass(status))" \
          points="\(x),\(y - s) \(x + s),\(y) \(x),\(y + s) \(x - s),\(y)"><title>\(HTMLText.escape(
            "\(ReportPage.localTime(decision.occurred, in: zone)) — \(decision.sentence(names: names))"))</title></polygon>
          """
        if let first = labels.last, x - first.x < 56 {
          labels[labels.count - 1].text = Self.shortWords(decision)
        } else {
          labels.append((x, Self.shortWords(decision)))
        }
      }
      for label in labels {
        out +=
          "<text class=\"decision-label\" x=\"\(label.x)\" y=\"\(middle - 9)\">\(HTMLText.escape(label.text))</text>"
      }
    }
    return out + "</svg>"
  }

  /// The time axis: a baseline and ticks at a round step of the person's wall clock (midnights,
  /// whole hours), labelled in their zone.
  private func axis(height: Double) -> String {
    let span = max(1, end.rawValue - start.rawValue)
    let steps: [Int64] = [
      1, 5, 15, 60, 300, 900, 3_600, 3 * 3_600, 6 * 3_600, 86_400, 7 * 86_400, 30 * 86_400, 365 * 86_400,
    ].map { $0 * 1_000_000 }
    let step = steps.first { span / $0 <= 6 } ?? 365 * 86_400_000_000
    var out = "<line class=\"axis\" x1=\"\(Self.left)\" y1=\"\(Self.axisHeight - 6)\" "
    out += "x2=\"\(Self.width - Self.right)\" y2=\"\(Self.axisHeight - 6)\"/>"
    // Ticks round on the wall clock: the offset at the axis's start moves them (a change of offset
    // within the axis moves a tick by the change, which a label then shows).
    let offset = Int64(zone.offset(atUTC: start.rawValue / 1_000_000)) * 1_000_000
    var tick = ((start.rawValue + offset) / step + 1) * step - offset
    while tick <= end.rawValue {
      let x = Self.round(self.x(Timestamp(rawValue: tick)))
      let text = Self.wallClock(Timestamp(rawValue: tick), in: zone)
      // Days show the date, shorter steps the time of day.
      let label =
        step >= 86_400_000_000 ? String(text.prefix(10)) : String(text.dropFirst(11).prefix(step < 60_000_000 ? 8 : 5))
      out += "<line class=\"tick\" x1=\"\(x)\" y1=\"\(Self.axisHeight - 9)\" x2=\"\(x)\" y2=\"\(height - 2)\"/>"
      out += "<text class=\"tick-label\" x=\"\(x)\" y=\"\(Self.axisHeight - 11)\">\(label)</text>"
      tick += step
    }
    return out
  }

  /// `instant` on the wall clock of `zone`: `2026-11-29T08:30:00`.
  static func wallClock(_ instant: Timestamp, in zone: ZoneRules) -> String {
    let seconds = instant.rawValue >= 0 ? instant.rawValue / 1_000_000 : (instant.rawValue - 999_999) / 1_000_000
    guard let local = zone.localDateTime(atUTC: seconds) else { return instant.description }
    return local.description
  }

  /// Bars of reads per bin, their height growing with the bin's count (logarithmically).
  private func bars(_ points: [(Timestamp, Int)], baseline: Double, title: String) -> String {
    let bins = binCounts(points)
    guard let most = bins.map(\.count).max() else { return "" }
    var out = ""
    for bin in bins {
      let height: Double = 4 + 12 * Foundation.log2(Double(bin.count) + 1) / Foundation.log2(Double(most) + 1)
      out += "<rect class=\"use\" x=\"\(bin.x - 2)\" y=\"\(Self.round(baseline - height))\" width=\"4\" "
      out += "height=\"\(Self.round(height))\"><title>\(bin.count) \(title)\(bin.count == 1 ? "" : "s") "
      out += "from \(ReportPage.localTime(bin.first, in: zone))</title></rect>"
    }
    return out
  }

  /// One shape per non-empty bin, with its count in its title.
  private func binned(
    _ points: [(Timestamp, Int)], title: String, element: String, attributes: (Double) -> String
  ) -> String {
    var out = ""
    for bin in binCounts(points) {
      let plural = bin.count == 1 ? "" : "s"
      out += "<\(element) \(attributes(bin.x))><title>\(bin.count) \(title)\(plural) from "
      out += "\(ReportPage.localTime(bin.first, in: zone))</title>"
      out += "</\(element)>"
    }
    return out
  }

  private func binCounts(_ points: [(Timestamp, Int)]) -> [(x: Double, count: Int, first: Timestamp)] {
    var bins: [Int: (count: Int, first: Timestamp)] = [:]
    for (time, count) in points {
      let bin = Int((x(time) - Self.left) / Self.binWidth)
      let existing = bins[bin]
      bins[bin] = ((existing?.count ?? 0) + count, min(existing?.first ?? time, time))
    }
    return bins.keys.sorted().map { bin in
      (Self.round(Self.left + (Double(bin) + 0.5) * Self.binWidth), bins[bin]!.count, bins[bin]!.first)
    }
  }

  static func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }

  /// The CSS class of a status's colour.
  static func statusClass(_ status: AuthorizationStatus) -> String {
    switch status {
    case .fullAccess: "granted"
    case .writeOnly, .limited: "partial"
    case .denied, .restricted: "refused"
    case .notDetermined: "unset"
    }
  }

  /// A decision's label on the timeline: the new status, or what was chosen.
  static func shortWords(_ decision: AuditEntry) -> String {
    switch decision.kind {
    case .accessScopeChanged: "chosen"
    case .contactPicked: "picked"
    default: decision.status?.words ?? ""
    }
  }
}
