#!/usr/bin/env python3
"""Two-way sync of a Kalends store server's calendar and address book with local folders by
vdirsyncer (PyPI), then khal and khard reading what it synced: real programs, real server.

Usage: dav_sync_check.py URL TOKEN CALENDAR_ID

URL is the server's base (http://127.0.0.1:PORT); TOKEN an app token with full access to calendars
and contacts, given as the Basic password; CALENDAR_ID the calendar it syncs (holding at least one
event), beside the store's address book (holding at least one contact). vdirsyncer, khal and khard
come from .build/python-vdir (tools/setup). Prints one JSON object of what it did; exits non-zero
with the reason on the first wrong answer."""
import glob
import json
import os
import re
import sys
import tempfile

from vdir_peer import check, configure, raw, report, run

url, token, calendar = sys.argv[1:4]
configure("dav_sync_check", url, token)


work = tempfile.mkdtemp(prefix="kalends-vdir-")
contacts_dir, calendars_dir = os.path.join(work, "contacts"), os.path.join(work, "calendars")
config = os.path.join(work, "config")
with open(config, "w") as out:
    out.write(f"""[general]
status_path = "{work}/status/"

[pair contacts]
a = "contacts_local"
b = "contacts_remote"
collections = ["from b"]
conflict_resolution = "b wins"

[storage contacts_local]
type = "filesystem"
path = "{contacts_dir}/"
fileext = ".vcf"

[storage contacts_remote]
type = "carddav"
url = "{url}/"
username = "vdirsyncer"
password = "{token}"

[pair calendars]
a = "calendars_local"
b = "calendars_remote"
collections = ["{calendar}"]
conflict_resolution = "b wins"

[storage calendars_local]
type = "filesystem"
path = "{calendars_dir}/"
fileext = ".ics"

[storage calendars_remote]
type = "caldav"
url = "{url}/"
username = "vdirsyncer"
password = "{token}"
""")

# First sync: discovery from the server's root (the collections made locally), then every item.
run("vdirsyncer", "-c", config, "discover", stdin="y\n" * 10)
run("vdirsyncer", "-c", config, "sync")
local_events = os.path.join(calendars_dir, calendar)
local_cards = os.path.join(contacts_dir, "contacts")
events = sorted(glob.glob(os.path.join(local_events, "*.ics")))
cards = sorted(glob.glob(os.path.join(local_cards, "*.vcf")))
check(events and cards, f"the first sync brought {len(events)} events and {len(cards)} cards")
report["firstSync"] = {"events": len(events), "cards": len(cards)}



# A change on each side: a card's formatted name here, an event's summary there.
card = cards[0]
with open(card) as file:
    text = file.read()
text = "\r\n".join("FN:Dr. Changed Here" if line.startswith("FN:") else line for line in text.splitlines()) + "\r\n"
with open(card, "w") as file:
    file.write(text)
event_href = f"/dav/calendars/{calendar}/" + os.path.basename(events[0])
status, headers, body = raw("GET", event_href)
check(status == 200, f"GET {event_href} answered {status}")
changed = body.replace("SUMMARY:", "SUMMARY:Changed There ", 1)
status, _, _ = raw("PUT", event_href, changed, {"Content-Type": "text/calendar", "If-Match": headers["ETag"]})
check(status == 204, f"the server-side change answered {status}")
run("vdirsyncer", "-c", config, "sync")
status, _, body = raw("GET", "/dav/addressbooks/contacts/" + os.path.basename(card))
check(status == 200 and "FN:Dr. Changed Here" in body, f"the local change did not reach the server: {body}")
with open(events[0]) as file:
    check("Changed There" in file.read(), "the server's change did not reach the folder")
report["changedEachSide"] = 2

# A conflict: the same event changed on both sides; the server wins (conflict_resolution).
with open(events[0]) as file:
    text = file.read()
with open(events[0], "w") as file:
    file.write(text.replace("Changed There", "Local Side", 1))
status, headers, body = raw("GET", event_href)
status, _, _ = raw("PUT", event_href, body.replace("Changed There", "Server Side", 1),
                   {"Content-Type": "text/calendar", "If-Match": headers["ETag"]})
check(status == 204, f"the server side of the conflict answered {status}")
run("vdirsyncer", "-c", config, "sync")
with open(events[0]) as file:
    check("Server Side" in file.read(), "the conflict was not resolved for the server")
report["conflictResolved"] = True

# An event made here whose UID cannot be a file name on the server (vdirsyncer then PUTs it under
# a random name, as Thunderbird and DAVx5 do): stored under that name, served back from it.
made = os.path.join(local_events, "made-here.ics")
with open(made, "w") as file:
    file.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//dav_sync_check//EN\r\nBEGIN:VEVENT\r\n"
               "UID:made-here@example.com\r\nDTSTAMP:20260501T000000Z\r\nDTSTART:20260512T090000Z\r\n"
               "DTEND:20260512T100000Z\r\nSUMMARY:Made Here\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
run("vdirsyncer", "-c", config, "sync")
status, _, body = raw("PROPFIND", f"/dav/calendars/{calendar}/", None, {"Depth": "1"})
hrefs = re.findall(r"<D:href>([^<]+\.ics)</D:href>", body)
served = None
for href in hrefs:
    status, _, text = raw("GET", href)
    if "UID:made-here@example.com" in text:
        served = href
