import BenchmarkSupport
import Kalends

/// The privacy audit's big log (issue 6): mostly workload notes appended in batches of 1,000 with
/// `Store.annotate(contentsOf:)`, interleaved with registered clients and privacy decisions made
/// through ``EventStore``'s privacy API (requests answered by a ``FixedAnswerPrompter``, settings,
/// policies, resets).
public enum AuditStore {
  /// The identifier of client `index`.
  public static func client(_ index: Int) -> String { "com.example.app\(index)" }

  /// The cached store directory of `records` notes, `clients` clients and `decisions` privacy
  /// calls, built when missing.
  public static func cachedPath(records: Int = 10_000_000, clients: Int = 1_000, decisions: Int = 50_000) throws
    -> String
  {
    try BenchCache.entry("audit-records\(records)-clients\(clients)-decisions\(decisions)") { path in
      try build(at: path + "/store", records: records, clients: clients, decisions: decisions)
    } + "/store"
  }

  static func build(at path: String, records: Int, clients: Int, decisions: Int) throws {
    let store = try Store.create(
      at: path, options: StoreOptions(durability: .noSync, initialMapSize: 2 * Workload.mapSize))
    let owner = EventStore(store: store)
    let batches = max(1, records / 1_000)
    let describing = Dictionary(uniqueKeysWithValues: Client.Usage.allCases.map { ($0, "Plans your \($0).") })
    var state: UInt64 = 11
    func below(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var registered = 0
    var made = 0
    var failed = 0
    for batch in 0..<batches {
      try store.annotate(contentsOf: (0..<1_000).map { Workload.note(batch * 1_000 + $0) })
      // Register clients evenly over the log, and make the decisions among those registered.
      while registered < clients && registered * batches <= batch * clients {
        try owner.register(Client(id: client(registered), name: "App \(registered)", usageDescriptions: describing))
        registered += 1
      }
      while made * batches < (batch + 1) * decisions {
        let id = client(below(registered))
        let service = Service.allCases[below(Service.allCases.count)]
        do {
          switch below(6) {
          case 0, 1:
            _ = try owner.session(for: id).requestFullAccess(
              to: service, prompter: FixedAnswerPrompter(below(2) == 0 ? .allow : .deny))
          case 2: try owner.privacySettings().setAccess(below(2) == 0 ? .fullAccess : .denied, for: id, service: service)
          case 3: try owner.privacySettings().restrict(id, service: service, policy: "com.example.mdm")
          case 4: try owner.privacySettings().liftRestriction(id, service: service, policy: "com.example.mdm")
          default: try owner.privacySettings().resetAccess(client: id, service: service)
          }
        } catch {
          failed += 1  // Refused as the API refuses it (settings under a policy, lifting no policy): recorded or not.
        }
        made += 1
      }
      if batch % 1_000 == 999 { BenchCache.log("  \((batch + 1) * 1_000) notes") }
    }
    try store.sync()
    BenchCache.log(
      "  \(registered) clients, \(made) privacy calls (\(failed) refused), head \(try store.head().position)")
  }
}
