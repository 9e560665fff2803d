/// What a process must be for the store server to take it for a registered app, in the spirit of
/// TCC's code requirement (`csreq`): its executable, by path and SHA-256, or its Flatpak application
/// id as the sandbox states it (`/.flatpak-info`, as xdg-desktop-portal reads it).
///
/// A requirement is part of the app's registration (the `clientRegistered` record), so it is
/// stored, replayed and audited with it. A process satisfies it when the kernel's evidence about
/// the process (``CallerEvidence``) matches every part that is set.
public struct CodeRequirement: Hashable, Sendable {
  /// The absolute path of the app's executable, as the kernel names it (`/proc/PID/exe`).
  public var executable: String?
  /// The SHA-256 of that executable's bytes (32 bytes). Required with ``executable``: a path alone
  /// is whatever file is there now.
  public var executableSHA256: [UInt8]?
  /// The Flatpak application id (`org.example.Planner`).
  public var flatpakApp: String?

  /// A requirement on the executable at `path` with the digest `sha256`.
  public init(executable path: String, sha256: [UInt8]) {
    executable = path
    executableSHA256 = sha256
  }

  /// A requirement on the Flatpak application `id`.
  public init(flatpakApp id: String) {
    flatpakApp = id
  }

  /// A requirement of the given parts; ``EventStore/register(_:)`` refuses one that names neither an
  /// executable with its digest nor a Flatpak id.
  public init(executable: String?, executableSHA256: [UInt8]?, flatpakApp: String?) {
    self.executable = executable
    self.executableSHA256 = executableSHA256
    self.flatpakApp = flatpakApp
  }

  /// Whether the process described by `evidence` satisfies every part of the requirement.
  public func isSatisfied(by evidence: CallerEvidence) -> Bool {
    if let flatpakApp, evidence.flatpakApp != flatpakApp { return false }
    if let executable, evidence.executable != executable { return false }
    if let executableSHA256, evidence.executableSHA256 != executableSHA256 { return false }
    return executable != nil || flatpakApp != nil
  }

  /// Throws ``StoreError/invalidInput(_:)`` unless the requirement names something checkable: an
  /// absolute executable path with a 32-byte digest, or a Flatpak id, or both.
  func validate() throws(StoreError) {
    guard executable != nil || flatpakApp != nil else {
      throw .invalidInput("a code requirement names an executable or a Flatpak app")
    }
    if let executable {
      guard executable.hasPrefix("/"), !executable.utf8.contains(0), executable.utf8.count <= 4096 else {
        throw .invalidInput("the executable must be an absolute path, got \"\(executable)\"")
      }
      guard executableSHA256?.count == 32 else {
        throw .invalidInput("the executable's SHA-256 must be given (32 bytes)")
      }
    } else if executableSHA256 != nil {
      throw .invalidInput("an executable's SHA-256 needs the executable's path")
    }
    if let flatpakApp {
      do { try Principal.client(flatpakApp).validate() } catch {
        throw .invalidInput("the Flatpak app id \"\(flatpakApp)\" is not one")
      }
    }
  }
}
