package import Kalends

/// `--type person|organization`.
package enum ContactTypeArgument: String, CaseIterable {
  case person, organization

  package var kind: Kalends.Contact.Kind { self == .person ? .person : .organization }
}
