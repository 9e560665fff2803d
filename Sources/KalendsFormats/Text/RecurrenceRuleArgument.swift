package import Kalends

/// `--rrule` values: RRULE text, with or without the `RRULE:` prefix; an empty value stands for none.
package enum RecurrenceRuleArgument {
  /// The rules `texts` give, or an error naming `--rrule` and the part at fault.
  package static func parse(_ texts: [String]) throws(RequestError) -> [RecurrenceRule] {
    var rules: [RecurrenceRule] = []
    for text in texts where !text.isEmpty {
      do {
        rules.append(try RecurrenceRule(parsing: text))
      } catch {
        throw .invalidInput("--rrule: \(error)")
      }
    }
    return rules
  }
}
