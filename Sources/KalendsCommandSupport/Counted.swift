/// `1 record`, `2 records`: a count and its noun, in English.
package func counted(_ number: some BinaryInteger, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}
