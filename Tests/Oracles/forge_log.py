#!/usr/bin/env python3
"""Forges a record into a Kalends store, as anyone who can write the store's files can.

Written from docs/log-format.md and docs/transparency.md alone, with Python's `lmdb` package: it
appends one record with any actor, kind, payload and timestamp, chains it to the last record,
moves `meta/head` and `meta/headHash` to it and extends the Merkle tree over it (its nodes and
`meta/treeFrontier`), so that the chain and the tree are intact. The tests use it to show that Kalends refuses
what the chain alone cannot: records their author may not make, time that runs backwards.

    Tests/Oracles/forge_log.py STORE --actor client:com.example.app --kind 403 \
        --field 1:s:com.example.app --field 2:u:1 --field 3:u:3 --field 4:u:0 --field 5:u:1

Fields are TAG:TYPE:VALUE with TYPE `u` unsigned, `i` signed, `b` bool (0/1), `s` UTF-8 text.
`--time` is microseconds since 1970 (default: the last record's time plus one second). Prints the
position of the new record.
"""

import argparse
import hashlib
import struct
import sys

try:
    import lmdb
except ImportError:
    sys.exit("forge_log.py needs the lmdb package: python3 -m pip install lmdb")

ACTOR_TYPES = {"system": 0, "person": 1, "client": 2, "policy": 3}


def leb128(number):
    out = bytearray()
    while True:
        byte = number & 0x7F
        number >>= 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def encode_field(spec):
    tag, kind, value = spec.split(":", 2)
    if kind == "u":
        data = struct.pack(">Q", int(value))
    elif kind == "i":
        data = struct.pack(">q", int(value))
    elif kind == "b":
        data = bytes([int(value)])
    elif kind == "s":
        data = value.encode("utf-8")
    else:
        raise SystemExit(f"unknown field type {kind!r} in {spec!r}")
    return bytes([int(tag)]) + leb128(len(data)) + data


def parse_actor(text):
    kind, _, identifier = text.partition(":")
    if kind not in ACTOR_TYPES:
        raise SystemExit(f"unknown actor {text!r}: system, person, client:ID or policy:NAME")
    return ACTOR_TYPES[kind], identifier.encode("utf-8")


def extend_tree(txn, env, meta, leaf):
    """Appends `leaf` to the store's Merkle tree: merges the right edge's trailing subtrees and
    stores each completed node at a height that is a multiple of 4."""
    edge = txn.get(b"treeFrontier", db=meta)
    if edge is None:
        return
    (size,) = struct.unpack_from(">Q", edge, 0)
    hashes = [edge[8 + 32 * i : 8 + 32 * (i + 1)] for i in range((len(edge) - 8) // 32)]
    tree = env.open_db(b"tree", txn=txn, create=False)
    node, height, remaining = leaf, 0, size
    while remaining & 1:
        node = hashlib.sha256(b"\x01" + hashes.pop() + node).digest()
        height += 1
        remaining >>= 1
        if height % 4 == 0:
            index = ((size + 1) >> height) - 1
            txn.put(struct.pack(">Q", (((index + 1) << height) << 6) | height), node, db=tree)
    hashes.append(node)
    txn.put(b"treeFrontier", struct.pack(">Q", size + 1) + b"".join(hashes), db=meta)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("store")
    parser.add_argument("--actor", required=True)
    parser.add_argument("--kind", type=int, required=True)
    parser.add_argument("--field", action="append", default=[])
    parser.add_argument("--time", type=int)
    args = parser.parse_args()

    env = lmdb.open(args.store, max_dbs=64, subdir=True, map_size=1 << 30)
    log = env.open_db(b"log", create=False)
    meta = env.open_db(b"meta", create=False)
    with env.begin(write=True) as txn:
        cursor = txn.cursor(db=log)
        if not cursor.last():
            raise SystemExit("the log is empty")
        last = cursor.value()
        (position,) = struct.unpack(">Q", cursor.key())
        (last_time,) = struct.unpack_from(">q", last, 9)
        previous = last[-32:]
        actor_type, actor_id = parse_actor(args.actor)
        payload = b"".join(encode_field(spec) for spec in args.field)
        time = args.time if args.time is not None else last_time + 1_000_000
        body = (
            bytes([1])
            + struct.pack(">Qq", position + 1, time)
            + bytes([actor_type])
            + struct.pack(">H", len(actor_id))
            + actor_id
            + struct.pack(">HI", args.kind, len(payload))
            + payload
            + previous
        )
        digest = hashlib.sha256(b"\x00" + body).digest()
        txn.put(struct.pack(">Q", position + 1), body + digest, db=log)
        txn.put(b"head", struct.pack(">Q", position + 1), db=meta)
        txn.put(b"headHash", digest, db=meta)
        extend_tree(txn, env, meta, digest)
    env.close()
    print(position + 1)


if __name__ == "__main__":
    main()
