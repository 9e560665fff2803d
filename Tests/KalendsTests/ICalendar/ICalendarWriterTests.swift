import Testing

@testable import Kalends

/// The folding of content lines (RFC 5545 §3.1), at every offset a multi-byte character can fall
/// on, with parameters and values crossing folds.
struct ICalendarWriterTests {
  @Test func foldsEveryLineAt75OctetsAndUnfoldsToWhatWasWritten() throws {
    for character in ["a", "é", "€", "𝄞"] {
      for lead in 0..<80 {
        let value = String(repeating: "x", count: lead) + String(repeating: character, count: 60)
        let parameter = String(repeating: "p", count: lead % 13) + character
        var writer = ICalendarWriter()
        writer.line("X-TEST", [("X-PARAM", parameter), ("X-Q", "a:b")], value)
        let bytes = writer.bytes
        #expect(bytes.suffix(2) == [13, 10])
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).dropLast()
        for line in lines {
          #expect(line.last == 13)
          #expect(line.count - 1 <= 75, "a line of \(line.count - 1) octets")
          #expect(String(validating: line.dropLast(), as: UTF8.self) != nil, "a fold splits a UTF-8 sequence")
        }
        let unfolded = lines.enumerated().flatMap { index, line in
          Array(line.dropLast().dropFirst(index == 0 ? 0 : 1))
        }
        #expect(
          String(decoding: unfolded, as: UTF8.self) == "X-TEST;X-PARAM=\(parameter);X-Q=\"a:b\":\(value)",
          "\(character) after \(lead)")
      }
    }
  }

  @Test func shortLinesAreNotFolded() {
    var writer = ICalendarWriter()
    writer.line("SUMMARY", String(repeating: "s", count: 75 - 8))
    writer.raw("X-RAW:" + String(repeating: "r", count: 69))
    #expect(
      writer.text == "SUMMARY:" + String(repeating: "s", count: 67) + "\r\nX-RAW:" + String(repeating: "r", count: 69)
        + "\r\n")
  }
}
