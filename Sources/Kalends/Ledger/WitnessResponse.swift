/// A witness's answer to `add-checkpoint` (C2SP tlog-witness): the HTTP status, the content type
/// and the body.
public struct WitnessResponse: Hashable, Sendable {
  /// 200 with cosignature lines; 400 malformed; 403 no trusted signature; 404 unknown log; 409 the
  /// old size is not the one the witness knows (the body says which) or a fork; 422 a bad proof.
  public let status: Int
  /// `text/x.tlog.size` for a 409 with a size; `text/plain` otherwise.
  public let contentType: String
  /// The cosignature lines, the size the witness knows, or the reason.
  public let body: String

  static func failure(_ status: Int, _ reason: String) -> WitnessResponse {
    WitnessResponse(status: status, contentType: "text/plain; charset=utf-8", body: reason + "\n")
  }
}
