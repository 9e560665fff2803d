"""A server that is busy: answers every request with 503 Service Unavailable and a Retry-After,
for the tests of how an account's sync waits (no Kalends code).

    busy_server.py PORT SECONDS          # Retry-After: SECONDS
    busy_server.py PORT date:SECONDS     # Retry-After: the HTTP date SECONDS from now

Prints the port, then serves on 127.0.0.1:PORT until killed.
"""
import email.utils
import http.server
import sys
import time

port, after = int(sys.argv[1]), sys.argv[2]


class Busy(http.server.BaseHTTPRequestHandler):
    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if after.startswith("date:"):
            value = email.utils.formatdate(time.time() + int(after[5:]), usegmt=True)
        else:
            value = after
        self.send_response(503)
        self.send_header("Retry-After", value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_MKCALENDAR = answer

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Busy)
print(port, flush=True)
server.serve_forever()
