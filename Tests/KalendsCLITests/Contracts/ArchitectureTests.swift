import Foundation
import KalendsTestSupport
import Testing

/// docs/architecture.md's module map is the package's: it names exactly the targets of
/// Package.swift, each with exactly its dependencies (the package's own targets and the external
/// packages, in backticks, in the imports column) and, for a target with folders, exactly its
/// first-level folders (`Name/` in backticks in the description).
@Suite("The architecture document matches the package")
struct ArchitectureTests {
  static let root = Repository.root

  /// One target as Package.swift declares it.
  struct Target {
    let name: String
    let kind: String
    /// Where its sources are, relative to the package's root.
    let path: String
    /// The package's own targets it depends on, and the external packages whose products it uses.
    let dependencies: Set<String>
  }

  /// Every target of Package.swift, read from its text.
  static func targets() throws -> [String: Target] {
    let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let start = try Regex(#"\.(target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
    let matches = manifest.matches(of: start)
    var targets: [String: Target] = [:]
    for (index, match) in matches.enumerated() {
      let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : manifest.endIndex
      let declaration = String(manifest[match.range.lowerBound..<end])
      let kind = String(match.output[1].substring ?? "")
      let name = String(match.output[2].substring ?? "")
      var dependencies: Set<String> = []
      if let list = declaration.firstRange(of: "dependencies: [") {
        var depth = 1
        var cursor = list.upperBound
        while depth > 0, cursor < declaration.endIndex {
          if declaration[cursor] == "[" { depth += 1 }
          if declaration[cursor] == "]" { depth -= 1 }
          cursor = declaration.index(after: cursor)
        }
        var text = String(declaration[list.upperBound..<cursor])
        let product = try Regex(#"\.product\((?:[^()]|\([^()]*\))*\)"#)
        let package = try Regex(#"package:\s*"([^"]+)""#)
        for found in text.matches(of: product) {
          if let id = String(text[found.range]).firstMatch(of: package)?.output[1].substring {
            dependencies.insert(String(id))
          }
        }
        text.replace(product, with: "")
        let literal = try Regex(#""([^"]+)""#)
        for found in text.matches(of: literal) { dependencies.insert(String(found.output[1].substring ?? "")) }
      }
      let explicit = try Regex(#"path:\s*"([^"]+)""#)
      let path =
        declaration.firstMatch(of: explicit).map { String($0.output[1].substring ?? "") }
        ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
      targets[name] = Target(name: name, kind: kind, path: path, dependencies: dependencies)
    }
    return targets
  }

  /// The rows of the document's module map: name → (description, imports), cells as written.
  static func rows() throws -> [String: (description: String, imports: String)] {
    let document = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let section =
      try #require(document.components(separatedBy: "## Modules").dropFirst().first)
      .components(separatedBy: "\n## ").first ?? ""
    var rows: [String: (String, String)] = [:]
    for line in section.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 6 else { continue }
      rows[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = (cells[3], cells[4])
    }
    return rows
  }

  /// The backticked words of `text` matching `pattern`'s first group.
  static func words(_ text: String, _ pattern: String) throws -> Set<String> {
    Set(text.matches(of: try Regex(pattern)).compactMap { $0.output[1].substring.map(String.init) })
  }

  @Test func theModuleMapNamesEveryTargetWithItsDependencies() throws {
    let targets = try Self.targets()
    #expect(targets.count >= 15, "\(targets.keys)")
    let rows = try Self.rows()
    #expect(
      Set(rows.keys) == Set(targets.keys),
      """
      only in the document: \(Set(rows.keys).subtracting(targets.keys)); \
      only in Package.swift: \(Set(targets.keys).subtracting(rows.keys))
      """)
    for (name, target) in targets {
      guard let row = rows[name] else { continue }
      let named = try Self.words(row.imports, #"`([A-Za-z][A-Za-z0-9_-]*)`"#)
      #expect(
        named == target.dependencies,
        """
        \(name): only in the document's imports: \(named.subtracting(target.dependencies)); \
        only in Package.swift: \(target.dependencies.subtracting(named))
        """)
    }
  }

  @Test func theModuleMapNamesEveryTargetsFolders() throws {
    let targets = try Self.targets()
    let rows = try Self.rows()
    let files = FileManager.default
    for (name, target) in targets {
      guard let row = rows[name] else { continue }
      let directory = Self.root.appendingPathComponent(target.path).path
      let entries = (try? files.contentsOfDirectory(atPath: directory)) ?? []
      let folders = Set(
        entries.filter { entry in
          var isDirectory: ObjCBool = false
          return files.fileExists(atPath: directory + "/" + entry, isDirectory: &isDirectory) && isDirectory.boolValue
            && !entry.hasSuffix(".docc") && entry != "include"
        })
      // `Name/`, or `Name/<part>/`, in backticks: a first-level folder.
      let named = try Self.words(row.description, #"`([A-Z][A-Za-z]*)/(?:<[a-z]+>/)?`"#)
      #expect(
        named == folders,
        "\(name): only in the document: \(named.subtracting(folders)); only in \(target.path): \(folders.subtracting(named))"
      )
    }
  }
}
