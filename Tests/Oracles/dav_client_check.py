#!/usr/bin/env python3
"""Drives a Kalends store server's CalDAV with python `caldav` (PyPI), a real client, and checks
its answers against `recurring-ical-events` on the same data.

Usage: dav_client_check.py URL TOKEN CALENDAR_TITLE HIDDEN_TITLE [FULL_TOKEN]

URL is the server's base (http://127.0.0.1:PORT); TOKEN the app token, given as the Basic
password; CALENDAR_TITLE the calendar the app was given; HIDDEN_TITLE one it was not. FULL_TOKEN,
when given, is another app's, with full access to calendars: it makes, changes and removes a
calendar. Prints one JSON object of what it did; exits non-zero with the reason on the first wrong
answer."""
import datetime as dt
import json
import os
import sys
from xml.etree import ElementTree

import dav_request

# caldav lives apart (tools/setup): its urllib3-future would replace the urllib3 others need.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "python-dav"))
import caldav  # noqa: E402
import icalendar
import recurring_ical_events

url, token, title, hidden = sys.argv[1:5]
full_token = sys.argv[5] if len(sys.argv) > 5 else None
report = {}


def check(condition, what):
    if not condition:
        print(json.dumps(report), file=sys.stderr)
        sys.exit(f"dav_client_check: {what}")


def raw(method, path, body=None, headers=None, secret=None):
    """One request outside the client library: (status, headers, body)."""
    return dav_request.request(url, secret or token, method, path, body, headers)


def vcalendar(*components):
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//dav_client_check//EN\r\n" + "".join(components) + "END:VCALENDAR\r\n"


def vevent(uid, lines):
    return f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260101T000000Z\r\n" + "".join(l + "\r\n" for l in lines) + "END:VEVENT\r\n"


# Discovery from the server's root, as a person would type it.
client = caldav.DAVClient(url=url + "/", username="app", password=token)
principal = client.principal()
calendars = principal.calendars()
names = sorted(c.get_display_name() for c in calendars)
report["calendars"] = names
check(names == [title], f"the app sees {names}, not only {title}")
calendar = calendars[0]

# Principal searches (RFC 3744) find the app itself, by part of its name, and nobody else.
def principal_search(match):
    search = (f'<D:property-search><D:prop><D:displayname/></D:prop><D:match>{match}</D:match></D:property-search>'
              if match is not None else "")
    status, _, body = raw("REPORT", "/", f'<?xml version="1.0"?><D:principal-property-search xmlns:D="DAV:" '
                          f'xmlns:C="urn:ietf:params:xml:ns:caldav">{search}<D:prop><D:displayname/>'
                          f'<C:calendar-home-set/></D:prop></D:principal-property-search>', {"Depth": "0"})
    check(status == 207, f"principal-property-search answered {status} {body}")
    return [element.text for element in ElementTree.fromstring(body).iter("{DAV:}href")]

own_name = principal.get_display_name()
check(principal_search(own_name[1:].upper()) == ["/dav/", "/dav/calendars/"], "a search by name finds the app")
check(principal_search("no such app") == [], "a search by another name finds nobody")
check(principal_search(None) == ["/dav/", "/dav/calendars/"], "a search without conditions lists the app only")
report["principalSearches"] = 3

objects = {
    "single@example.com": vcalendar(vevent("single@example.com", [
        "SUMMARY:Dentist", "DTSTART;TZID=Europe/Berlin:20261203T100000", "DTEND;TZID=Europe/Berlin:20261203T110000",
        "X-CLIENT-KEEP:kept as it was"])),
    "allday@example.com": vcalendar(vevent("allday@example.com", [
        "SUMMARY:Holiday", "DTSTART;VALUE=DATE:20261205", "DTEND;VALUE=DATE:20261207"])),
    "floating@example.com": vcalendar(vevent("floating@example.com", [
        "SUMMARY:Yoga", "DTSTART:20261204T180000", "DTEND:20261204T190000"])),
    "weekly@example.com": vcalendar(
        vevent("weekly@example.com", [
            "SUMMARY:Standup", "DTSTART;TZID=America/New_York:20261130T090000",
            "DTEND;TZID=America/New_York:20261130T091500", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10",
            "EXDATE;TZID=America/New_York:20261202T090000"]),
        vevent("weekly@example.com", [
            "SUMMARY:Standup (moved)", "RECURRENCE-ID;TZID=America/New_York:20261207T090000",
            "DTSTART;TZID=America/New_York:20261207T140000", "DTEND;TZID=America/New_York:20261207T141500"])),
}
for uid, text in objects.items():
    calendar.save_event(text)
