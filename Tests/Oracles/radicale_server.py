"""Radicale 3 (PyPI, installed by tools/setup into .build/python-radicale) as a CalDAV and CardDAV
account for the account tests: no Kalends code.

    radicale_server.py DIRECTORY USER PASSWORD [PORT]

Serves DIRECTORY/collections on PORT, else a free loopback port, with Basic authentication of USER and
PASSWORD (a plain htpasswd file in DIRECTORY), each user seeing only their own collections.
Prints the port, then becomes the server (the caller waits until the port accepts connections).
"""
import os
import socket
import sys

directory, user, password = sys.argv[1:4]
port = int(sys.argv[4]) if len(sys.argv) > 4 else None
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(directory, "users"), "w") as users:
    users.write(f"{user}:{password}\n")
if port is None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
print(port, flush=True)
os.environ["PYTHONPATH"] = os.path.join(root, ".build", "python-radicale")
os.execvp(sys.executable, [
    sys.executable, "-m", "radicale",
    "--server-hosts", f"127.0.0.1:{port}",
    "--storage-filesystem-folder", os.path.join(directory, "collections"),
    "--auth-type", "htpasswd", "--auth-htpasswd-filename", os.path.join(directory, "users"),
    "--auth-htpasswd-encryption", "plain", "--rights-type", "owner_only",
    "--logging-level", "warning",
])
