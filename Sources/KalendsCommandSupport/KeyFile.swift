import Foundation
package import Kalends
import Platform

/// Private checkpoint keys in files only their owner may read, as ssh keeps its keys.
package enum KeyFile {
  /// The environment variable naming the key every writable command signs checkpoints with.
  package static let environmentVariable = "KALENDS_CHECKPOINT_KEY"

  /// Writes `signer` to a new file at `path` with mode 0600; refuses an existing file.
  package static func write(_ signer: CheckpointSigner, to path: String) throws(CLIError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw CLIError(
        message:
          "cannot create the key file \(path): \(reason) — choose a new path; an existing key is never overwritten",
        status: errno == EEXIST ? .conflict : .storage)
    }
    defer { close(descriptor) }
    let bytes = Array((signer.encoded + "\n").utf8)
    guard bytes.withUnsafeBytes({ Foundation.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count,
      fsync(descriptor) == 0
    else { throw CLIError(message: "cannot write the key file \(path)", status: .storage) }
  }

  /// Reads the private key at `path`, refusing a file that others may read.
  package static func read(_ path: String) throws(CLIError) -> CheckpointSigner {
    guard let status = FileStatus(path: path) else {
      throw CLIError(
        message: "cannot read the key file \(path): \(String(cString: strerror(errno)))", status: .notFound)
    }
    guard status.sharedPermissions == 0 else {
      throw CLIError(
        message:
          "the key file \(path) may be read by others (mode \(String(status.mode & 0o777, radix: 8))) — chmod 600 it",
        status: .accessRefused)
    }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
      throw CLIError(message: "cannot read the key file \(path)", status: .storage)
    }
    do {
      return try CheckpointSigner(encoded: text)
    } catch {
      throw CLIError(message: "the key file \(path) holds no private key: \(error)", status: .invalidInput)
    }
  }

  /// The key named by ``environmentVariable``, or `nil` when it is unset.
  package static func configured() throws(CLIError) -> CheckpointSigner? {
    guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
    return try read(path)
  }
}
