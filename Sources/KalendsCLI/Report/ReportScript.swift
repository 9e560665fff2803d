/// The privacy report's script: checks, in the browser and with nothing but Web Crypto (SHA-256,
/// Ed25519), the checkpoint's signature and witness cosignatures (C2SP signed-note,
/// tlog-cosignature), and for every decision listed its record's hash (docs/log-format.md "The
/// hash"), that the record states what its row shows (the codes the page was made from, and the
/// record's own words printed beside the row), and its inclusion path (RFC 9162 §2.1.3.2) to the
/// checkpoint's root. It marks each row `proven`, `failed`, `uncovered` (after the checkpoint)
/// or `unchecked` (no key to check with), and sets `data-verification` on the body when done. The
/// person may paste the key they hold to check again with it: a page cannot vouch for the key it
/// carries.
enum ReportScript {
  // `text`, the contents of Assets/ReportScript.js, is embedded at build time by the EmbedAssets plugin.
}
