import Kalends

/// The person's channel as the library's contact picker for one app's `POST /v1/contacts/pick`:
/// the picker is a prompt at the desk (`kalends prompts answer ID pick --contacts ID`) or a list
/// on the server's terminal; no answer in time is a cancelled picker.
struct DeskContactPicker: ContactPicker {
  let channel: PromptChannel
  let evidence: CallerEvidence

  func pick(for client: Client, from contacts: [Contact]) -> ObjectID? {
    switch channel {
    case .desk(let desk): desk.pick(for: client, from: evidence)
    case .terminal(let terminal): terminal.pick(for: client, from: contacts, evidence: evidence)
    }
  }
}
