#!/usr/bin/env python3
"""The iCalendar import benchmark: a deterministic N-event .ics file, imported end to end by
`kalends import` into a new store, beside the time the Python package `icalendar` takes to parse
the same file (and `recurring-ical-events` to expand a year of it, for scale).

Usage: bench_ical.py KALENDS_BINARY [--events N] [--runs R]

The file mixes what real calendars hold: 80% single events (zoned, UTC, all-day), 20% recurring
series (weekly, monthly by weekday, daily with COUNT) with EXDATEs and a RECURRENCE-ID override
each, titles and descriptions with escapes and folded lines. Prints one Markdown table.
"""

import argparse
import datetime
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "Europe/London"]


def fold(line):
    data = line.encode()
    parts = []
    while len(data) > 75:
        cut = 75 if not parts else 74
        while data[cut] & 0xC0 == 0x80:
            cut -= 1
        parts.append(data[:cut])
        data = data[cut:]
    parts.append(data)
    return b"\r\n ".join(parts).decode()


def generate(count, seed=2026):
    rng = random.Random(seed)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kalends//bench_ical//EN", "X-WR-CALNAME:Benchmark"]
    base = datetime.datetime(2026, 1, 1)
    for index in range(count):
        uid = f"bench-{index}@kalends.test"
        start = base + datetime.timedelta(days=rng.randrange(730), hours=rng.randrange(7, 19), minutes=rng.choice([0, 30]))
        end = start + datetime.timedelta(minutes=rng.choice([30, 60, 90]))
        kind = rng.random()
        fmt = "%Y%m%dT%H%M%S"
        zone = rng.choice(ZONES)
        event = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z"]
        if kind < 0.1:
            event += [f"DTSTART;VALUE=DATE:{start:%Y%m%d}", f"DTEND;VALUE=DATE:{start + datetime.timedelta(days=1):%Y%m%d}"]
        elif kind < 0.3:
            event += [f"DTSTART:{start.strftime(fmt)}Z", f"DTEND:{end.strftime(fmt)}Z"]
        else:
            event += [f"DTSTART;TZID={zone}:{start.strftime(fmt)}", f"DTEND;TZID={zone}:{end.strftime(fmt)}"]
        event += [
            f"SUMMARY:Meeting {index}\\, room {rng.randrange(1, 40)}",
            fold("DESCRIPTION:" + "Agenda\\; notes\\, links and more text that is long enough to fold. " * rng.randrange(1, 3)),
            f"LOCATION:Building {rng.randrange(1, 9)}",
            "SEQUENCE:0",
            "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
        ]
        recurring = kind >= 0.3 and rng.random() < 0.28
        if recurring:
            rule = rng.choice(["FREQ=WEEKLY;COUNT=20", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=DAILY;COUNT=10"])
            event.append("RRULE:" + rule)
            if rule.startswith("FREQ=WEEKLY") or rule.startswith("FREQ=DAILY"):
                step = 7 if "WEEKLY" in rule else 1
                excluded = start + datetime.timedelta(days=step * 2)
                event.append(f"EXDATE;TZID={zone}:{excluded.strftime(fmt)}")
        event.append("END:VEVENT")
        lines += event
        if recurring and ("WEEKLY" in rule or "DAILY" in rule):
            step = 7 if "WEEKLY" in rule else 1
            original = start + datetime.timedelta(days=step)
            moved = original + datetime.timedelta(hours=1)
            lines += [
                "BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z",
                f"RECURRENCE-ID;TZID={zone}:{original.strftime(fmt)}",
                f"DTSTART;TZID={zone}:{moved.strftime(fmt)}",
                f"DTEND;TZID={zone}:{(moved + (end - start)).strftime(fmt)}",
                f"SUMMARY:Meeting {index} (moved)", "SEQUENCE:1", "END:VEVENT",
            ]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


def best(runs, action):
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kalends")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    import icalendar
    import recurring_ical_events

    data = generate(options.events)
    work = tempfile.mkdtemp(prefix="kalends-bench-ical-")
    try:
        path = os.path.join(work, "bench.ics")
        with open(path, "wb") as handle:
            handle.write(data)

        def kalends_import():
            store = os.path.join(work, "store")
            shutil.rmtree(store, ignore_errors=True)
            subprocess.run([options.kalends, "init", "--store", store], check=True, stdout=subprocess.DEVNULL)
            subprocess.run([options.kalends, "import", path, "--store", store], check=True, stdout=subprocess.DEVNULL)

        kalends = best(options.runs, kalends_import)
        calendar = None

        def parse():
            nonlocal calendar
            calendar = icalendar.Calendar.from_ical(data)

        parsed = best(options.runs, parse)
        year = (datetime.datetime(2026, 1, 1), datetime.datetime(2027, 1, 1))
        expanded = best(1, lambda: recurring_ical_events.of(calendar).between(*year))
        megabytes = len(data) / 1e6
        print(f"| file | {options.events:,} events, {megabytes:.1f} MB |")
        print("| --- | --- |")
        print(f"| `kalends import` (init, parse, validate, one transaction with the index, fsync) | {kalends:.2f} s |")
        print(f"| `icalendar.Calendar.from_ical` (parse only) | {parsed:.2f} s |")
        print(f"| `recurring_ical_events.of(...).between(2026, 2027)` (expand a year) | {expanded:.2f} s |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
