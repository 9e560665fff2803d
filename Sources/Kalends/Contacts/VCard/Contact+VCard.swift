extension Contact {
  /// The contact of a vCard 3.0 or 4.0 text holding exactly one card of a person or an
  /// organization: what a CardDAV address object resource holds (RFC 6352 §5.1). Its `UID`
  /// becomes ``externalID``; properties Kalends does not model are kept in
  /// ``additionalProperties``.
  ///
  /// - Throws: ``VCardError`` naming the line of the first problem; ``VCardError/Reason/refused(_:)``
  ///   for a text of several cards, or of a group.
  public init(vCard bytes: [UInt8]) throws(VCardError) {
    guard case .contact(let contact) = try AddressObject(vCard: bytes) else {
      throw VCardError(line: 1, .refused("a group is not a contact"))
    }
    self = contact
  }

  /// The contact as one vCard of `version`, as ``ContactStore/exportVCards(_:version:groups:)`` writes
  /// it (without its groups).
  public func vCard(_ version: VCardVersion) -> String {
    var writer = VCardWriter(version: version)
    writer.write(self)
    return writer.text
  }
}

extension Contact {
  /// Whether the kept vCard property `line` is a formatted name (`FN`, with or without a group
  /// or parameters): one a client wrote other than the name parts make, which a vCard carries
  /// instead of the derived one until a name part changes.
  static func isFormattedName(_ line: String) -> Bool {
    let name = line.prefix { $0 != ":" && $0 != ";" }.split(separator: ".").last ?? ""
    return name.uppercased() == "FN"
  }

  /// Whether any part of the name differs between `self` and `other`.
  func namePartsDiffer(from other: Contact) -> Bool {
    (namePrefix, givenName, middleName, familyName, nameSuffix, organizationName)
      != (
        other.namePrefix, other.givenName, other.middleName, other.familyName, other.nameSuffix, other.organizationName
      )
  }
}