check(served and "made-here" not in served, f"the event made here is not on the server under a name of its own: {hrefs}")
report["madeHereUnderRandomName"] = served.rsplit("/", 1)[-1]

# The same for a card made here.
with open(os.path.join(local_cards, "made-here.vcf"), "w") as file:
    file.write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:made-here@example.com\r\nN:Hopper;Grace;;;\r\n"
               "FN:Grace Hopper\r\nEND:VCARD\r\n")
run("vdirsyncer", "-c", config, "sync")
status, _, body = raw("PROPFIND", "/dav/addressbooks/contacts/", None, {"Depth": "1"})
card_hrefs = re.findall(r"<D:href>([^<]+\.vcf)</D:href>", body)
served_card = next((href for href in card_hrefs if "UID:made-here@example.com" in raw("GET", href)[2]), None)
check(served_card and "made-here" not in served_card, f"the card made here is not on the server: {card_hrefs}")
report["cardMadeHereUnderRandomName"] = served_card.rsplit("/", 1)[-1]

# A group's card made here (Apple's form, as DAVx5 writes it with "groups as separate vCards"),
# naming the card made here and a card not (yet) in the book: a group on the server with that
# member, both named when served back; the member removed there leaves the card synced here; the
# card removed here removes the group there.
group_file = os.path.join(local_cards, "group-here.vcf")
with open(group_file, "w") as file:
    file.write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:group-here@example.com\r\nX-ADDRESSBOOKSERVER-KIND:group\r\n"
               "N:Reviewers\r\nFN:Reviewers\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:made-here@example.com\r\n"
               "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:not-yet@example.com\r\nEND:VCARD\r\n")
run("vdirsyncer", "-c", config, "sync")
status, _, body = raw("PROPFIND", "/dav/addressbooks/contacts/", None, {"Depth": "1"})
card_hrefs = re.findall(r"<D:href>([^<]+\.vcf)</D:href>", body)
served_group = next((href for href in card_hrefs if "UID:group-here@example.com" in raw("GET", href)[2]), None)
check(served_group, f"the group made here is not on the server: {card_hrefs}")
status, _, body = raw("GET", served_group)
check("MEMBER:urn:uuid:made-here@example.com" in body and "MEMBER:urn:uuid:not-yet@example.com" in body,
      f"the group's members did not come back: {body}")
status, _, _ = raw("DELETE", served_card)
check(status == 204, f"the server-side delete of the member answered {status}")
run("vdirsyncer", "-c", config, "sync")
synced = [path for path in glob.glob(os.path.join(local_cards, "*.vcf")) if "UID:group-here" in open(path).read()]
check(len(synced) == 1, f"the group card is not in the folder once: {synced}")
with open(synced[0]) as file:
    text = file.read()
check("made-here@example.com" not in text and "not-yet@example.com" in text,
      f"the member removed on the server is still in the group's card here: {text}")
os.remove(synced[0])
run("vdirsyncer", "-c", config, "sync")
status, _, _ = raw("GET", served_group)
check(status == 404, f"the group removed here is still on the server ({status})")
report["groupRoundTrip"] = {"members": 2, "memberLeftThere": True, "removedHere": True}

# A delete on each side.
os.remove(card)
status, _, _ = raw("DELETE", event_href)
check(status == 204, f"the server-side delete answered {status}")
run("vdirsyncer", "-c", config, "sync")
status, _, _ = raw("GET", "/dav/addressbooks/contacts/" + os.path.basename(card))
check(status == 404, f"the card deleted here is still on the server ({status})")
check(not os.path.exists(events[0]), "the event deleted on the server is still in the folder")
report["deletedEachSide"] = 2

# A sync with nothing changed changes nothing.
before = sorted(glob.glob(os.path.join(work, "*", "*", "*")))
output = run("vdirsyncer", "-c", config, "sync")
check("Copying" not in output and "Deleting" not in output, f"an idle sync did something: {output}")
check(sorted(glob.glob(os.path.join(work, "*", "*", "*"))) == before, "an idle sync changed the folders")

# khal and khard read what was synced.
with open(os.path.join(work, "khal.conf"), "w") as out:
    out.write(f"""[calendars]
[[kalends]]
path = {local_events}/
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
""")
with open(os.path.join(work, "khard.conf"), "w") as out:
    out.write(f"""[addressbooks]
[[kalends]]
path = {local_cards}/
[general]
editor = /bin/true
merge_editor = /bin/true
""")
agenda = run("khal", "-c", os.path.join(work, "khal.conf"), "list", "1970-01-01", "36500d")
summaries = []
for path in glob.glob(os.path.join(local_events, "*.ics")):
    with open(path) as file:
        summaries += [line[len("SUMMARY:"):].strip() for line in file.read().splitlines() if line.startswith("SUMMARY:")]
check(summaries and all(summary in agenda for summary in summaries), f"khal lists {agenda}, not {summaries}")
people = run("khard", "-c", os.path.join(work, "khard.conf"), "list")
names = []
for path in glob.glob(os.path.join(local_cards, "*.vcf")):
    with open(path) as file:
        for line in file.read().splitlines():
            if line.startswith("N:"):
                family, given = (line[2:].split(";") + [""])[:2]
                names.append(f"{given} {family}".strip())
check(all(name in people for name in names), f"khard lists {people}, not {names}")
report["khalEvents"] = len(summaries)
report["khardCards"] = len(names)
print(json.dumps(report))