report["saved"] = len(objects)

# Every object is listed with an ETag, and comes back with its UID, summary and kept X- property.
listed = {o.url.path.rsplit("/", 1)[-1]: o for o in calendar.events()}
check(len(listed) == len(objects), f"{len(listed)} objects listed, {len(objects)} saved")
single = calendar.event_by_uid("single@example.com")
parsed = icalendar.Calendar.from_ical(single.data)
event = parsed.walk("VEVENT")[0]
check(str(event["SUMMARY"]) == "Dentist", "the single event's summary")
check(str(event.get("X-CLIENT-KEEP")) == "kept as it was", "the client's X- property is served back")
weekly = icalendar.Calendar.from_ical(calendar.event_by_uid("weekly@example.com").data)
overrides = [c for c in weekly.walk("VEVENT") if c.get("RECURRENCE-ID")]
check(len(overrides) == 1 and str(overrides[0]["SUMMARY"]) == "Standup (moved)", "the override round-trips")
master = next(c for c in weekly.walk("VEVENT") if not c.get("RECURRENCE-ID"))
check(master.get("EXDATE") is not None, "the EXDATE round-trips")

# Time-range queries against recurring-ical-events over the very same texts.
def oracle(start, end):
    found = set()
    for uid, text in objects.items():
        if recurring_ical_events.of(icalendar.Calendar.from_ical(text)).between(start, end):
            found.add(uid)
    return found

windows = [
    (dt.datetime(2026, 12, 1), dt.datetime(2026, 12, 3)),
    (dt.datetime(2026, 12, 3, 9), dt.datetime(2026, 12, 3, 9, 30)),
    (dt.datetime(2026, 12, 5), dt.datetime(2026, 12, 6)),
    (dt.datetime(2026, 12, 7, 15), dt.datetime(2026, 12, 7, 18)),
    (dt.datetime(2026, 12, 7, 19), dt.datetime(2026, 12, 7, 20)),
    (dt.datetime(2027, 3, 1), dt.datetime(2027, 4, 1)),
    (dt.datetime(2026, 11, 28), dt.datetime(2026, 12, 20)),
]
compared = 0
for start, end in windows:
    utc_start, utc_end = start.replace(tzinfo=dt.timezone.utc), end.replace(tzinfo=dt.timezone.utc)
    got = {str(icalendar.Calendar.from_ical(o.data).walk("VEVENT")[0]["UID"])
           for o in calendar.search(start=utc_start, end=utc_end, event=True, expand=False)}
    want = oracle(utc_start, utc_end)
    check(got == want, f"window {start}..{end}: server {sorted(got)}, recurring-ical-events {sorted(want)}")
    compared += 1
report["windowsCompared"] = compared

# The same windows expanded by the server (RFC 4791 §9.6.5), instance by instance, against
# recurring-ical-events: one component per instance, zoned times in UTC, no recurrence left.
def instance_key(component):
    def value(name):
        moment = component[name].dt if component.get(name) is not None else None
        if isinstance(moment, dt.datetime) and moment.tzinfo is not None:
            return moment.astimezone(dt.timezone.utc).isoformat()
        return moment.isoformat() if moment is not None else None
    return (str(component["UID"]), value("DTSTART"), value("DTEND"), str(component["SUMMARY"]))

