#!/usr/bin/env python3
"""Reads a privacy report's DOM as headless Chromium left it after the page's script ran
(`chromium --headless --dump-dom`) and prints, as JSON, what a test compares with the CLI:

- `verification`: the body's data-verification (`done` once the script finished);
- `checkedMs`: milliseconds from the start of loading until the script had checked every proof;
- `verdict`: the verdict's state and text;
- `apps`: the rows of "Apps at a glance", each {client, service, app, status, reason, lastRead,
  lastCaller, reads7d, refusals7d}, values as `kalends audit apps --format json` prints them
  (codes from the cells' data-value, numbers from the cells' text);
- `proofs`: for each decision row, its position and its proof cell's state and text.

Usage: report_dom_check.py DOM.html
An independent reader of the page: Python's own HTML parser, nothing of Kalends.
"""
import json
import sys
from html.parser import HTMLParser


class ReportDOM(HTMLParser):
    def __init__(self):
        super().__init__()
        self.body = {}
        self.verdict = {"state": None, "text": ""}
        self.apps = []
        self.proofs = []
        self.section = None
        self.row = None
        self.cell = None
        self.capture = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "section":
            self.section = a.get("id")
        if tag == "p" and a.get("id") == "verdict":
            self.verdict["state"] = a.get("data-state")
            self.capture = self.verdict
        if tag == "tr" and self.section == "apps" and "data-client" in a:
            self.row = {"client": a["data-client"], "service": a["data-service"], "app": a.get("data-app") or None}
            self.apps.append(self.row)
        if tag == "tr" and self.section == "decisions" and "data-position" in a:
            self.row = {"position": int(a["data-position"]), "kind": a.get("data-kind"), "text": ""}
            self.proofs.append(self.row)
        if tag in ("td", "th") and self.row is not None:
            field = a.get("data-field")
            if self.section == "apps" and field:
                self.cell = {"field": field, "value": a.get("data-value"), "text": ""}
            if self.section == "decisions" and "proof" in (a.get("class") or "").split():
                self.row["state"] = a.get("data-proof")
                self.cell = {"field": "proof", "text": ""}

    def handle_endtag(self, tag):
        if tag == "p" and self.capture is self.verdict:
            self.capture = None
        if tag in ("td", "th") and self.cell is not None:
            if self.cell["field"] == "proof":
                self.row["text"] = self.cell["text"].strip()
            else:
                value = self.cell["value"]
                text = self.cell["text"].strip()
                if self.cell["field"] in ("reads7d", "refusals7d"):
                    value = int(text)
                self.row[self.cell["field"]] = value if value != "" else None
            self.cell = None
        if tag == "tr":
            self.row = None
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.capture is not None:
            self.capture["text"] += data


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        dom = ReportDOM()
        dom.feed(f.read())
    print(json.dumps({
        "verification": dom.body.get("data-verification"),
        "checkedMs": int(dom.body["data-checked-ms"]) if "data-checked-ms" in dom.body else None,
        "verdict": {"state": dom.verdict["state"], "text": dom.verdict["text"].strip()},
        "apps": dom.apps,
        "proofs": dom.proofs,
    }))


if __name__ == "__main__":
    main()
