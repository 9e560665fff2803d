#!/usr/bin/env python3
"""Compares the VALARMs of an iCalendar object a client stored with those the server served back,
with PyPI's `icalendar` as the reader (no Kalends code): same count per component, in order; each
served alarm holds every property of the stored one but its TRIGGER, with the same parameters and
value; and each TRIGGER fires at the same offset from its component's start (RELATED=END counted
from the end, as RFC 5545 §3.8.6.3 says).

    Tests/Oracles/ical_alarm_check.py STORED.ics SERVED.ics    # prints {"alarms": N}; exits 1 on a difference
"""
import json
import sys

import icalendar


def offset(alarm, component):
    trigger = alarm.get("TRIGGER")
    value = trigger.dt
    start = component.get("DTSTART") or component.get("DUE")
    if not hasattr(value, "total_seconds"):  # an absolute trigger
        return (value - start.dt).total_seconds()
    seconds = value.total_seconds()
    if trigger.params.get("RELATED", "START").upper() == "END":
        end = component.get("DTEND")
        length = (end.dt - start.dt).total_seconds() if end else component.get("DURATION").dt.total_seconds()
        seconds += length
    return seconds


def properties(alarm):
    return sorted(
        (name, sorted(value.params.items()) if hasattr(value, "params") else [], value.to_ical().decode())
        for name, values in alarm.items() if name != "TRIGGER"
        for value in (values if isinstance(values, list) else [values]))


def main():
    stored, served = (icalendar.Calendar.from_ical(open(path, "rb").read()) for path in sys.argv[1:3])
    kinds = ("VEVENT", "VTODO")
    mine = [c for c in stored.walk() if c.name in kinds]
    theirs = [c for c in served.walk() if c.name in kinds]
    if len(mine) != len(theirs):
        sys.exit(f"{len(mine)} components stored, {len(theirs)} served")
    count = 0
    for a, b in zip(mine, theirs):
        alarms_a = [c for c in a.subcomponents if c.name == "VALARM"]
        alarms_b = [c for c in b.subcomponents if c.name == "VALARM"]
        if len(alarms_a) != len(alarms_b):
            sys.exit(f"{a.get('UID')}: {len(alarms_a)} alarms stored, {len(alarms_b)} served")
        for x, y in zip(alarms_a, alarms_b):
            if offset(x, a) != offset(y, b):
                sys.exit(f"{a.get('UID')}: an alarm at {offset(x, a)} s is served at {offset(y, b)} s")
            missing = [p for p in properties(x) if p not in properties(y)]
            if missing:
                sys.exit(f"{a.get('UID')}: an alarm lost {missing}; served {properties(y)}")
            count += 1
    print(json.dumps({"alarms": count}))


if __name__ == "__main__":
    main()
