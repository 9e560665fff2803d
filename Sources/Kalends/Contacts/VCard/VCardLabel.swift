/// How a labeled value's label is written in a vCard: as `TYPE` values where vCard has words for
/// it, else in Apple's form (a property group with an `X-ABLabel`), which other readers keep.
enum VCardLabel {
  /// Labels that are `TYPE` words, by label (`mobile` is vCard's `cell`).
  static let typeWords: [String: String] = [
    "home": "home", "work": "work", "mobile": "cell", "main": "main", "other": "other", "fax": "fax",
    "pager": "pager", "iphone": "iphone", "text": "text", "video": "video",
  ]

  /// `TYPE` values that say nothing a label holds (the kind of the property itself, preference).
  static let ignoredTypes: Set<String> = ["internet", "pref", "x400", "voice", "dom", "intl", "postal", "parcel"]

  /// The label of a property from its `TYPE` parameters and the `X-ABLabel` of its group.
  static func label(types: [String], appleLabel: String?) -> String? {
    if let appleLabel, !appleLabel.isEmpty {
      // Apple writes its own labels as `_$!<Mobile>!$_`.
      if appleLabel.hasPrefix("_$!<"), appleLabel.hasSuffix(">!$_") {
        return String(appleLabel.dropFirst(4).dropLast(4)).lowercased()
      }
      return appleLabel
    }
    let words = types.flatMap { $0.split(separator: ",") }.map { $0.lowercased() }
      .filter { !ignoredTypes.contains($0) && !$0.isEmpty }
    guard !words.isEmpty else { return nil }
    return words.map { $0 == "cell" ? "mobile" : $0 }.joined(separator: " ")
  }

  /// The `TYPE` values of `label` when vCard has words for each of its words; `nil` when it needs
  /// an `X-ABLabel`.
  static func types(_ label: String) -> [String]? {
    let words = label.split(separator: " ").map(String.init)
    let mapped = words.compactMap { typeWords[$0] }
    guard !words.isEmpty, mapped.count == words.count, label == label.lowercased() else { return nil }
    return mapped
  }
}
