"""A calendar feed's server for the subscription tests: no Kalends code.

Serves `feed.ics` from the directory given, read at each request, with an ETag (SHA-256 of the
bytes) and Last-Modified, answering 304 to a matching If-None-Match. The file `mode` in that
directory, when present, changes the answer: `gone` (404), `html` (an HTML page), `big` (17 MiB
of iCalendar), `redirect` (302 to /feed.ics on the same host, for /moved.ics). Every request is
appended to `requests.log` as `METHOD PATH If-None-Match`. Prints its port, then serves.

    python3 feed_server.py DIR [CERT KEY]

With CERT and KEY (PEM files), it serves HTTPS with that certificate (Python's `ssl`).
"""
import hashlib
import http.server
import os
import ssl
import sys

directory = sys.argv[1]


class Feed(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with open(os.path.join(directory, "requests.log"), "a") as log:
            log.write(f"GET {self.path} {self.headers.get('If-None-Match', '-')}\n")
        mode_file = os.path.join(directory, "mode")
        mode = open(mode_file).read().strip() if os.path.exists(mode_file) else ""
        if self.path == "/moved.ics":
            self.send_response(302)
            self.send_header("Location", "/feed.ics")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "gone":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "html":
            body = b"<!DOCTYPE html><html><body>Please log in</body></html>\n"
            content_type = "text/html"
        elif mode == "big":
            event = b"BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T000000Z\r\nSUMMARY:" + b"x" * 1000 + b"\r\nEND:VEVENT\r\n"
            body = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + event * (17 * 1024) + b"END:VCALENDAR\r\n"
            content_type = "text/calendar"
        else:
            body = open(os.path.join(directory, "feed.ics"), "rb").read()
            content_type = "text/calendar"
        tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == tag:
            self.send_response(304)
            self.send_header("ETag", tag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("ETag", tag)
        self.send_header("Last-Modified", "Sun, 29 Nov 2026 10:00:00 GMT")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feed)
if len(sys.argv) > 3:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
