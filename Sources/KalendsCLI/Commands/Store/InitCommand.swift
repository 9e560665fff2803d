import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends init`: creates a store.
  struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "init", abstract: "Create a new store; its first record is its creation.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      if global.client != nil { throw StoreError.access(.ownerOnly("create a store")) }
      let store = try Store.create(at: global.storePath)
      let head = try store.head()
      switch format {
      case .json:
        print(
          JSONValue.object(
            [("path", .string(store.path)), ("storeId", .string(store.id.description))] + head.jsonFields
          )
          .rendered())
      case .table:
        print("Created store \(store.id) at \(store.path)")
        print("head \(head.position) \(head.hash)")
      }
    }
  }
}
