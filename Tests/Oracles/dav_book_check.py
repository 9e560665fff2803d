#!/usr/bin/env python3
"""vdirsyncer (PyPI) making an address book of its own on a Kalends store server and syncing it:
a local folder `friends` with one card becomes `/dav/addressbooks/friends/` (extended MKCOL, RFC
5689), its card uploaded there, and what the person adds to that book later synced back.

Usage: dav_book_check.py URL TOKEN WORKDIR first|again

URL is the server's base (http://127.0.0.1:PORT); TOKEN an app token with full access to contacts,
given as the Basic password; WORKDIR a directory kept between the two runs. `first` makes the
folder, lets vdirsyncer create the book and syncs; `again` syncs once more. vdirsyncer comes from
.build/python-vdir (tools/setup). Prints one JSON object of what it found; exits non-zero with the
reason on the first wrong answer."""
import glob
import json
import os
import re
import sys

from vdir_peer import check, configure, raw, report, run

url, token, work, mode = sys.argv[1:5]
configure("dav_book_check", url, token)

books = os.path.join(work, "books")
config = os.path.join(work, "config")
if mode == "first":
    os.makedirs(os.path.join(books, "friends"))
    with open(os.path.join(books, "friends", "bea.vcf"), "w") as out:
        out.write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bea-from-the-laptop\r\nFN:Bea Local\r\n"
                  "N:Local;Bea;;;\r\nEMAIL:bea@example.net\r\nEND:VCARD\r\n")
    with open(config, "w") as out:
        out.write(f"""[general]
status_path = "{work}/status/"

[pair books]
a = "books_local"
b = "books_remote"
collections = ["from a", "from b"]
conflict_resolution = "b wins"

[storage books_local]
type = "filesystem"
path = "{books}/"
fileext = ".vcf"

[storage books_remote]
type = "carddav"
url = "{url}/"
username = "vdirsyncer"
password = "{token}"
""")
    # Discovery finds `friends` only here and offers to make it there: yes.
    run("vdirsyncer", "-c", config, "discover", stdin="y\n" * 10)
run("vdirsyncer", "-c", config, "sync")

# What the server holds in the book vdirsyncer made, as any CardDAV client reads it.
status, _, body = raw("PROPFIND", "/dav/addressbooks/", '<D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/>'
                   '<D:displayname/></D:prop></D:propfind>', {"Depth": "1"})
check(status == 207 and "/dav/addressbooks/friends/" in body, f"the home does not list friends: {status} {body}")
status, _, body = raw("PROPFIND", "/dav/addressbooks/friends/", '<D:propfind xmlns:D="DAV:"><D:prop><D:getetag/>'
                   '</D:prop></D:propfind>', {"Depth": "1"})
hrefs = sorted(set(re.findall(r"<D:href>(/dav/addressbooks/friends/[^<]+\.vcf)</D:href>", body)))
check(status == 207 and hrefs, f"friends lists no card: {status} {body}")
# The card vdirsyncer uploaded, at the name it gave it (its UID), read back by name and by multiget.
uploaded = [href for href in hrefs if "bea-from-the-laptop" in href]
check(uploaded, f"the card made here is not in friends: {hrefs}")
status, _, body = raw("GET", uploaded[0])
check(status == 200 and "Bea Local" in body, f"GET {uploaded[0]}: {status} {body}")
report["serverCards"] = len(hrefs)
multiget = "".join(f"<D:href>{href}</D:href>" for href in hrefs)
status, _, body = raw("REPORT", "/dav/addressbooks/friends/",
                   '<CR:addressbook-multiget xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:prop>'
                   f'<D:getetag/></D:prop>{multiget}</CR:addressbook-multiget>', {"Depth": "1"})
check(status == 207 and body.count("200 OK") == len(hrefs) and "HTTP/1.1 404" not in body, f"multiget in friends: {status} {body}")
report["localCards"] = sorted(os.path.basename(path) for path in glob.glob(os.path.join(books, "friends", "*.vcf")))
report["localBooks"] = sorted(os.listdir(books))
print(json.dumps(report))
