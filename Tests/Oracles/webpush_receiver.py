"""A Web Push receiver for the tests, with no Kalends code: a push service and user agent in one.

    python3 webpush_receiver.py LOG [EVERY [CERT KEY]]

Makes a P-256 key pair and an auth secret (the user agent's subscription), listens on loopback,
and prints one line: `PORT P256DH AUTH` (base64url). It speaks HTTP/1.1 with connections kept
open (asyncio, one thread), as a push service does. Each POST is answered by the first segment
of its path: `ok` 201; `gone` 410; `busy` 429 with Retry-After: 1 the first time for that path,
then 201; `slow` after 30 s; `redirect` 307 to `/ok/redirected`. Each POST is appended to LOG as a JSON line: the path, the status
answered, the time it came (epoch seconds), its TTL, Urgency and Topic headers, whether its
VAPID token verified (ES256 by `cryptography`, audience this origin, expiry within a day), and its
body decrypted by PyPI's `http_ece` (RFC 8291) with the user agent's private key — or why not.
With EVERY (a benchmark's receiver), only every EVERY-th POST is decrypted and verified, so that
the receiver's own work weighs less on a shared machine; the others are logged as `skipped`.
With CERT and KEY (PEM files), it serves HTTPS with that certificate (Python's `ssl`), as a push
service does; its origin, the VAPID audience, is then `https://127.0.0.1:PORT`.
"""

import asyncio
import base64
import json
import os
import re
import ssl
import sys
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


FLUSHING = [False]


def flush():
    FLUSHING[0] = False
    LOG.flush()


async def handle(reader, writer):
    """One connection: HTTP/1.1 requests one after another, kept open until the sender closes it
    (as a push service keeps an application server's connection)."""
    origin = f"{SCHEME}://127.0.0.1:{writer.get_extra_info('sockname')[1]}"
    try:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            arrived = time.time()
            lines = head.decode("latin-1").split("\r\n")
            method, path, version = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            kind = path.strip("/").split("/")[0]
            status = {"ok": 201, "gone": 410, "redirect": 307}.get(kind, 201)
            if kind == "busy" and path not in SEEN:
                SEEN.add(path)
                status = 429
            if kind == "slow":
                await asyncio.sleep(30)
            COUNT[0] += 1
            checked = COUNT[0] % EVERY == 0
            plain, verified = "skipped", "skipped"
            if checked:
                try:
                    plain = http_ece.decrypt(body, private_key=KEY, auth_secret=AUTH, version="aes128gcm").decode()
                except Exception as error:  # noqa: BLE001
                    plain = f"undecryptable: {error}"
                verified = vapid(headers.get("authorization"), origin)
            entry = {
                "path": path, "status": status, "at": arrived, "ttl": headers.get("ttl"),
                "urgency": headers.get("urgency"), "topic": headers.get("topic"),
                "encoding": headers.get("content-encoding"), "method": method,
                "vapid": verified, "message": plain,
            }
            LOG.write(json.dumps(entry) + "\n")
            # Whole lines reach the file within milliseconds, in one write for all that came meanwhile.
            if not FLUSHING[0]:
                FLUSHING[0] = True
                asyncio.get_running_loop().call_later(0.002, flush)
            closing = headers.get("connection", "").lower() == "close" or version != "HTTP/1.1"
            answer = f"HTTP/1.1 {status} {'Created' if status == 201 else 'Status'}\r\nContent-Length: 0\r\n"
            if status == 429:
                answer += "Retry-After: 1\r\n"
            if status == 307:
                answer += "Location: /ok/redirected\r\n"
            if closing:
                answer += "Connection: close\r\n"
            writer.write((answer + "\r\n").encode())
            if closing:
                return
    except (ConnectionError, asyncio.IncompleteReadError):
        return
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024, ssl=TLS)
    print(server.sockets[0].getsockname()[1], b64(PUBLIC), b64(AUTH), flush=True)
    async with server:
        await server.serve_forever()


LOG = open(sys.argv[1], "a", encoding="utf-8", buffering=1 << 20)
TLS = None
if len(sys.argv) > 4:
    TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    TLS.load_cert_chain(sys.argv[3], sys.argv[4])
SCHEME = "https" if TLS else "http"
asyncio.run(main())
