import Foundation
import PackagePlugin

/// Embeds each file of a target's `Assets/` folder (which the target excludes) as the `text` of
/// the type named after the file (`Assets/ReportStyle.css` → `ReportStyle.text`), rebuilt when the
/// file changes. SwiftPM's resources would need a bundle found beside the executable at run time,
/// which a `kalends` copied elsewhere does not have on Linux.
@main
struct EmbedAssets: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let assets = target.directoryURL.appending(path: "Assets")
    let files = try FileManager.default.contentsOfDirectory(at: assets, includingPropertiesForKeys: nil)
      .filter { !$0.lastPathComponent.hasPrefix(".") }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let tool = try context.tool(named: "embed-asset")
    return files.map { file in
      let typeName = file.deletingPathExtension().lastPathComponent
      let output = context.pluginWorkDirectoryURL.appending(path: "\(typeName)+Asset.swift")
      return .buildCommand(
        displayName: "Embedding \(file.lastPathComponent) in \(target.name)",
        executable: tool.url, arguments: [file.path, output.path, typeName],
        inputFiles: [file], outputFiles: [output])
    }
  }
}