expanded_instances = 0
for start, end in windows:
    stamp = lambda moment: moment.strftime("%Y%m%dT%H%M%SZ")
    query = f"""<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
<D:prop><C:calendar-data><C:expand start="{stamp(start)}" end="{stamp(end)}"/></C:calendar-data></D:prop>
<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
<C:time-range start="{stamp(start)}" end="{stamp(end)}"/></C:comp-filter></C:comp-filter></C:filter>
</C:calendar-query>"""
    status, _, body = raw("REPORT", calendar.url.path, query, {"Depth": "1", "Content-Type": "application/xml"})
    check(status == 207, f"an expanded REPORT answered {status}")
    got = set()
    for element in ElementTree.fromstring(body).iter("{urn:ietf:params:xml:ns:caldav}calendar-data"):
        text = element.text
        check("RRULE" not in text and "EXDATE" not in text and "VTIMEZONE" not in text and "TZID" not in text,
              f"an expanded answer keeps recurrence or zones: {text}")
        for component in icalendar.Calendar.from_ical(text).walk("VEVENT"):
            if str(component["UID"]) == "weekly@example.com":
                check(component.get("RECURRENCE-ID") is not None, f"an instance without RECURRENCE-ID: {text}")
            got.add(instance_key(component))
    utc_start, utc_end = start.replace(tzinfo=dt.timezone.utc), end.replace(tzinfo=dt.timezone.utc)
    want = set()
    for text in objects.values():
        for component in recurring_ical_events.of(icalendar.Calendar.from_ical(text)).between(utc_start, utc_end):
            want.add(instance_key(component))
    check(got == want, f"expanded {start}..{end}: server {sorted(got)}, recurring-ical-events {sorted(want)}")
    expanded_instances += len(got)
report["expandedInstancesCompared"] = expanded_instances

# free-busy-query through the client's own call, against busy time merged from recurring-ical-events
# over the same texts (every object is opaque and confirmed: all of it is BUSY).
def oracle_busy(start, end):
    spans = []
    for text in objects.values():
        for component in recurring_ical_events.of(icalendar.Calendar.from_ical(text)).between(start, end):
            begin, finish = component["DTSTART"].dt, component["DTEND"].dt
            if not isinstance(begin, dt.datetime):
                begin = dt.datetime.combine(begin, dt.time(), dt.timezone.utc)
                finish = dt.datetime.combine(finish, dt.time(), dt.timezone.utc)
            if begin.tzinfo is None:
                begin, finish = begin.replace(tzinfo=dt.timezone.utc), finish.replace(tzinfo=dt.timezone.utc)
            spans.append((max(begin, start), min(finish, end)))
    merged = []
    for begin, finish in sorted(spans):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], finish))
        elif begin < finish:
            merged.append((begin, finish))
    return merged

for start, end in windows:
    utc_start, utc_end = start.replace(tzinfo=dt.timezone.utc), end.replace(tzinfo=dt.timezone.utc)
    answer = icalendar.Calendar.from_ical(calendar.freebusy_request(utc_start, utc_end).data)
    got = []
    for component in answer.walk("VFREEBUSY"):
        values = component.get("FREEBUSY", [])
        for value in values if isinstance(values, list) else [values]:
            check(value.params.get("FBTYPE", "BUSY") == "BUSY", f"a FBTYPE other than BUSY: {value.params}")
            got += [(period[0], period[1]) for period in value.dt] if isinstance(value.dt, list) else [value.dt]
    want = oracle_busy(utc_start, utc_end)
    check(sorted(got) == want, f"free/busy {start}..{end}: server {got}, recurring-ical-events {want}")
report["freeBusyCompared"] = len(windows)

# Multiget of two known objects and one unknown.
base = calendar.url.path
multiget = f"""<?xml version="1.0"?><C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
<D:prop><D:getetag/><C:calendar-data/></D:prop>
<D:href>{base}single%40example.com.ics</D:href><D:href>{base}allday%40example.com.ics</D:href>
<D:href>{base}nothing%40example.com.ics</D:href></C:calendar-multiget>"""
status, _, body = raw("REPORT", base, multiget, {"Content-Type": "application/xml", "Depth": "1"})
check(status == 207, f"multiget answered {status}")
check(body.count("BEGIN:VCALENDAR") == 2 and "404 Not Found" in body, "multiget: two objects and one 404")

# A stale If-Match is refused with 412 and writes nothing; the current one works.
path = base + "single%40example.com.ics"
status, headers, _ = raw("GET", path)
etag = headers.get("ETag") or headers.get("Etag")
check(status == 200 and etag, "GET gives an ETag")
changed = objects["single@example.com"].replace("Dentist", "Dentist (moved)")
status, _, _ = raw("PUT", path, changed, {"If-Match": etag, "Content-Type": "text/calendar"})
check(status == 204, f"PUT with the current ETag answered {status}")
status, _, _ = raw("PUT", path, objects["single@example.com"], {"If-Match": etag, "Content-Type": "text/calendar"})
check(status == 412, f"PUT with a stale ETag answered {status}")
check("Dentist (moved)" in calendar.event_by_uid("single@example.com").data, "the stale PUT wrote nothing")
status, _, _ = raw("PUT", path, changed, {"If-None-Match": "*", "Content-Type": "text/calendar"})
check(status == 412, f"If-None-Match: * on an existing object answered {status}")

