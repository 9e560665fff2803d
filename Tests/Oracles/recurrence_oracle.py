#!/usr/bin/env python3
"""Independent oracle for Kalends' recurrence engine: expands recurrence sets with python-dateutil
(dateutil.rrule.rrulestr / rruleset) and the standard library's zoneinfo.

Usage: recurrence_oracle.py INPUT.json OUTPUT.json

INPUT is {"cases": [case, ...]} where a case is
  {"id": int, "kind": "zoned" | "floating" | "allday", "zone": "Europe/Berlin" (zoned only),
   "dtstart": "YYYYMMDDTHHMMSS", "rules": ["FREQ=...", ...], "rdates": [...], "exdates": [...],
   "limit": int, "after": "YYYYMMDDTHHMMSS" or null, "horizonYear": int}
OUTPUT is {"results": [{"id": int, "occurrences": [[local, utc_seconds_or_null], ...]}]}: the first
`limit` occurrences (wall-clock order) with a wall-clock start at or after `after`, among those before
January 1 of `horizonYear + 1`.

Semantics chosen by Kalends, reproduced here:
  - DTSTART is always an occurrence (added as an RDATE, as recurring-ical-events does); COUNT counts
    what the rule generates.
  - A zoned series with a UTC UNTIL compares it with each occurrence's instant (dateutil does this
    natively with an aware DTSTART). A DATE UNTIL is compared with the wall-clock date (inclusive:
    rewritten to T235959); a floating UNTIL with the wall clock; for floating and all-day series a UTC
    UNTIL is read as a wall-clock time (its Z is dropped), and for all-day series only its date counts.
  - Wall-clock times are resolved with zoneinfo and fold=0: a time in a DST gap takes the offset before
    the gap, a repeated time its first occurrence (RFC 5545 section 3.3.5, PEP 495).

Compensated dateutil deviation: for FREQ=WEEKLY, dateutil's first period runs from DTSTART to the
end of its week instead of being the whole week, which changes BYSETPOS there (RFC 5545 applies
BYSETPOS to the whole week, then drops what is before DTSTART). We expand such rules from the start of
DTSTART's week (with BYDAY made explicit), drop what precedes DTSTART, and raise COUNT by the number
dropped.

Expansion stops after `horizonYear` by lowering datetime.MAXYEAR, which dateutil reads to end a
series, so that rules that never match cannot loop until year 9999.
"""

import datetime
import json
import re
import sys

try:
    from dateutil.rrule import rrulestr, rruleset
except ImportError:
    sys.stderr.write("recurrence_oracle: python-dateutil is missing (pip install python-dateutil)\n")
    sys.exit(3)
from zoneinfo import ZoneInfo

WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def parse_local(text):
    return datetime.datetime.strptime(text, "%Y%m%dT%H%M%S")


def fmt_local(value):
    return value.strftime("%Y%m%dT%H%M%S")


def parts_of(rule):
    return dict(part.split("=", 1) for part in rule.split(";"))


def text_of(parts):
    return ";".join(f"{name}={value}" for name, value in parts.items())


def rewrite_until(parts, kind, aware):
    """Returns the UNTIL value to give dateutil, per the semantics above."""
    until = parts.get("UNTIL")
    if until is None:
        return None
    if kind == "allday":
        return until[:8] + "T235959"
    if len(until) == 8:
        return until + "T235959"
    if until.endswith("Z"):
        return until if aware else until[:-1]
    return until


def expand_rule(rule, dtstart, kind, aware):
    """Occurrences of one rule, in wall-clock order, lazily (a generator)."""
    parts = parts_of(rule)
    until = rewrite_until(parts, kind, aware)
    if until is not None:
        parts["UNTIL"] = until
    if parts["FREQ"] == "WEEKLY" and "BYSETPOS" in parts:
        wkst = WEEKDAYS.index(parts.get("WKST", "MO"))
        parts.setdefault("BYDAY", WEEKDAYS[dtstart.weekday()])
        week_start = dtstart - datetime.timedelta(days=(dtstart.weekday() - wkst) % 7)
        if "COUNT" in parts:
            uncounted = dict(parts)
            del uncounted["COUNT"]
            dropped = 0
            for value in rrulestr(text_of(uncounted), dtstart=week_start):
                if value >= dtstart:
                    break
                dropped += 1
            parts["COUNT"] = str(int(parts["COUNT"]) + dropped)
        return (value for value in rrulestr(text_of(parts), dtstart=week_start) if value >= dtstart)
    return iter(rrulestr(text_of(parts), dtstart=dtstart))


def expand_case(case):
    kind = case["kind"]
    aware = kind == "zoned" and any(
        "UNTIL" in parts_of(rule) and parts_of(rule)["UNTIL"].endswith("Z") for rule in case["rules"]
    )
    zone = ZoneInfo(case["zone"]) if kind == "zoned" else None
    tzinfo = zone if aware else None

    def local(text):
        return parse_local(text).replace(tzinfo=tzinfo)

    dtstart = local(case["dtstart"])
    result_set = rruleset()
    for rule in case["rules"]:
        result_set.rrule(list_like(expand_rule(rule, dtstart, kind, aware)))
    result_set.rdate(dtstart)
    for text in case["rdates"]:
        result_set.rdate(local(text))
    for text in case["exdates"]:
        result_set.exdate(local(text))
    after = local(case["after"]) if case.get("after") else None
    occurrences = []
    for value in result_set:
        if after is not None and value < after:
            continue
        naive = value.replace(tzinfo=None)
        utc = int(naive.replace(tzinfo=zone).timestamp()) if zone else None
        occurrences.append([fmt_local(naive), utc])
        if len(occurrences) >= case["limit"]:
            break
    return occurrences


class list_like:
    """Wraps a generator so that rruleset.rrule() accepts it (rruleset only iterates its rules)."""

    def __init__(self, generator):
        self.generator = generator

    def __iter__(self):
        return self.generator


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    with open(sys.argv[1]) as handle:
        cases = json.load(handle)["cases"]
    results = []
    original_maxyear = datetime.MAXYEAR
    for case in cases:
        datetime.MAXYEAR = case["horizonYear"]
        try:
            results.append({"id": case["id"], "occurrences": expand_case(case)})
        finally:
            datetime.MAXYEAR = original_maxyear
    with open(sys.argv[2], "w") as handle:
        json.dump({"results": results}, handle)


if __name__ == "__main__":
    main()
