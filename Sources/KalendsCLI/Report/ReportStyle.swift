/// The privacy report's style sheet: readable on screen and on paper. Printing shows everything
/// (no section is collapsed), keeps table rows whole and timelines on one page, and statuses are
/// told by words and shapes as well as colour.
enum ReportStyle {
  static let css = """
    :root { --ink: #1b1b1b; --muted: #5a5a5a; --line: #d0d0d0; --granted: #1b7f3b; --partial: #a86a00;
      --refused: #b3261e; --unset: #6d6d6d; --use: #2f5fb3; --paper: #fff; }
    * { box-sizing: border-box; }
    body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink);
      background: var(--paper); margin: 0 auto; max-width: 1100px; padding: 24px 28px 48px; }
    h1 { font-size: 1.7em; margin: 0 0 4px; }
    /* A long report lays out only what is on screen (printing lays out everything). */
    main > section { content-visibility: auto; contain-intrinsic-size: auto 1500px; }
    #apps .app { content-visibility: auto; contain-intrinsic-size: auto 150px; }
    #apps table { table-layout: fixed; margin: 14px 0 4px; }
    #apps caption { text-align: left; font-weight: 600; padding: 2px 0 4px; }
    #apps th:nth-child(1) { width: 11%; } #apps th:nth-child(2) { width: 15%; } #apps th:nth-child(3) { width: 20%; }
    #apps th:nth-child(4) { width: 17%; } #apps th:nth-child(5) { width: 13%; }
    #apps thead th:nth-child(6), #apps thead th:nth-child(7) { width: 12%; }
    #apps tbody th { background: none; font-weight: 400; }
    h2 { font-size: 1.25em; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--ink); }
    h3 { font-size: 1em; margin: 18px 0 4px; }
    p.lead, .muted { color: var(--muted); }
    code, pre { font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
    pre { background: #f4f4f4; padding: 10px 12px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
    nav ol { columns: 2; padding-left: 20px; margin: 8px 0; }
    table { border-collapse: collapse; width: 100%; margin: 6px 0 4px; font-size: 13.5px; }
    th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); }
    th { background: #efefef; font-weight: 600; }
    td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr { break-inside: avoid; }
    .status { font-weight: 600; } #apps .status { white-space: nowrap; }
    time { white-space: nowrap; }
    .status::before { display: inline-block; width: 1.1em; }
    .status.granted { color: var(--granted); } .status.granted::before { content: "●"; }
    .status.partial { color: var(--partial); } .status.partial::before { content: "◐"; }
    .status.refused { color: var(--refused); } .status.refused::before { content: "✕"; }
    .status.unset { color: var(--unset); } .status.unset::before { content: "○"; }
    #verdict { font-weight: 600; padding: 10px 12px; border-left: 6px solid var(--unset); background: #f6f6f6; }
    [data-state="proven"] { border-color: var(--granted) !important; }
    [data-state="partial"] { border-color: var(--partial) !important; }
    [data-state="failed"] { border-color: var(--refused) !important; color: var(--refused); }
    td.proof[data-proof="proven"] strong { color: var(--granted); }
    td.proof[data-proof="failed"] strong { color: var(--refused); }
    td.proof { font-size: 12.5px; min-width: 16em; }
    figure { margin: 14px 0 18px; break-inside: avoid; }
    figcaption { font-size: 13px; color: var(--muted); margin-top: 2px; }
    svg.timeline { max-width: 100%; height: auto; display: block; }
    svg .axis, svg .tick { stroke: #9a9a9a; stroke-width: 1; } svg .tick { stroke-dasharray: 2 3; }
    svg .lane { stroke: var(--line); }
    svg text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: var(--muted); }
    svg .tick-label, svg .decision-label { text-anchor: middle; } svg .lane-label { fill: var(--ink); }
    svg .decision { stroke: #000; stroke-width: 0.8; }
    svg .granted { fill: var(--granted); } svg .partial { fill: var(--partial); }
    svg .refused { fill: var(--refused); } svg .unset { fill: var(--unset); }
    svg .request { fill: #fff; stroke: var(--ink); stroke-width: 1.4; }
    svg .refusal { stroke: var(--refused); stroke-width: 2; }
    svg .use { fill: var(--use); }
    ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 22px; font-size: 13px; }
    ul.legend svg { vertical-align: middle; margin-right: 4px; }
    form#key-form { display: flex; gap: 8px; margin: 8px 0; } #key-input { flex: 1; font: inherit; padding: 4px 6px; }
    @media print {
      body { max-width: none; padding: 0; font-size: 11px; }
      main > section, #apps .app { content-visibility: visible; contain-intrinsic-size: none; }
      #apps .app { break-inside: avoid; }
      nav, form#key-form { display: none; }
      h2 { break-after: avoid; } pre { background: none; border: 1px solid var(--line); }
      a { color: inherit; text-decoration: none; }
    }
    """
}