# Bad input: clear errors, nothing written.
status, _, body = raw("PUT", base + "bad%40example.com.ics", "BEGIN:VCALENDAR\r\nnot iCalendar\r\n",
                      {"Content-Type": "text/calendar"})
check(status == 403 and "valid-calendar-data" in body, f"invalid iCalendar answered {status} {body}")
status, _, body = raw("PUT", base + "other.ics", objects["allday@example.com"], {"Content-Type": "text/calendar"})
check(status == 409 and "no-uid-conflict" in body and "allday%40example.com.ics</D:href>" in body,
      f"a UID under another name answered {status} {body}")
# A name of the client's own (Thunderbird, DAVx5 and vdirsyncer name resources by random ids).
named = objects["allday@example.com"].replace("allday@example.com", "named@example.com")
status, _, _ = raw("PUT", base + "b7e1c0de-named.ics", named, {"If-None-Match": "*", "Content-Type": "text/calendar"})
check(status == 201, f"a PUT under a name of the client's own answered {status}")
status, _, body = raw("GET", base + "b7e1c0de-named.ics")
check(status == 200 and "UID:named@example.com" in body, f"GET of the client's name answered {status}")
status, _, _ = raw("GET", base + "named%40example.com.ics")
check(status == 404, f"GET by the UID of an object named otherwise answered {status}")
status, _, _ = raw("DELETE", base + "b7e1c0de-named.ics")
check(status == 204, f"DELETE of the client's name answered {status}")
status, _, body = raw("PROPFIND", base, """<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]>
<D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&a;</D:displayname></D:prop></D:propfind>""", {"Depth": "0"})
check(status == 400 and "document type" in body, f"a DTD answered {status}")
status, _, body = raw("PROPFIND", base, "<D:propfind xmlns:D='DAV:'><D:prop>", {"Depth": "0"})
check(status == 400, f"malformed XML answered {status}")

# The hidden calendar is not there, by path either.
report["badInputRefused"] = 5

# Delete: gone from the listing and from GET.
calendar.event_by_uid("allday@example.com").delete()
status, _, _ = raw("GET", base + "allday%40example.com.ics")
check(status == 404, f"GET after DELETE answered {status}")
check(len(calendar.events()) == len(objects) - 1, "the listing after DELETE")
report["deleted"] = 1

# Sync (RFC 6578) through the client's own sync-collection, never its fallback: a first sync lists
# every object; after an add, a change and a delete elsewhere, the next names exactly those.
def ctag():
    status, _, body = raw("PROPFIND", base, """<?xml version="1.0"?><D:propfind xmlns:D="DAV:"
 xmlns:CS="http://calendarserver.org/ns/"><D:prop><CS:getctag/><D:sync-token/></D:prop></D:propfind>""",
                          {"Depth": "0"})
    check(status == 207 and "<CS:getctag>" in body, f"PROPFIND getctag answered {status} {body}")
    return body.split("<CS:getctag>")[1].split("</CS:getctag>")[0]

tag = ctag()
check(ctag() == tag, "getctag changes while nothing does")
sync = calendar.get_objects_by_sync_token(load_objects=True, disable_fallback=True)
check(str(sync.sync_token).startswith("urn:kalends:sync:"), f"the first sync's token is {sync.sync_token}")
check(len(sync) == len(objects) - 1, f"the first sync lists {len(sync)} objects, not {len(objects) - 1}")
calendar.save_event(vcalendar(vevent("late@example.com", [
    "SUMMARY:Late", "DTSTART:20261210T100000Z", "DTEND:20261210T110000Z"])))
floating = calendar.event_by_uid("floating@example.com")
floating.data = floating.data.replace("SUMMARY:Yoga", "SUMMARY:Yoga (longer)")
floating.save()
calendar.event_by_uid("weekly@example.com").delete()
check(ctag() != tag, "getctag is the same after changes")
updated, deleted = sync.sync()
name = lambda o: str(o.url.path).rsplit("/", 1)[-1]
check(str(sync.sync_token).startswith("urn:kalends:sync:"), f"the client fell back from sync: {sync.sync_token}")
check(sorted(map(name, updated)) == ["floating%40example.com.ics", "late%40example.com.ics"],
      f"sync updated {sorted(map(name, updated))}")
