#!/usr/bin/env python3
"""SQLite as an independent oracle for Kalends range queries.

Reads a JSON file {"instances": [[id, occurrence, start, end], ...], "windows": [[from, to], ...]},
loads the instances into an SQLite table with a B-tree index on (start), answers every window with
the natural RFC 4791 overlap query, and writes {"results": [[[id, occurrence, start, end], ...], ...]}
sorted by start, id, occurrence.

Usage: range_sqlite_oracle.py INPUT.json OUTPUT.json
"""
import json
import sqlite3
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as handle:
        data = json.load(handle)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE instance (id TEXT, occurrence INTEGER, start INTEGER, end INTEGER)")
    db.executemany("INSERT INTO instance VALUES (?, ?, ?, ?)", data["instances"])
    db.execute("CREATE INDEX instance_start ON instance (start)")
    query = (
        "SELECT id, occurrence, start, end FROM instance "
        "WHERE start < :to AND (end > :from OR (end = start AND start >= :from)) "
        "ORDER BY start, id, occurrence"
    )
    results = []
    for window_from, window_to in data["windows"]:
        rows = db.execute(query, {"from": window_from, "to": window_to}).fetchall()
        results.append([list(row) for row in rows])
    with open(sys.argv[2], "w") as handle:
        json.dump({"results": results}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
