/// A postal address, in the seven parts of vCard's `ADR` (RFC 6350 §6.3.1), which also hold
/// Contacts' `CNPostalAddress`.
public struct PostalAddress: Hashable, Sendable {
  /// The post office box (deprecated by RFC 6350, kept for cards that use it).
  public var postOfficeBox: String
  /// The extended address, such as an apartment (deprecated by RFC 6350, kept likewise).
  public var extendedAddress: String
  /// The street address (lines separated by newlines).
  public var street: String
  /// The city (locality).
  public var city: String
  /// The region: a state, province or county.
  public var state: String
  /// The postal code.
  public var postalCode: String
  /// The country, as written.
  public var country: String

  /// An address from its parts; the parts not given are empty.
  public init(
    street: String = "", city: String = "", state: String = "", postalCode: String = "", country: String = "",
    postOfficeBox: String = "", extendedAddress: String = ""
  ) {
    self.postOfficeBox = postOfficeBox
    self.extendedAddress = extendedAddress
    self.street = street
    self.city = city
    self.state = state
    self.postalCode = postalCode
    self.country = country
  }

  /// The parts in `ADR` order.
  var parts: [String] { [postOfficeBox, extendedAddress, street, city, state, postalCode, country] }

  /// The address with `parts` in `ADR` order (missing parts empty).
  init(parts: [String]) {
    let padded = parts + Array(repeating: "", count: max(0, 7 - parts.count))
    self.init(
      street: padded[2], city: padded[3], state: padded[4], postalCode: padded[5], country: padded[6],
      postOfficeBox: padded[0], extendedAddress: padded[1])
  }
}