check(sorted(map(name, deleted)) == ["weekly%40example.com.ics"], f"sync deleted {sorted(map(name, deleted))}")
check(any("Yoga (longer)" in o.data for o in updated), "the synced change carries the new data")
updated, deleted = sync.sync()
check(not updated and not deleted, f"a sync with nothing changed named {len(updated)} and {len(deleted)}")
report["synced"] = {"first": len(objects) - 1, "updated": 2, "deleted": 1}

# A limit truncates with a 507 on the collection and a token that skips nothing; a made-up token
# is refused with valid-sync-token, so the client starts over.
def sync_report(sync_token, limit=None):
    limit_xml = f"<D:limit><D:nresults>{limit}</D:nresults></D:limit>" if limit else ""
    return raw("REPORT", base, f"""<?xml version="1.0"?><D:sync-collection xmlns:D="DAV:"><D:sync-token>{sync_token}</D:sync-token>
<D:sync-level>1</D:sync-level>{limit_xml}<D:prop><D:getetag/></D:prop></D:sync-collection>""",
               {"Content-Type": "application/xml"})

status, _, body = sync_report("", limit=2)
check(status == 207 and body.count("<D:response>") == 3 and "507 Insufficient Storage" in body,
      f"a first sync limited to 2 answered {status} {body}")
seen, next_token, pages = set(), "", 0
while pages < 10:
    status, _, body = sync_report(next_token, limit=2)
    responses = [part.split("</D:response>")[0] for part in body.split("<D:response>")[1:]]
    seen |= {r.split("<D:href>")[1].split("</D:href>")[0].rsplit("/", 1)[-1] for r in responses
             if "<D:getetag>" in r}
    check(status == 207, f"a paged sync answered {status} {body}")
    next_token = body.split("<D:sync-token>")[1].split("</D:sync-token>")[0]
    pages += 1
    if "HTTP/1.1 507" not in body:
        break
check(len(seen) == len(objects) - 1, f"paged syncs gave {sorted(seen)}")
status, _, body = sync_report("urn:kalends:sync:made-up")
check(status == 403 and "valid-sync-token" in body, f"a made-up sync token answered {status} {body}")
report["syncPaged"] = pages

# Calendars made, changed and removed by a program. One made by an app given chosen calendars joins
# them (as through the API); one with full access makes it with MKCALENDAR, renames and recolours it
# with PROPPATCH, stores in it, and removes it.
side = "/dav/calendars/6A1F3C52-9E0B-4C1D-8F3A-2B7D5E9C0A14/"
status, _, body = raw("MKCALENDAR", side, """<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>Side project</D:displayname>
</D:prop></D:set></C:mkcalendar>""")
check(status == 201, f"MKCALENDAR by an app given chosen calendars answered {status} {body}")
names = sorted(c.get_display_name() for c in principal.calendars())
check(names == ["Side project", title], f"after MKCALENDAR the app sees {names}")
status, _, body = raw("PROPFIND", side, "<D:propfind xmlns:D='DAV:' xmlns:C='urn:ietf:params:xml:ns:caldav'>"
                      "<D:prop><C:supported-calendar-component-set/></D:prop></D:propfind>", {"Depth": "0"})
check('name="VEVENT"' in body and "VTODO" not in body, f"a calendar made without reminders access: {body}")
status, _, body = raw("MKCALENDAR", side, "")
check(status == 405 and "resource-must-be-null" in body, f"MKCALENDAR where a calendar is answered {status}")
status, _, _ = raw("DELETE", side)
check(status == 204, f"DELETE of the app's calendar answered {status}")
# A calendar made at a name of the client's own stays there, and the name is free again once it
# is removed.
for attempt in range(2):
    status, _, body = raw("MKCALENDAR", "/dav/calendars/holidays/", "")
    check(status == 201, f"MKCALENDAR at a name answered {status} {body}")
    status, _, body = raw("PROPFIND", "/dav/calendars/", "<D:propfind xmlns:D='DAV:'><D:prop><D:displayname/>"
                          "</D:prop></D:propfind>", {"Depth": "1"})
    check("<D:href>/dav/calendars/holidays/</D:href>" in body, f"the named calendar is not listed at its name: {body}")
    named = caldav.Calendar(client=client, url=url + "/dav/calendars/holidays/")
    named.save_event(vcalendar(vevent("named@example.com", ["SUMMARY:Named", "DTSTART;VALUE=DATE:20270101",
                                                           "DTEND;VALUE=DATE:20270102"])))
    hrefs = [str(o.url.path) for o in named.events()]
    check(hrefs == ["/dav/calendars/holidays/named%40example.com.ics"], f"objects of the named calendar: {hrefs}")
    status, _, _ = raw("DELETE", "/dav/calendars/holidays/")
    check(status == 204, f"DELETE of the named calendar answered {status}")
