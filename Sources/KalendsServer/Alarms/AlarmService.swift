import Foundation
import Kalends
import KalendsFormats
import Logging
import ServiceLifecycle

/// Shows the alarms of events and reminders while `kalends serve` runs: each once, at its time
/// (within a second), through ``DesktopNotifier``.
///
/// It plans the alarms of the next ``horizon`` seconds with
/// ``EventStore/alarms(firingAfter:through:viewerZone:)`` and plans again when a record written
/// since (by anyone, in any process) may change them or the plan nears its end; each second it
/// shows what is due. What it has shown is kept in the store (``Store/alarmsDelivered()``): started again, it
/// shows the alarms it missed — of the last ``missedLookback`` seconds at most, the first
/// ``missedShown`` one by one and the rest counted in one more — once, as missed. A crash between
/// showing an alarm and keeping that may show it again.
struct AlarmService: ServiceLifecycle.Service {
  /// How far ahead alarms are planned: a plan reads the occurrences of four weeks and a day
  /// (``EventStore/alarmLead``), which is work on a large store, so it is made at start, once an
  /// hour, and when a change may matter (``EventStore/alarmsMayHaveChanged(after:planned:limit:)``).
  static let horizon: Int64 = 3_600
  /// How far back missed alarms are shown at start.
  static let missedLookback: Int64 = 7 * 86_400
  /// How many missed alarms are shown one by one.
  static let missedShown = 5

  let owner: EventStore
  let notifier: DesktopNotifier
  let logger: Logger
  /// Runs store work off the event loop (``StoreServer/withStore(_:)``).
  let perform: @Sendable (@escaping @Sendable () throws -> PlanStep) async throws -> PlanStep

  /// The plan between two steps.
  struct Plan: Sendable {
    var delivered: Int64
    var alarms: [DueAlarm] = []
    var through: Int64 = .min
    var head: LogPosition = .none
    var started: Int64
    var savedAt: Int64

    /// The items and calendars of the planned alarms.
    var names: Set<ObjectID> {
      var names: Set<ObjectID> = []
      for alarm in alarms {
        names.insert(alarm.calendarID)
        switch alarm.item {
        case .event(let id, _), .reminder(let id): names.insert(id)
        }
      }
      return names
    }
  }

  /// What one step leaves: the plan, and what to show.
  struct PlanStep: Sendable {
    var plan: Plan
    var due: [DueAlarm] = []
  }

  func run() async throws {
    let owner = self.owner
    var plan: Plan
    do {
      plan = try await perform {
        let now = Self.now(owner)
        let stored = try owner.store.alarmsDelivered()
        if stored == nil { try owner.store.setAlarmsDelivered(now) }
        let delivered = max(stored ?? now, now - Self.missedLookback)
        return PlanStep(plan: Plan(delivered: min(delivered, now), started: now, savedAt: now))
      }.plan
    } catch {
      logger.error("alarms are off: the store could not be read (\(error))")
      return
    }
    let first = plan
    try? await cancelWhenGracefulShutdown { try await loop(from: first) }
  }

  /// Takes a step each second until cancelled.
  private func loop(from start: Plan) async throws {
    let owner = self.owner
    var plan = start
    while !Task.isCancelled {
      do {
        let current = plan
        let step = try await perform { try Self.step(current, owner) }
        plan = step.plan
        await show(step.due, started: plan.started)
      } catch {
        logger.error("alarms could not be read: \(error)")
      }
      try await Task.sleep(for: .seconds(1))
    }
  }

  /// Plans again when needed and takes what is due, keeping in the store what was shown.
  static func step(_ plan: Plan, _ owner: EventStore) throws -> PlanStep {
    var plan = plan
    let now = Self.now(owner)
    var replan = now + 60 > plan.through
    if !replan {
      let (head, changed) = try owner.alarmsMayHaveChanged(after: plan.head, planned: plan.names)
      (replan, plan.head) = (changed, head)
    }
    if replan {
      // The head first: what is written meanwhile is looked at in the next step.
      plan.head = try owner.store.head().position
      plan.alarms = try owner.alarms(
        firingAfter: plan.delivered, through: now + horizon, viewerZone: LocalZone.current)
      plan.through = now + horizon
    }
    let count = plan.alarms.prefix { $0.fireTime <= now }.count
    let due = Array(plan.alarms.prefix(count))
    plan.alarms.removeFirst(count)
    plan.delivered = max(plan.delivered, now)
    if !due.isEmpty || now - plan.savedAt >= 600 {
      try owner.store.setAlarmsDelivered(plan.delivered)
      plan.savedAt = now
    }
    return PlanStep(plan: plan, due: due)
  }

  /// Shows `due`; those that fired before the server `started` as missed, at most
  /// ``missedShown`` of them one by one.
  private func show(_ due: [DueAlarm], started: Int64) async {
    guard !due.isEmpty else { return }
    let zone = LocalZone.current
    let missed = due.filter { $0.fireTime < started }
    let onTime = due.filter { $0.fireTime >= started }
    var notes = missed.prefix(missed.count > Self.missedShown ? Self.missedShown - 1 : Self.missedShown).map {
      AlarmText.notification($0, missed: true, zone: zone)
    }
    if missed.count > Self.missedShown {
      let more = missed.count - notes.count
      notes.append(("\(more) more missed alarms", "See them with kalends agenda"))
    }
    notes += onTime.map { AlarmText.notification($0, missed: false, zone: zone) }
    // Every alarm is in the server's output, at a level it prints, whether or not a desktop shows
    // it (a headless machine, an ssh session, a desktop without a notification service).
    for alarm in due {
      let note = AlarmText.notification(alarm, missed: alarm.fireTime < started, zone: zone)
      logger.notice(
        "alarm: \(note.summary) — \(note.body)",
        metadata: ["item": "\(alarm.item)", "fireTime": "\(alarm.fireTime)", "missed": "\(alarm.fireTime < started)"])
    }
    // Each notification runs apart: one that waits (a program that does not return) never holds
    // up the next, nor the server's next look at what is due.
    let (notifier, logger) = (self.notifier, self.logger)
    for note in notes {
      notifier.post(summary: note.summary, body: note.body) { logger.error("an alarm could not be shown: \($0)") }
    }
  }

  /// The time alarms are judged by, in whole seconds: the store's clock (``Store/now()``), which
  /// tests move instead of waiting.
  static func now(_ owner: EventStore) -> Int64 { owner.store.now().rawValue / 1_000_000 }
}
