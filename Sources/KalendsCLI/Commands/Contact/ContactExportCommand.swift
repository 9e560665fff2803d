import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact export`: contacts and groups as a vCard file.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write contacts and their groups as one vCard (.vcf) file to standard output.")

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("vCard 3.0 (what most address books read) or 4.0.", valueName: "version"))
    var vcardVersion: VCardVersionArgument = .v3
    @Option(help: ArgumentHelp("Only the members of this group.", valueName: "id")) var group: String?
    @Flag(help: "Leave the groups' own cards out.") var noGroups = false

    func run() throws {
      let search: ContactSearch = try group.map { .group(try ObjectID(argument: $0, option: "--group")) } ?? .all
      let text = try global.openEventStore(readOnly: true).contactStore.exportVCards(
        search, version: vcardVersion.version, groups: !noGroups)
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }
}

/// `--vcard-version 3.0|4.0`.
enum VCardVersionArgument: String, ExpressibleByArgument, CaseIterable {
  case v3 = "3.0"
  case v4 = "4.0"

  var version: VCardVersion { self == .v3 ? .v3 : .v4 }
}
