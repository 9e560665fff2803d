"""A Web Push receiver for the tests, with no Kalends code: a push service and user agent in one.

    python3 webpush_receiver.py LOG [EVERY]

Makes a P-256 key pair and an auth secret (the user agent's subscription), listens on loopback,
and prints one line: `PORT P256DH AUTH` (base64url). Each POST is answered by the first segment
of its path: `ok` 201; `gone` 410; `busy` 429 with Retry-After: 1 the first time for that path,
then 201; `slow` after 30 s. Each POST is appended to LOG as a JSON line: the path, the status
answered, the time it came (epoch seconds), its TTL, Urgency and Topic headers, whether its
VAPID token verified (ES256 by `cryptography`, audience this origin, expiry within a day), and its
body decrypted by PyPI's `http_ece` (RFC 8291) with the user agent's private key — or why not.
With EVERY (a benchmark's receiver), only every EVERY-th POST is decrypted and verified, so that
the receiver's own work weighs less on a shared machine; the others are logged as `skipped`.
"""

import base64
import http.server
import json
import os
import re
import sys
import threading
import time

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


KEY = ec.generate_private_key(ec.SECP256R1())
PUBLIC = KEY.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
AUTH = os.urandom(16)
LOCK = threading.Lock()
SEEN = set()
EVERY = int(sys.argv[2]) if len(sys.argv) > 2 else 1
COUNT = [0]


def vapid(header, origin):
    match = re.fullmatch(r"vapid t=([^,]+), k=(\S+)", header or "")
    if not match:
        return "no vapid authorization"
    token, key = match.group(1), match.group(2)
    try:
        head, claims, signature = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        raw = unb64(signature)
        der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
        decoded = json.loads(unb64(claims))
    except Exception as error:  # noqa: BLE001 - any failure is the answer
        return f"bad token: {error}"
    if decoded.get("aud") != origin:
        return f"audience {decoded.get('aud')} is not {origin}"
    if not time.time() < decoded.get("exp", 0) <= time.time() + 86400:
        return "expiry out of bounds"
    return "ok"


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the http.server API
        arrived = time.time()
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        kind = self.path.strip("/").split("/")[0]
        status = {"ok": 201, "gone": 410}.get(kind, 201)
        with LOCK:
            if kind == "busy" and self.path not in SEEN:
                SEEN.add(self.path)
                status = 429
        if kind == "slow":
            time.sleep(30)
        with LOCK:
            COUNT[0] += 1
            checked = COUNT[0] % EVERY == 0
        origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        plain, verified = "skipped", "skipped"
        if checked:
            try:
                plain = http_ece.decrypt(body, private_key=KEY, auth_secret=AUTH, version="aes128gcm").decode()
            except Exception as error:  # noqa: BLE001
                plain = f"undecryptable: {error}"
            verified = vapid(self.headers.get("Authorization"), origin)
        entry = {
            "path": self.path, "status": status, "at": arrived, "ttl": self.headers.get("TTL"),
            "urgency": self.headers.get("Urgency"), "topic": self.headers.get("Topic"),
            "encoding": self.headers.get("Content-Encoding"),
            "vapid": verified, "message": plain,
        }
        with LOCK, open(sys.argv[1], "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")
        self.send_response(status)
        if status == 429:
            self.send_header("Retry-After", "1")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


http.server.ThreadingHTTPServer.request_queue_size = 1024
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], b64(PUBLIC), b64(AUTH), flush=True)
server.serve_forever()
