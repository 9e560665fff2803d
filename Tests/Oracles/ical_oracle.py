#!/usr/bin/env python3
"""Independent oracle for Kalends' iCalendar import and export, with the PyPI packages `icalendar`
(parsing) and `recurring-ical-events` (expansion).

Usage: ical_oracle.py INPUT.json OUTPUT.json

INPUT is {"cases": [{"id": int, "file": path, "from": utc_seconds, "to": utc_seconds}, ...]}.
OUTPUT is {"results": [{"id": int, "occurrences": [occurrence, ...]} or {"id": int, "error": text}]}
where an occurrence is [start, end, uid, summary, location, description], sorted, with start and end
in UTC seconds: the VEVENT occurrences that recurring-ical-events returns between `from` and `to`.
Floating times and dates are read in UTC (the viewer's zone Kalends' tests use). Every file is
parsed with icalendar first, so a file it refuses is reported as an error.

Exit status: 0 when every case ran (a case may still report an error), 3 when a package is missing.
"""

import datetime
import json
import sys

try:
    import icalendar
    import recurring_ical_events
except ImportError:
    sys.stderr.write("ical_oracle: install icalendar and recurring-ical-events (pip) — run tools/setup\n")
    sys.exit(3)

UTC = datetime.timezone.utc


def seconds(value):
    """UTC seconds of a date, a floating (read in UTC) or an aware datetime."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return int(value.timestamp())
    return int(datetime.datetime(value.year, value.month, value.day, tzinfo=UTC).timestamp())


def text(component, name):
    value = component.get(name)
    return None if value is None else str(value)


def occurrences(path, start, end):
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    window = (datetime.datetime.fromtimestamp(start, UTC), datetime.datetime.fromtimestamp(end, UTC))
    result = []
    for event in recurring_ical_events.of(calendar).between(*window):
        begin = event["DTSTART"].dt
        finish = event["DTEND"].dt if "DTEND" in event else begin
        if "DTEND" not in event and "DURATION" in event:
            finish = begin + event["DURATION"].dt
        elif "DTEND" not in event and not isinstance(begin, datetime.datetime):
            finish = begin + datetime.timedelta(days=1)
        result.append(
            [seconds(begin), seconds(finish), text(event, "UID"), text(event, "SUMMARY") or "",
             text(event, "LOCATION"), text(event, "DESCRIPTION")]
        )
    result.sort(key=lambda item: [str(part) for part in item])
    return result


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(64)
    with open(sys.argv[1]) as handle:
        cases = json.load(handle)["cases"]
    results = []
    for case in cases:
        try:
            results.append({"id": case["id"], "occurrences": occurrences(case["file"], case["from"], case["to"])})
        except Exception as error:  # reported per case, so one bad file does not hide the others
            results.append({"id": case["id"], "error": f"{type(error).__name__}: {error}"})
    with open(sys.argv[2], "w") as handle:
        json.dump({"results": results}, handle)


if __name__ == "__main__":
    main()
