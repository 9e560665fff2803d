#!/usr/bin/env python3
"""Checks Kalends' signed checkpoints and proof bundles with code written from the C2SP texts
alone (signed-note, tlog-checkpoint, tlog-proof) and RFC 9162 §2.1.3.2 (the inclusion check of
merkle_oracle.py), with Python's `hashlib` and the `cryptography` package's Ed25519 — nothing from
Kalends.

    tlog_oracle.py check-note NOTE_FILE VERIFIER_KEY [WITNESS_KEY]
                                                          # prints {"origin", "size", "root"}; with a
                                                          # witness key (type 0x04), its C2SP
                                                          # tlog-cosignature must verify too
    tlog_oracle.py check-proof BUNDLE_FILE VERIFIER_KEY   # prints {"origin", "size", "index", "leaf"}

Exits 0 when everything verifies, 1 with the reason on stderr otherwise, 3 when `cryptography` is
missing.
"""
import base64
import hashlib
import json
import struct
import sys

from merkle_oracle import verify_inclusion  # RFC 9162 §2.1.3.2, beside this file

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:
    sys.stderr.write("tlog_oracle.py needs the cryptography package — run tools/setup\n")
    sys.exit(3)


def fail(reason):
    sys.stderr.write(reason + "\n")
    sys.exit(1)


def b64(text):
    data = base64.b64decode(text, validate=True)
    if base64.b64encode(data).decode() != text:
        fail("not canonical base64: " + text)
    return data


def parse_verifier(text, kind=0x01):
    name, key_id, key = text.split("+", 2)
    key = b64(key)
    if len(key) != 33 or key[0] != kind:
        fail("not an Ed25519 verifier key of type %d" % kind)
    computed = hashlib.sha256(name.encode() + b"\n" + key).digest()[:4]
    if computed.hex() != key_id:
        fail("the verifier key's ID does not match its key")
    return name, computed, Ed25519PublicKey.from_public_bytes(key[1:])


def check_cosignature(note, witness):
    """C2SP tlog-cosignature v1: key ID over type 0x04; the signature is a big-endian u64 time and
    Ed25519 over 'cosignature/v1\\ntime T\\n' and the note text."""
    name, key_id, public = parse_verifier(witness, 0x04)
    split = note.rfind("\n\n")
    text, signatures = note[: split + 1], note[split + 2 :]
    for line in signatures.rstrip("\n").split("\n"):
        _, key_name, signature = line.split(" ")
        signature = b64(signature)
        if key_name == name and signature[:4] == key_id and len(signature) == 76:
            (time,) = struct.unpack(">Q", signature[4:12])
            message = b"cosignature/v1\ntime %d\n" % time + text.encode()
            try:
                public.verify(signature[12:], message)
            except InvalidSignature:
                fail("the cosignature does not verify")
            return time
    fail("no cosignature by the witness")


def check_note(note, verifier):
    name, key_id, public = parse_verifier(verifier)
    if any(ord(c) < 0x20 and c != "\n" for c in note):
        fail("control characters in the note")
    split = note.rfind("\n\n")
    if split < 0:
        fail("no blank line before the signatures")
    text, signatures = note[: split + 1], note[split + 2 :]
    verified = False
    for line in signatures.rstrip("\n").split("\n"):
        dash, key_name, signature = line.split(" ")
        if dash != "\u2014":
            fail("a signature line does not start with an em dash")
        signature = b64(signature)
        if key_name == name and signature[:4] == key_id:
            try:
                public.verify(signature[4:], text.encode())
            except InvalidSignature:
                fail("the signature does not verify")
            verified = True
    if not verified:
        fail("no signature by the key")
    lines = text[:-1].split("\n")
    origin, size, root = lines[0], int(lines[1]), b64(lines[2])
    if str(size) != lines[1] or len(root) != 32:
        fail("not a checkpoint")
    return origin, size, root


CONTENT_FORMS = ["present", "erased", "erasedUnverifiable"]


def content_form(record):
    """For a record of format version 3 (docs/log-format.md): the offset just after its content
    form byte, and that byte (0 present, 1 erased, 2 erased from version 1 or 2); None otherwise."""
    if record[0] != 3:
        return None
    n = struct.unpack_from(">H", record, 18)[0]
    c = struct.unpack_from(">H", record, 20 + n)[0]
    o = 25 + n + c
    return o, record[o - 1]


def leaf_data(record):
    """The bytes whose RFC 6962 leaf hash is the record's hash (docs/log-format.md): the record
    without its hash; for format version 3 with its content present, its erased form (the salt and
    the content replaced by the commitment SHA-256(0x02 || salt || content)). None for a record
    erased from version 1 or 2, whose hash can no longer be recomputed."""
    body = record[:-32]
    sealed = content_form(record)
    if sealed is None or sealed[1] == 1:
        return body
    o, form = sealed
    if form != 0:
        return None
    salt = record[o : o + 16]
    f, p = struct.unpack_from(">II", record, o + 16)
    facts, content = record[o + 24 : o + 24 + f], record[o + 24 + f : o + 24 + f + p]
    commitment = hashlib.sha256(b"\x02" + salt + content).digest()
    return record[: o - 1] + b"\x01" + commitment + struct.pack(">I", f) + facts + record[-64:-32]


def check_proof(bundle, verifier):
    head, checkpoint = bundle.split("\n\n", 1)
    lines = head.split("\n")
    if lines[0] != "c2sp.org/tlog-proof@v1":
        fail("not a tlog-proof")
    if not lines[1].startswith("extra ") or not lines[2].startswith("index "):
        fail("no extra data or index")
    record = b64(lines[1][6:])
    index = int(lines[2][6:])
    path = [b64(line) for line in lines[3:]]
    origin, size, root = check_note(checkpoint, verifier)
    # The record's bytes end in their own leaf hash (docs/log-format.md); its position is at 1.
    data = leaf_data(record)
    leaf = record[-32:] if data is None else hashlib.sha256(b"\x00" + data).digest()
    if leaf != record[-32:]:
        fail("the record does not hash to the hash it carries")
    (position,) = struct.unpack_from(">Q", record, 1)
    if position != index + 1:
        fail("the record is not at the proven index")
    if not verify_inclusion(index, size, leaf, path, root):
        fail("the inclusion proof does not lead to the checkpoint's root")
    result = {"origin": origin, "size": size, "index": index, "leaf": leaf.hex()}
    sealed = content_form(record)
    if sealed is not None:
        result["content"] = CONTENT_FORMS[sealed[1]]
    return result


def main():
    command, path, verifier = sys.argv[1:4]
    text = open(path, encoding="utf-8").read()
    if command == "check-note":
        origin, size, root = check_note(text, verifier)
        result = {"origin": origin, "size": size, "root": root.hex()}
        if len(sys.argv) > 4:
            result["cosignedAt"] = check_cosignature(text, sys.argv[4])
        print(json.dumps(result))
    elif command == "check-proof":
        print(json.dumps(check_proof(text, verifier)))
    else:
        fail("unknown command " + command)


if __name__ == "__main__":
    try:
        main()
    except (ValueError, IndexError) as error:
        fail("malformed: %s" % error)
