/// The privacy report's style sheet: readable on screen and on paper. Printing shows everything
/// (no section is collapsed), keeps table rows whole and timelines on one page, and statuses are
/// told by words and shapes as well as colour.
enum ReportStyle {
  // `text`, the contents of Assets/ReportStyle.text, is embedded at build time by the EmbedAssets plugin.
}