if full_token:
    full = caldav.DAVClient(url=url + "/", username="app", password=full_token).principal()
    trips = full.make_calendar(name="Trips")
    check("Trips" in [c.get_display_name() for c in full.calendars()], "the made calendar is listed")
    status, _, body = raw("PROPFIND", trips.url.path, "<D:propfind xmlns:D='DAV:' xmlns:C='urn:ietf:params:xml:ns:"
                          "caldav'><D:prop><C:supported-calendar-component-set/></D:prop></D:propfind>", {"Depth": "0"},
                          secret=full_token)
    check('name="VEVENT"' in body and 'name="VTODO"' in body, f"a calendar made with both accesses: {body}")
    trips.set_properties([caldav.elements.dav.DisplayName("Journeys")])
    status, _, body = raw("PROPPATCH", trips.url.path, """<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"
 xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop><A:calendar-color>#FF8800FF</A:calendar-color></D:prop></D:set>
</D:propertyupdate>""", secret=full_token)
    check(status == 207 and "200 OK" in body, f"PROPPATCH of the colour answered {status} {body}")
    # Dead properties (a client's own, CalDAV's description and zone, Apple's order) are kept as
    # written and served back; a protected one fails the request and nothing of it is written.
    status, _, body = raw("PROPPATCH", trips.url.path, """<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"
 xmlns:X="urn:example" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop>
<X:mine>x &amp; y<X:inner a="1">deep</X:inner></X:mine><C:calendar-description>Where we go</C:calendar-description>
<A:calendar-order>12</A:calendar-order></D:prop></D:set></D:propertyupdate>""", secret=full_token)
    check(status == 207 and "200 OK" in body and "HTTP/1.1 403" not in body, f"a PROPPATCH of dead properties answered {status} {body}")
    status, _, body = raw("PROPPATCH", trips.url.path, """<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>Never</D:displayname><D:getetag>x</D:getetag>
</D:prop></D:set></D:propertyupdate>""", secret=full_token)
    check(status == 207 and "403 Forbidden" in body and "424 Failed Dependency" in body,
          f"a PROPPATCH with a protected property answered {status} {body}")
    status, _, body = raw("PROPFIND", trips.url.path, """<?xml version="1.0"?><D:propfind xmlns:D="DAV:"
 xmlns:A="http://apple.com/ns/ical/" xmlns:X="urn:example" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop>
<D:displayname/><A:calendar-color/><X:mine/><C:calendar-description/><A:calendar-order/></D:prop></D:propfind>""",
                          {"Depth": "0"}, secret=full_token)
    props = {element.tag: element for element in ElementTree.fromstring(body).iter()}
    check(props["{DAV:}displayname"].text == "Journeys" and props["{http://apple.com/ns/ical/}calendar-color"].text
          == "#FF8800FF", f"the calendar after PROPPATCH: {body}")
    mine = props["{urn:example}mine"]
    check(mine.text == "x & y" and mine.find("{urn:example}inner").text == "deep"
          and mine.find("{urn:example}inner").get("a") == "1", f"the client's own property: {body}")
    check(props["{urn:ietf:params:xml:ns:caldav}calendar-description"].text == "Where we go"
          and props["{http://apple.com/ns/ical/}calendar-order"].text == "12", f"the dead properties: {body}")
    status, _, body = raw("PROPPATCH", trips.url.path, """<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"
 xmlns:X="urn:example"><D:remove><D:prop><X:mine/></D:prop></D:remove></D:propertyupdate>""", secret=full_token)
    check(status == 207 and "200 OK" in body, f"removing a dead property answered {status} {body}")
    status, _, body = raw("PROPFIND", trips.url.path, """<?xml version="1.0"?><D:propfind xmlns:D="DAV:"
 xmlns:X="urn:example"><D:prop><X:mine/></D:prop></D:propfind>""", {"Depth": "0"}, secret=full_token)
    check("404 Not Found" in body, f"a removed dead property is still served: {body}")
    trips.save_event(vcalendar(vevent("trip@example.com", [
        "SUMMARY:Lisbon", "DTSTART;VALUE=DATE:20270301", "DTEND;VALUE=DATE:20270305"])))
    check(len(trips.events()) == 1, "the made calendar holds what was stored in it")
    # Floating times are judged in the calendar's calendar-timezone (RFC 4791 §9.9), or in the
    # zone a query names: 22:30 floating is 03:30Z the next day in New York, 13:30Z in Tokyo.
    def zone_text(tzid, offset):
        return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//check//EN\r\nBEGIN:VTIMEZONE\r\n"
                f"TZID:{tzid}\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:{offset}\r\n"
                f"TZOFFSETTO:{offset}\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n")
    status, _, body = raw("PROPPATCH", trips.url.path, """<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><C:calendar-timezone>""" + zone_text("America/New_York", "-0500")
                          + "</C:calendar-timezone></D:prop></D:set></D:propertyupdate>", secret=full_token)
    check(status == 207 and "200 OK" in body, f"PROPPATCH of calendar-timezone answered {status} {body}")
    trips.save_event(vcalendar(vevent("late@example.com", [
        "SUMMARY:Late call", "DTSTART:20270310T223000", "DTEND:20270310T230000"])))

    def floating_found(start, end, zone=None):
        timezone = f"<C:timezone>{zone}</C:timezone>" if zone else ""
        status, _, body = raw("REPORT", trips.url.path, f"""<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR">
<C:comp-filter name="VEVENT"><C:time-range start="{start}" end="{end}"/></C:comp-filter></C:comp-filter></C:filter>
{timezone}</C:calendar-query>""", {"Depth": "1"}, secret=full_token)
        check(status == 207, f"a calendar-query with a zone answered {status} {body}")
        return "late%40example.com.ics" in body

    check(floating_found("20270311T030000Z", "20270311T040000Z"), "the floating event is not at 03:30Z in New York")
    check(not floating_found("20270310T220000Z", "20270310T230000Z"), "the floating event is placed in UTC")
    check(floating_found("20270310T130000Z", "20270310T140000Z", zone_text("Asia/Tokyo", "+0900")),
          "the query's timezone is not used for floating times")
    status, _, body = raw("REPORT", trips.url.path, """<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR"/>
</C:filter><C:timezone>not a calendar</C:timezone></C:calendar-query>""", {"Depth": "1"}, secret=full_token)
    check(status == 403 and "valid-calendar-data" in body, f"a query with an unreadable timezone answered {status}")
    # An expansion and an alarm's range place floating times in that zone too (RFC 4791 §9.6.5, §9.9).
    status, _, body = raw("REPORT", trips.url.path, """<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data><C:expand start="20270311T030000Z"
 end="20270311T040000Z"/></C:calendar-data></D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter
 name="VEVENT"><C:time-range start="20270311T030000Z" end="20270311T040000Z"/></C:comp-filter></C:comp-filter>
</C:filter></C:calendar-query>""", {"Depth": "1"}, secret=full_token)
    check(status == 207 and "SUMMARY:Late call" in body and "DTSTART:20270310T223000" in body,
          f"the expansion left out the floating event at 03:30Z in New York: {body}")
    trips.save_event(vcalendar(vevent("alarmed@example.com", [
        "SUMMARY:Alarmed call", "DTSTART:20270312T223000", "DTEND:20270312T230000", "BEGIN:VALARM",
        "ACTION:DISPLAY", "DESCRIPTION:Call", "TRIGGER:-PT30M", "END:VALARM"])))

    def alarm_found(start, end):
        status, _, body = raw("REPORT", trips.url.path, f"""<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR">
<C:comp-filter name="VEVENT"><C:comp-filter name="VALARM"><C:time-range start="{start}" end="{end}"/>
</C:comp-filter></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>""", {"Depth": "1"}, secret=full_token)
        check(status == 207, f"a query on alarms answered {status} {body}")
        return "alarmed%40example.com.ics" in body

    # 22:30 floating in New York less 30 minutes fires at 03:00Z, not at 22:00Z.
    check(alarm_found("20270313T025000Z", "20270313T031000Z"), "the floating alarm does not fire at 03:00Z")
    check(not alarm_found("20270312T215000Z", "20270312T221000Z"), "the floating alarm fires in UTC")
    report["floatingZones"] = 6
    # limit-recurrence-set (RFC 4791 §9.6.6): the series whole, with only the changed occurrences
    # that were, or now are, in the window.
    trips.save_event(vcalendar(
        vevent("weekly@example.com", ["SUMMARY:Weekly", "DTSTART:20270405T090000Z", "DTEND:20270405T100000Z",
                                      "RRULE:FREQ=WEEKLY;COUNT=10"]),
        vevent("weekly@example.com", ["SUMMARY:Weekly (moved)", "RECURRENCE-ID:20270419T090000Z",
                                      "DTSTART:20270420T150000Z", "DTEND:20270420T160000Z"])))

    def limited(start, end):
        status, _, body = raw("REPORT", trips.url.path, f"""<?xml version="1.0"?><C:calendar-multiget xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data><C:limit-recurrence-set start="{start}"
 end="{end}"/></C:calendar-data></D:prop><D:href>{trips.url.path}weekly%40example.com.ics</D:href>
</C:calendar-multiget>""", {"Depth": "1"}, secret=full_token)
        check(status == 207 and "RRULE:FREQ=WEEKLY;COUNT=10" in body, f"limit-recurrence-set answered {status} {body}")
        return body.count("RECURRENCE-ID")

    check(limited("20270501T000000Z", "20270510T000000Z") == 0, "an occurrence changed outside the window is served")
    check(limited("20270419T000000Z", "20270419T120000Z") == 1, "an occurrence moved from the window is left out")
    check(limited("20270420T140000Z", "20270420T160000Z") == 1, "an occurrence moved into the window is left out")
    report["recurrenceSetsLimited"] = 3
    trips.delete(wipe=False)
    check("Journeys" not in [c.get_display_name() for c in full.calendars()], "the removed calendar is gone")
    # Extended MKCOL (RFC 5689), as DAVx5 makes a calendar; other kinds of collection are refused where they are made.
    status, _, body = raw("MKCOL", "/dav/calendars/phone/", """<?xml version="1.0"?><D:mkcol xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop><D:resourcetype>
<D:collection/><C:calendar/></D:resourcetype><D:displayname>Phone</D:displayname><A:calendar-color>#00AA00FF
</A:calendar-color><C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
</D:prop></D:set></D:mkcol>""", secret=full_token)
    check(status == 201, f"an extended MKCOL of a calendar answered {status} {body}")
    status, _, body = raw("PROPFIND", "/dav/calendars/phone/", "<D:propfind xmlns:D='DAV:' xmlns:C='urn:ietf:params:"
                          "xml:ns:caldav'><D:prop><D:displayname/><D:resourcetype/><C:supported-calendar-component-set/>"
                          "</D:prop></D:propfind>", {"Depth": "0"}, secret=full_token)
    check(status == 207 and "<D:displayname>Phone</D:displayname>" in body and "<C:calendar/>" in body
          and 'name="VTODO"' in body and 'name="VEVENT"' not in body, f"the calendar MKCOL made: {body}")
    for path, mkcol in [("/dav/calendars/plain/", None),
                        ("/dav/calendars/cards/", "<D:mkcol xmlns:D='DAV:' xmlns:R='urn:ietf:params:xml:ns:carddav'>"
                         "<D:set><D:prop><D:resourcetype><D:collection/><R:addressbook/></D:resourcetype></D:prop>"
                         "</D:set></D:mkcol>"),
                        ("/dav/addressbooks/work/", "<D:mkcol xmlns:D='DAV:' xmlns:C='urn:ietf:params:xml:ns:caldav'>"
                         "<D:set><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype></D:prop>"
                         "</D:set></D:mkcol>")]:
        status, _, body = raw("MKCOL", path, mkcol, secret=full_token)
        check(status == 403 and "valid-resourcetype" in body, f"MKCOL of {path} answered {status} {body}")
    names = [c.get_display_name() for c in full.calendars()]
    check("Phone" in names and len(names) == len(set(names)), f"calendars after the MKCOLs: {names}")
    status, _, _ = raw("DELETE", "/dav/calendars/phone/", secret=full_token)
    check(status == 204, f"DELETE of the calendar MKCOL made answered {status}")
    report["calendarMade"] = True
print(json.dumps(report))
