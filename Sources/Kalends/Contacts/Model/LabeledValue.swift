/// A value with a label, as Contacts' `CNLabeledValue`: `home`, `work`, `mobile`, `main`, `other`,
/// or any text the person chose.
public struct LabeledValue<Value: Hashable & Sendable>: Hashable, Sendable {
  /// The label; `nil` when the value has none.
  public var label: String?
  /// The value.
  public var value: Value

  /// A value with `label` (none by default).
  public init(label: String? = nil, value: Value) {
    self.label = label
    self.value = value
  }
}
