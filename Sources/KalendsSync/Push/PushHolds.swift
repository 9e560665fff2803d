package import Kalends
import Synchronization

/// The registrations an app asked not to be told of its own write (WebDAV-Push's
/// `Push-Dont-Notify` on a `PUT`, `DELETE`, …): shared by the store server's DAV, which holds them
/// during the write, and its ``PushDelivery``, which leaves held registrations out of its looks
/// and, once the write is done, takes the write's change as seen by them.
///
/// Only the writing app's own registrations are held: an app cannot keep another app from being
/// told. A registration with a change waiting to be told before the write (its stamp then not the
/// one last told) is told as usual after it. A change by another writer committed while the write
/// runs is taken as seen with it: the price of not telling a client of its own change.
package final class PushHolds: Sendable {
  /// What a write held back from one registration: its stamp before and after the write.
  struct Release {
    let id: ObjectID
    let before: PushDelivery.Stamp?
    let after: PushDelivery.Stamp?
  }

  private struct State {
    var held: [ObjectID: Int] = [:]
    var released: [Release] = []
    var wake: (@Sendable () -> Void)?
  }

  private let state = Mutex(State())

  package init() {}

  /// Runs `write`, an app's write, with `named` of the app's registrations held back (`nil`: every
  /// one of the app's — `Push-Dont-Notify: *`); the person's session holds none.
  package func withholding<Result>(
    _ named: Set<ObjectID>?, of session: EventStore, during write: () async throws -> sending Result
  ) async throws -> sending Result {
    let registrations = ((try? session.pushRegistrations()) ?? []).filter { named?.contains($0.id) ?? true }
    guard !registrations.isEmpty else { return try await write() }
    let person = EventStore(store: session.store)
    let before = Self.stamps(of: registrations, person)
    state.withLock { state in
      for registration in registrations { state.held[registration.id, default: 0] += 1 }
    }
    let result: Result
    do {
      result = try await write()
    } catch {
      release(registrations, before: before, after: [:])
      throw error
    }
    release(registrations, before: before, after: Self.stamps(of: registrations, person))
    return result
  }

  private func release(
    _ registrations: [PushRegistration], before: [ObjectID: PushDelivery.Stamp], after: [ObjectID: PushDelivery.Stamp]
  ) {
    let wake = state.withLock { state in
      for registration in registrations {
        let id = registration.id
        state.held[id, default: 1] -= 1
        if state.held[id] == 0 { state.held[id] = nil }
        state.released.append(Release(id: id, before: before[id], after: after[id]))
      }
      return state.wake
    }
    wake?()
  }

  private static func stamps(of registrations: [PushRegistration], _ person: EventStore) -> [ObjectID: PushDelivery
    .Stamp]
  {
    var stamps: [ObjectID: PushDelivery.Stamp] = [:]
    for registration in registrations {
      stamps[registration.id] = (try? PushDelivery.stamp(of: registration, person)) ?? nil
    }
    return stamps
  }

  /// The registrations held now, and the writes done since last asked (oldest first): taken at
  /// once, so that a write is either still holding its registrations or done and handed over.
  func take() -> (held: Set<ObjectID>, released: [Release]) {
    state.withLock { state in
      defer { state.released = [] }
      return (Set(state.held.keys), state.released)
    }
  }

  /// Calls `wake` after each write that held registrations.
  func onRelease(_ wake: @escaping @Sendable () -> Void) {
    state.withLock { $0.wake = wake }
  }
}
