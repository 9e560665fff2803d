"""What the scripts driving vdirsyncer against a Kalends store server share (Tests/Oracles/dav_sync_check.py,
Tests/Oracles/dav_book_check.py): a failure that prints what was found so far and exits, vdirsyncer, khal
and khard run from .build/python-vdir (tools/setup), and plain requests with the app's token as the
Basic password. `configure` names the script and the server first."""
import json
import os
import subprocess
import sys

import dav_request

here = os.path.dirname(os.path.abspath(__file__))
packages = os.path.join(here, "..", "..", ".build", "python-vdir")
# What the script found so far, printed with a failure.
report = {}
_script, _url, _token = "vdir_peer", "", ""


def configure(script, url, token):
    """The script's name (for its failures), the server's base URL and the app's token."""
    global _script, _url, _token
    _script, _url, _token = script, url, token


def check(condition, what):
    if not condition:
        print(json.dumps(report), file=sys.stderr)
        sys.exit(f"{_script}: {what}")


def run(program, *arguments, stdin=None):
    environment = dict(os.environ, PYTHONPATH=packages, TZ="UTC", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    result = subprocess.run([sys.executable, "-m", program, *arguments], input=stdin, capture_output=True, text=True,
                            env=environment, timeout=120)
    check(result.returncode == 0, f"{program} {' '.join(arguments)} failed: {result.stdout} {result.stderr}")
    return result.stdout + result.stderr


def raw(method, path, body=None, headers=None):
    """The status, headers and body of `method path` on the server, as the app."""
    return dav_request.request(_url, _token, method, path, body, headers, user="vdirsyncer")
