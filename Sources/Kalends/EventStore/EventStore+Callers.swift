extension EventStore {
  // MARK: Callers of the store server

  /// The registered app whose ``CodeRequirement`` the process described by `evidence` satisfies;
  /// `nil` when none does, or when more than one does (two registrations that one process
  /// satisfies identify neither). The owner's to call: the server runs as the owner.
  package func client(identifiedBy evidence: CallerEvidence) throws(StoreError) -> Client? {
    try requireOwner("identify the callers of the store server")
    let matches = try clients().filter { $0.requirement?.isSatisfied(by: evidence) == true }
    return matches.count == 1 ? matches[0] : nil
  }

  /// Records that the store server refused a caller it could not identify as a registered app:
  /// one `callerUnidentified` record by the system, holding the kernel's evidence (for a TCP
  /// caller: its address and the id of the token it presented, if any), in its own
  /// durable transaction — for `count` refusals of that caller in `minute` (minutes since 1970)
  /// when the server coalesced them. The owner's to call.
  @discardableResult
  package func recordUnidentifiedCaller(
    _ evidence: CallerEvidence, count: Int = 1, minute: Int64? = nil
  ) throws(StoreError) -> LogRecordHeader {
    guard count >= 1 else { throw .invalidInput("a count of refusals is 1 or more") }
    try requireOwner("record the callers of the store server")
    var payload = Payload()
    if let uid = evidence.uid { payload.append(tag: 1, unsigned: UInt64(uid)) }
    if let gid = evidence.gid { payload.append(tag: 2, unsigned: UInt64(gid)) }
    if let pid = evidence.pid { payload.append(tag: 3, unsigned: UInt64(UInt32(bitPattern: pid))) }
    if let executable = evidence.executable { payload.append(tag: 4, string: executable) }
    if let digest = evidence.executableSHA256 { payload.append(tag: 5, bytes: digest) }
    if let app = evidence.flatpakApp { payload.append(tag: 6, string: app) }
    if count > 1 { payload.append(tag: 7, unsigned: UInt64(count)) }
    if let minute { payload.append(tag: 8, signed: minute) }
    if let address = evidence.address { payload.append(tag: 9, string: address) }
    if let tokenID = evidence.tokenID { payload.append(tag: 10, string: tokenID) }
    guard evidence.uid != nil || evidence.address != nil else {
      throw .invalidInput("an unidentified caller has peer credentials or an address")
    }
    return try store.append(RecordDraft(kind: .callerUnidentified, principal: .system, payload: payload))
  }
}
