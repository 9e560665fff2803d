import Foundation
import KalendsTestSupport

/// SHA-256 digests computed by Python's `hashlib` (OpenSSL's), in a real `python3` process: an
/// implementation independent of Kalends' own.
enum HashlibOracle {
  static func sha256(_ messages: [[UInt8]]) throws -> [[UInt8]] {
    let directory = TemporaryDirectory("hashlib")
    let input = URL(fileURLWithPath: directory.path + "/messages.txt")
    let hex = "0123456789abcdef".utf8.map { $0 }
    var text: [UInt8] = []
    for message in messages {
      for byte in message { text += [hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
      text.append(0x0A)
    }
    try Data(text).write(to: input)
    let script = """
      import hashlib, sys
      for line in open(sys.argv[1]):
          print(hashlib.sha256(bytes.fromhex(line.strip())).hexdigest())
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, input.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw OracleError.failed("python3 exited \(process.terminationStatus)")
    }
    _ = directory
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
      stride(from: 0, to: line.utf8.count, by: 2).map { offset in
        let start = line.utf8.index(line.utf8.startIndex, offsetBy: offset)
        return UInt8(line[start..<line.utf8.index(start, offsetBy: 2)], radix: 16)!
      }
    }
  }
}
