import Kalends
import KalendsFormats
import Synchronization

/// The person's channel as the library's contact picker for one app's `POST /v1/contacts/pick`:
/// the picker is a prompt at the desk (`kalends prompts answer ID pick --contacts ID`) or a list
/// on the server's terminal; no answer in time is a cancelled picker. It keeps the evidence of the
/// process that picked, for the `contactPicked` record.
struct DeskContactPicker: ContactPicker, AnswerWitness {
  let channel: PromptChannel
  let evidence: CallerEvidence
  private let picker = Picker()

  private final class Picker: Sendable {
    let answerer = Mutex<CallerEvidence?>(nil)
  }

  init(channel: PromptChannel, evidence: CallerEvidence) {
    self.channel = channel
    self.evidence = evidence
  }

  func pick(for client: Client, from contacts: [Contact]) -> ObjectID? {
    switch channel {
    case .desk(let desk):
      guard let (picked, answerer) = desk.pick(for: client, from: evidence) else { return nil }
      picker.answerer.withLock { $0 = answerer }
      return picked
    case .terminal(let terminal):
      guard let picked = terminal.pick(for: client, from: contacts, evidence: evidence) else { return nil }
      picker.answerer.withLock { $0 = PeerEvidence.ownProcess }
      return picked
    }
  }

  func answerer() -> CallerEvidence? { picker.answerer.withLock { $0 } }
}
