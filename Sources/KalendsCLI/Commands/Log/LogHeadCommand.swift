import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Log {
  /// `kalends log head`: the last position and its hash, which commits to the whole history, and
  /// the Merkle tree's root over it.
  struct Head: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "head",
      abstract: "Print the last position and its hash, and the Merkle tree's root over the log.",
      discussion: """
        The first line is the position and the hash of the last record; the second, `tree SIZE ROOT`, \
        the RFC 9162 Merkle tree head over every record (absent for a store from before the tree opened \
        read-only). A signed checkpoint of the tree head is what proves later that nothing was rewritten.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the log")
      let head = try store.head()
      let tree = try Self.treeHead(of: store)
      switch format {
      case .json: print(JSONValue.object(head.jsonFields + (tree?.jsonFields ?? [])).rendered())
      case .table:
        print("\(head.position) \(head.hash)")
        if let tree { print("tree \(tree.size) \(tree.root)") }
      }
    }

    /// The tree head, or `nil` for a store from before the tree opened read-only.
    static func treeHead(of store: Store) throws -> TreeHead? {
      do {
        return try store.treeHead()
      } catch {
        if case .treeUnavailable = error { return nil }
        throw error
      }
    }
  }
}
