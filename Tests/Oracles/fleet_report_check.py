#!/usr/bin/env python3
"""Reads the fleet's privacy report page (`kalends fleet audit report --out`), as a browser left
its DOM (`chromium --headless --dump-dom`) or as written, and prints as JSON what a test compares
with the CLI: for each section (`stores`, `apps`, `access`), its table's rows, each the row's
`data-` attributes (without the prefix) and `cells`, the text of its cells; and `title`.

Usage: fleet_report_check.py PAGE.html
An independent reader of the page: Python's own HTML parser, nothing of Kalends.
"""
import json
import sys
from html.parser import HTMLParser


class FleetPage(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections = {}
        self.section = None
        self.row = None
        self.cell = None
        self.title = None
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self.in_title, self.title = True, ""
        if tag == "section":
            self.section = a.get("id")
            self.sections.setdefault(self.section, [])
        if tag == "tr" and self.section and any(k.startswith("data-") for k in a):
            self.row = {k[5:]: v for k, v in a.items() if k.startswith("data-")}
            self.row["cells"] = []
            self.sections[self.section].append(self.row)
        if tag == "td" and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row["cells"].append(" ".join(self.cell.split()))
            self.cell = None
        if tag == "tr":
            self.row = None
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.in_title:
            self.title += data


if len(sys.argv) != 2:
    sys.exit("usage: fleet_report_check.py PAGE.html")
page = FleetPage()
with open(sys.argv[1], encoding="utf-8") as f:
    page.feed(f.read())
print(json.dumps({"title": page.title, **page.sections}))
