package import Kalends

/// What a mirror trusts a store's checkpoints by: the key the organisation enrolled for each store
/// (never learnt from the stream), and the witnesses of which `quorum` must have cosigned.
package struct FleetTrust: Sendable {
  /// The verifier key of each store's checkpoints.
  package var enrolled: [StoreID: NoteVerifier]
  /// The witnesses whose cosignatures count.
  package var witnesses: [NoteVerifier]
  /// How many of them must have cosigned a checkpoint.
  package var quorum: Int

  package init(enrolled: [StoreID: NoteVerifier] = [:], witnesses: [NoteVerifier] = [], quorum: Int? = nil) {
    self.enrolled = enrolled
    self.witnesses = witnesses
    self.quorum = quorum ?? witnesses.count
  }
}
