import Foundation
import Platform

/// A process's claim to be a Flatpak app, checked as xdg-desktop-portal checks it: its
/// `/.flatpak-info` (a regular file in the process's own root) names the app and the sandbox
/// instance, and Flatpak's record of that instance on the host —
/// `$XDG_RUNTIME_DIR/.flatpak/INSTANCE/bwrapinfo.json`, written by `flatpak run` outside the
/// sandbox, where no sandboxed app can write — names a process of the sandbox in the caller's own
/// mount namespace.
///
/// What it proves (docs/server.md): no process inside a Flatpak sandbox can claim another app's
/// id; a process of the same user *outside* any sandbox can build a namespace with its own
/// `/.flatpak-info` and write an instance record too, as it can against xdg-desktop-portal.
enum FlatpakInstance {
  /// The app id that the process whose `/proc` directory is `process` proves, or `nil` when it
  /// claims none or its claim does not hold.
  static func verifiedApp(process: String, mountNamespace: String?, runtimeDirectory: String) -> String? {
    guard let info = read(process + "/root/.flatpak-info"), let app = info.app, isValidAppID(app),
      let instance = info.instance, !instance.isEmpty, instance.allSatisfy(\.isNumber),
      let mountNamespace
    else { return nil }
    let record = runtimeDirectory + "/.flatpak/" + instance + "/bwrapinfo.json"
    guard let status = FileStatus(path: record, followingLinks: false), status.isRegularFile, status.owner == getuid(),
      let data = FileManager.default.contents(atPath: record),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let child = object["child-pid"] as? Int, child > 0,
      let childNamespace = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/ns/mnt"),
      childNamespace == mountNamespace
    else { return nil }
    return app
  }

  /// The `[Application] name` and `[Instance] instance-id` of the key file at `path`, read only
  /// when it is a regular file (not a link).
  private static func read(_ path: String) -> (app: String?, instance: String?)? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    guard let status = FileStatus(descriptor: descriptor), status.isRegularFile, status.size < 1 << 20,
      let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8)
    else { return nil }
    var group = ""
    var app: String?
    var instance: String?
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("[") {
        group = trimmed
      } else if group == "[Application]", trimmed.hasPrefix("name=") {
        app = app ?? String(trimmed.dropFirst(5))
      } else if group == "[Instance]", trimmed.hasPrefix("instance-id=") {
        instance = instance ?? String(trimmed.dropFirst(12))
      }
    }
    return (app, instance)
  }

  /// Flatpak's rule for application ids: three or more dot-separated elements of ASCII letters,
  /// digits and `_` (and `-` in the last), none starting with a digit; at most 255 characters.
  static func isValidAppID(_ id: String) -> Bool {
    guard id.utf8.count <= 255 else { return false }
    let elements = id.split(separator: ".", omittingEmptySubsequences: false)
    guard elements.count >= 3 else { return false }
    for (index, element) in elements.enumerated() {
      guard let first = element.first, !first.isNumber, first != "-" || index == elements.count - 1 else {
        return false
      }
      let last = index == elements.count - 1
      guard
        element.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || ($0 == "-" && last)) })
      else { return false }
    }
    return true
  }
}
