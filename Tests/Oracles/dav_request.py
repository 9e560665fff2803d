"""A plain request to a Kalends store server as an app, outside any DAV client library, with the
app's token as the Basic password (the server takes any user name): what the scripts driving real
clients check the server with (dav_client_check.py, and through vdir_peer.py the vdirsyncer ones)."""
import base64
import urllib.error
import urllib.request


def request(base, token, method, path, body=None, headers=None, user="app"):
    """The status, headers and body of `method path` on the server at `base`; an HTTP error is an
    answer like any other."""
    sent = urllib.request.Request(base + path, data=body.encode() if body else None, method=method)
    sent.add_header("Authorization", "Basic " + base64.b64encode(f"{user}:{token}".encode()).decode())
    for name, value in (headers or {}).items():
        sent.add_header(name, value)
    try:
        with urllib.request.urlopen(sent) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()
