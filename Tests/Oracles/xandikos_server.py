"""Xandikos (PyPI, installed by tools/setup into .build/python-xandikos) as a CalDAV and CardDAV
account for the account tests: no Kalends code.

    xandikos_server.py DIRECTORY

Serves DIRECTORY/data on a free loopback port with its default principal `/user/`, a calendar
`/user/calendars/calendar/` and an address book. Xandikos takes Basic authentication over TLS only,
so this one takes none: the tests' user name and password are sent and ignored. Prints the port,
then becomes the server (the caller waits until the port accepts connections).
"""
import os
import socket
import sys

directory = sys.argv[1]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
print(port, flush=True)
os.environ["PYTHONPATH"] = os.path.join(root, ".build", "python-xandikos")
os.execvp(sys.executable, [
    sys.executable, "-m", "xandikos", "serve", "-d", os.path.join(directory, "data"), "--defaults",
    "-l", "127.0.0.1", "-p", str(port), "--state-dir", os.path.join(directory, "state"), "--no-detect-systemd",
])
