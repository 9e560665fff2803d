#!/usr/bin/env python3
"""Checks a Kalends proof bundle (C2SP tlog-proof) with the PyPI `sigstore` package's own code:
its signed-note parser and signature dispatch (`SignedNote.from_text`, `SignedNote.verify`), its
checkpoint parser (`LogCheckpoint.from_text`) and its RFC 6962 Merkle inclusion verification
(`verify_merkle_inclusion`). Ed25519 itself is the `cryptography` package's, behind the keyring
interface sigstore calls. Nothing from Kalends.

    sigstore_check.py BUNDLE_FILE VERIFIER_KEY    # prints {"origin", "size", "index"}

The record's bytes (the bundle's extra data, without their last 32 bytes, which are their own
leaf hash; for a record of format version 3, its erased form, computed from docs/log-format.md by
`leaf_data` of Tests/Oracles/tlog_oracle.py) are the leaf's data, as Rekor's canonicalized body is. These
are sigstore's internal APIs: a sigstore release may move them. Exits 0 when everything verifies, 1 otherwise, 3 when
`sigstore` is missing.
"""
import base64
import hashlib
import json
import sys
from types import SimpleNamespace

from tlog_oracle import leaf_data  # the record's leaf data, from docs/log-format.md; beside this file

try:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from sigstore._internal.merkle import verify_merkle_inclusion
    from sigstore._internal.rekor.checkpoint import LogCheckpoint, SignedNote
    from sigstore.errors import VerificationError
except ImportError as error:
    sys.stderr.write("sigstore_check.py needs the sigstore package (%s) — run tools/setup\n" % error)
    sys.exit(3)


class Ed25519Keyring:
    """The keyring interface `SignedNote.verify` calls, for one signed-note Ed25519 key."""

    def __init__(self, key_id, public):
        self.key_id, self.public = key_id, public

    def verify(self, *, key_id, signature, data):
        if key_id != self.key_id:
            raise VerificationError("unknown key")
        try:
            self.public.verify(signature, data)
        except Exception as error:
            raise VerificationError("bad signature: %r" % error)


def main():
    bundle = open(sys.argv[1], encoding="utf-8").read()
    name, key_id_hex, key = sys.argv[2].split("+", 2)
    key = base64.b64decode(key)
    key_id = hashlib.sha256(name.encode() + b"\n" + key).digest()[:4]
    if key[0] != 0x01 or key_id.hex() != key_id_hex:
        sys.exit("not an Ed25519 verifier key")
    head, note_text = bundle.split("\n\n", 1)
    lines = head.split("\n")
    record = base64.b64decode(lines[1][len("extra "):])
    index = int(lines[2][len("index "):])
    hashes = [base64.b64decode(line) for line in lines[3:]]
    data = leaf_data(record)
    if data is None:
        sys.exit("the record was erased from format 1 or 2: its hash can no longer be recomputed")
    try:
        note = SignedNote.from_text(note_text)
        note.verify(Ed25519Keyring(key_id, Ed25519PublicKey.from_public_bytes(key[1:])), key_id)
        checkpoint = LogCheckpoint.from_text(note.note)
        proof = SimpleNamespace(
            log_index=index, tree_size=checkpoint.log_size, hashes=hashes,
            root_hash=bytes.fromhex(checkpoint.log_hash))
        verify_merkle_inclusion(SimpleNamespace(_inner=SimpleNamespace(
            inclusion_proof=proof, canonicalized_body=data)))
    except VerificationError as error:
        sys.exit("sigstore refuses: %s" % error)
    print(json.dumps({"origin": checkpoint.origin, "size": checkpoint.log_size, "index": index}))


if __name__ == "__main__":
    main()
