internal import LMDB

/// One pass over a log's records in order — what `Store/verify(progress:)` runs over a store,
/// and what a fleet mirror runs over the records it holds of one: positions in sequence from 1,
/// every record decodable, each previous-hash equal to the hash of the record before, each stored
/// hash equal to the hash of the bytes, the first record the store's creation, every record made by
/// a principal that may make it (`RecordAuthority`), timestamps, and the Merkle tree of the records
/// checked. It stops taking records at the first problem, since nothing after it can be trusted.
package struct LogWalk {
  package let storeID: StoreID
  /// The last record checked.
  package private(set) var head = LogHead.empty
  /// How many records were checked.
  package private(set) var checked = 0
  /// The first problem found; no record is taken after it.
  package var problem: IntegrityProblem?
  var principals = PrincipalCache()
  /// The verifier's clock when the walk began.
  let now: Timestamp
  var lastTimestamp = Timestamp(rawValue: .min)
  var anomalies: [TimestampAnomaly] = []
  var anomalyCount = 0
  /// The Merkle tree of the records checked so far, and the nodes at stored heights the last
  /// record completed, to be compared with the stored ones.
  package private(set) var frontier = TreeFrontier()
  var completedNodes: [(Int, UInt64, RecordHash)] = []
  /// The records seen with their content erased that no `contentErased` record has named yet.
  var unrecordedErasures: Set<UInt64> = []
  /// The records erased from format 1 or 2 not yet named, with the digest of what is left of them.
  var legacyErasures: [UInt64: [UInt8]] = [:]
  /// Records erased from format 1 or 2 by a version that did not bind them: their header and kept
  /// fields are proven by nothing.
  var unproven: [LogPosition] = []
  var unprovenCount = 0
  /// The positions the last record checked names as erased, when it is a `contentErased` record
  /// (empty otherwise): what a holder of copies of the records erases in them.
  package private(set) var erasedByLast: [UInt64] = []

  /// A walk of the log of `storeID` from its first record; `now` is the verifier's clock, which
  /// timestamps are compared with.
  package init(storeID: StoreID, now: Timestamp) {
    self.storeID = storeID
    self.now = now
  }

  /// Checks the record `value` stored under `key` (its position, big-endian) as the next one.
  package mutating func check(key: RawSpan, value: RawSpan) {
    let expected = head.position.next
    if !erasedByLast.isEmpty { erasedByLast = [] }
    guard let number = BigEndianKey<UInt64>(key)?.value else {
      problem = IntegrityProblem(
        position: expected, kind: .unexpectedKey, detail: "a \(key.byteCount)-byte key is not a position")
      return
    }
    guard number == expected.rawValue else {
      problem =
        number > expected.rawValue
        ? IntegrityProblem(
          position: expected, kind: .missingRecord,
          detail: "record \(expected) is missing (the next record is \(number))")
        : IntegrityProblem(position: expected, kind: .unexpectedKey, detail: "position \(number) is out of sequence")
      return
    }
    let header: LogRecordHeader
    let payload: Range<Int>
    do {
      let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
      (header, payload) = (decoded.header, decoded.payload)
    } catch {
      problem = IntegrityProblem(position: expected, kind: .malformedRecord, detail: "\(error)")
      return
    }
    guard header.position == expected else {
      problem = IntegrityProblem(
        position: expected, kind: .positionMismatch,
        detail: "the record stored at \(expected) says it is at \(header.position)")
      return
    }
    guard header.previousHash == head.hash else {
      problem = IntegrityProblem(
        position: expected, kind: .brokenChain,
        detail: "it chains to \(header.previousHash.shortHex)… but the record before hashes to \(head.hash.shortHex)…"
      )
      return
    }
    // A record erased from format 1 or 2 keeps its hash with nothing left to recompute it from:
    // the chain and the tree still hold it in place.
    if header.content != .erasedUnverifiable {
      guard let computed = RecordCodec.computedHash(of: value), computed == header.hash else {
        problem = IntegrityProblem(
          position: expected, kind: .hashMismatch,
          detail: "its bytes hash differently from the hash it carries: the record was altered")
        return
      }
    }
    if header.content != .present {
      guard header.kind.schema?.contentTags.isEmpty == false else {
        problem = IntegrityProblem(
          position: expected, kind: .malformedRecord, detail: "a \(header.kind) record has no content to erase")
        return
      }
      unrecordedErasures.insert(expected.rawValue)
      if header.content == .erasedUnverifiable {
        legacyErasures[expected.rawValue] = RecordCodec.legacyErasureDigest(of: value)
      }
    }
    if header.kind == .contentErased {
      guard let fields = try? PayloadReader(bytes: value.extracting(payload)),
        let named = try? fields.unsignedList(3), named.allSatisfy({ $0 < expected.rawValue })
      else {
        problem = IntegrityProblem(
          position: expected, kind: .malformedRecord, detail: "the erasure does not name earlier records")
        return
      }
      checkLegacyErasures(named, boundBy: fields)
      if problem != nil { return }
      for position in named { unrecordedErasures.remove(position) }
      erasedByLast = named
    }
    if expected == 1 {
      guard header.kind == .storeCreated, header.principal == .system,
        storeIDMatches(RecordCodec.payload(of: value))
      else {
        problem = IntegrityProblem(
          position: expected, kind: .genesisMismatch,
          detail: "the first record is not this store's creation record")
        return
      }
    }
    if let reason = RecordAuthority.violation(
      kind: header.kind, principal: header.principal, payload: value.extracting(payload))
    {
      problem = .unauthorizedRecord(at: expected, reason)
      return
    }
    checkTime(header.timestamp, at: expected)
    frontier.append(header.hash) { completedNodes.append(($0, $1, $2)) }
    head = LogHead(position: expected, hash: header.hash)
    checked += 1
  }

  /// Checks what is left of each record erased from format 1 or 2 among `named` against the
  /// digest its `contentErased` record kept of it. An erasure that binds such records (field 10)
  /// must bind every one it names: a record of format 3 turned into that form, with its header
  /// or kept fields changed under the hash it keeps, fails here. An erasure from before such
  /// binding leaves its records unproven.
  private mutating func checkLegacyErasures(_ named: [UInt64], boundBy fields: PayloadReader) {
    let legacy = named.filter { legacyErasures[$0] != nil }
    guard !legacy.isEmpty || fields.has(10) else { return }
    var bindings: [UInt64: ArraySlice<UInt8>] = [:]
    for binding in fields.bytesList(9) where binding.count == 40 {
      bindings[binding[0..<8].reduce(0) { $0 << 8 | UInt64($1) }] = binding[8...]
    }
    for position in legacy {
      let left = legacyErasures.removeValue(forKey: position)
      if (try? fields.bool(10)) == true {
        guard let bound = bindings[position], let left, bound.elementsEqual(left) else {
          problem = IntegrityProblem(
            position: LogPosition(position), kind: .hashMismatch,
            detail: "it is in the form of a record erased from format 1 or 2, but its erasure at "
              + "\(head.position.next) binds no such record there: its header or kept fields were altered")
          return
        }
      } else {
        unprovenCount += 1
        if unproven.count < VerificationReport.unprovenLimit { unproven.append(LogPosition(position)) }
      }
    }
  }

  /// Notes a timestamp earlier than the one before it, or too far ahead of the clock. A
  /// timestamp ahead of the clock is not carried on: the records after it are measured against
  /// the last one that was not, as the writers after it stamped them.
  private mutating func checkTime(_ timestamp: Timestamp, at position: LogPosition) {
    let ahead = timestamp.rawValue > now.rawValue &+ TimestampAnomaly.toleratedFuture
    defer { if !ahead { lastTimestamp = max(lastTimestamp, timestamp) } }
    let anomaly: TimestampAnomaly
    if timestamp < lastTimestamp {
      anomaly = TimestampAnomaly(position: position, kind: .backwards, timestamp: timestamp, reference: lastTimestamp)
    } else if timestamp.rawValue > now.rawValue &+ TimestampAnomaly.toleratedFuture {
      anomaly = TimestampAnomaly(position: position, kind: .future, timestamp: timestamp, reference: now)
    } else {
      return
    }
    anomalyCount += 1
    if anomalies.count < VerificationReport.anomalyLimit { anomalies.append(anomaly) }
  }

  /// Checks, once every record is taken, that none erased is left unnamed and that `recorded` is
  /// the head the walk reached.
  package mutating func checkEnd(against recorded: LogHead) {
    if let first = unrecordedErasures.min() {
      problem = IntegrityProblem(
        position: LogPosition(first), kind: .unrecordedErasure,
        detail: "its content is erased, but no later contentErased record names it: it was dropped, not erased")
    } else if recorded.position > head.position {
      problem = IntegrityProblem(
        position: head.position.next, kind: .missingRecord,
        detail: "record \(head.position.next) is missing (the recorded head is \(recorded.position))")
    } else if recorded.position < head.position {
      problem = IntegrityProblem(
        position: recorded.position.next, kind: .headMismatch,
        detail: "the log goes on to \(head.position) past the recorded head \(recorded.position)")
    } else if recorded.hash != head.hash {
      problem = IntegrityProblem(
        position: recorded.position, kind: .headMismatch,
        detail: "the recorded head hash differs from the hash of the last record")
    }
  }

  private func storeIDMatches(_ payload: [UInt8]?) -> Bool {
    guard let payload, let field = try? Payload(bytes: payload).first(tag: 1) else { return false }
    return field.value == storeID.bytes
  }
}
