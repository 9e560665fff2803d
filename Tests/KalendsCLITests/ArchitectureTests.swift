import Foundation
import KalendsTestSupport
import Testing

/// docs/architecture.md's module map names exactly the targets of Package.swift.
@Suite("The architecture document matches the package")
struct ArchitectureTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func theModuleMapNamesEveryTarget() throws {
    let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declared = try Regex(#"\.(target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
    let targets = Set(manifest.matches(of: declared).compactMap { $0.output[2].substring.map(String.init) })
    #expect(targets.count >= 15, "\(targets)")

    let document = try String(
      contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let section =
      try #require(document.components(separatedBy: "## Modules").dropFirst().first)
      .components(separatedBy: "\n## ").first ?? ""
    let row = try Regex(#"(?m)^\| `([^`]+)` \|"#)
    let mapped = Set(section.matches(of: row).compactMap { $0.output[1].substring.map(String.init) })
    #expect(
      mapped == targets,
      "only in the document: \(mapped.subtracting(targets)); only in Package.swift: \(targets.subtracting(mapped))")
  }
}
