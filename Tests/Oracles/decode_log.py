#!/usr/bin/env python3
"""Reads and verifies a Kalends store with Python's `lmdb` package alone.

Written from docs/log-format.md and nothing else, so that the tests can use it as an independent
oracle for the Swift implementation, and so that anyone can audit a store without Kalends.

    Tests/Oracles/decode_log.py STORE [--from POSITION]   one JSON object per record, a line each
    Tests/Oracles/decode_log.py --verify STORE            the verification result, as one JSON object

Exit status: 0 when the store decodes (and, with --verify, is intact), 69 when it is damaged,
66 when there is no store, 64 for a usage error.
"""

import argparse
import hashlib
import json
import os
import struct
import sys
import uuid

try:
    import lmdb
except ImportError:  # pragma: no cover - reported, not raised
    sys.stderr.write("error: the Python lmdb package is missing — run tools/setup\n")
    sys.exit(70)

ACTORS = {0: "system", 1: "person", 2: "client", 3: "policy", 4: "source"}
MAX_PAYLOAD = 16 << 20
FIXED = 1 + 8 + 8 + 1 + 2 + 2 + 4 + 32 + 32

# The caller context of a version 2 record (§2).
CONTEXT = {
    1: ("via", "unsigned"),
    2: ("connection", "unsigned"),
    3: ("uid", "unsigned"),
    4: ("gid", "unsigned"),
    5: ("pid", "unsigned"),
    6: ("executable", "string"),
    7: ("executableSha256", "bytes"),
    8: ("flatpakApp", "string"),
    9: ("tokenId", "string"),
    10: ("address", "string"),
}

# The schemas of §4, (kind -> (name, {tag: (field name, type)})).
KINDS = {
    1: ("storeCreated", {1: ("storeId", "uuid"), 2: ("software", "string")}),
    2: ("annotationAdded", {1: ("text", "string")}),
    3: (
        "contentErased",
        {
            1: ("objectType", "unsigned"),
            2: ("id", "uuid"),
            3: ("erasedPosition", "unsigned"),
            4: ("reason", "string"),
            5: ("indexVersion", "unsigned"),
            6: ("indexHorizon", "signed"),
            7: ("indexBound", "bytes"),
            8: ("retentionPolicy", "unsigned"),
            9: ("legacyErasure", "bytes"),
            10: ("bindsLegacyErasures", "bool"),
        },
    ),
    4: ("retentionSet", {1: ("removedAfter", "unsigned")}),
}
# The kinds with content (§2, "Format version 3").
CONTENT_KINDS = {101, 201, 301, 501, 503}


class Malformed(Exception):
    pass


def decode_version3(value):
    """Decodes a record of format version 3 (§2, "Format version 3"): the payload is the kept
    fields followed by the content, or the kept fields alone once the content is erased; the hash
    is the leaf hash of the erased form."""
    minimum = 1 + 8 + 8 + 1 + 2 + 2 + 2 + 1 + 1 + 4 + 64
    if len(value) < minimum:
        raise Malformed(f"{len(value)} bytes, shorter than the fixed {minimum}")
    position, timestamp, actor_type, n = struct.unpack_from(">QqBH", value, 1)
    if n > len(value) - minimum:
        raise Malformed(f"actor identifier of {n} bytes runs past the end")
    actor_id = value[20 : 20 + n]
    (c,) = struct.unpack_from(">H", value, 20 + n)
    if c > len(value) - minimum - n:
        raise Malformed(f"a caller context of {c} bytes runs past the end")
    context = decode_fields(value[22 + n : 22 + n + c]) if c else None
    (kind,) = struct.unpack_from(">H", value, 22 + n + c)
    o = 25 + n + c
    form = value[o - 1]
    previous, stored_hash = value[-64:-32], value[-32:]
    if form == 0:
        salt = value[o : o + 16]
        f, p = struct.unpack_from(">II", value, o + 16)
        if o + 24 + f + p + 64 != len(value):
            raise Malformed("kept fields and content do not match the record size")
        facts = value[o + 24 : o + 24 + f]
        content = value[o + 24 + f : o + 24 + f + p]
        commitment = hashlib.sha256(b"\x02" + salt + content).digest()
        erased_form = value[: o - 1] + b"\x01" + commitment + struct.pack(">I", f) + facts + previous
        computed = hashlib.sha256(b"\x00" + erased_form).hexdigest()
        payload, state = facts + content, "present"
    elif form == 1:
        (f,) = struct.unpack_from(">I", value, o + 32)
        if o + 36 + f + 64 != len(value):
            raise Malformed("kept fields do not match the record size")
        payload, state = value[o + 36 : o + 36 + f], "erased"
        computed = hashlib.sha256(b"\x00" + value[:-32]).hexdigest()
    elif form == 2:
        if value[o] not in (1, 2):
            raise Malformed(f"an erased record says it was written in version {value[o]}")
        (f,) = struct.unpack_from(">I", value, o + 1)
        if o + 5 + f + 64 != len(value):
            raise Malformed("kept fields do not match the record size")
        payload, state = value[o + 5 : o + 5 + f], "erasedUnverifiable"
        computed = None
    else:
        raise Malformed(f"unknown content form {form}")
    return {
        "formatVersion": 3,
        "position": position,
        "timestampMicros": timestamp,
        "actor": decode_actor(actor_type, n, actor_id),
        "kindCode": kind,
        "payloadFields": decode_fields(payload),
        "contextFields": context,
        "content": state,
        "previousHash": previous.hex(),
        "hash": stored_hash.hex(),
        "computedHash": computed,
    }


def decode_actor(actor_type, n, actor_id):
    if actor_type in (0, 1) and n == 0:
        return {"type": ACTORS[actor_type]}
    if actor_type in (2, 3, 4) and n > 0:
        try:
            return {"type": ACTORS[actor_type], "id": actor_id.decode("utf-8")}
        except UnicodeDecodeError:
            raise Malformed("actor identifier is not UTF-8 text")
    raise Malformed(f"unknown actor type {actor_type} with {n} identifier bytes")


def decode_record(value):
    """Decodes one stored record (format version 1, 2 or 3) into a dict; raises Malformed."""
    if len(value) < 1:
        raise Malformed("empty record")
    version = value[0]
    if version == 3:
        return decode_version3(value)
    if version not in (1, 2):
        raise Malformed(f"unknown record format version {version}")
    fixed = FIXED if version == 1 else FIXED + 2
    if len(value) < fixed:
        raise Malformed(f"{len(value)} bytes, shorter than the fixed {fixed}")
    position, timestamp, actor_type, n = struct.unpack_from(">QqBH", value, 1)
    if n > len(value) - fixed:
        raise Malformed(f"actor identifier of {n} bytes runs past the end")
    actor_id = value[20 : 20 + n]
    offset, context = 20 + n, None
    if version == 2:
        (c,) = struct.unpack_from(">H", value, offset)
        if c == 0 or c > len(value) - fixed - n:
            raise Malformed(f"a caller context of {c} bytes is empty or runs past the end")
        context = decode_fields(value[offset + 2 : offset + 2 + c])
        offset += 2 + c
    kind, p = struct.unpack_from(">HI", value, offset)
    if p != len(value) - 32 - 32 - 6 - offset:
        raise Malformed(f"payload length {p} does not match the record size")
    payload = value[offset + 6 : offset + 6 + p]
    previous = value[offset + 6 + p : offset + 38 + p]
    stored_hash = value[offset + 38 + p :]
    actor = decode_actor(actor_type, n, actor_id)
    return {
        "formatVersion": version,
        "position": position,
        "timestampMicros": timestamp,
        "actor": actor,
        "kindCode": kind,
        "payloadFields": decode_fields(payload),
        "contextFields": context,
        "content": "present",
        "previousHash": previous.hex(),
        "hash": stored_hash.hex(),
        "computedHash": hashlib.sha256(b"\x00" + value[:-32]).hexdigest(),
    }


def decode_fields(payload):
    """The payload's (tag, value bytes) fields in order; raises Malformed."""
    fields, offset = [], 0
    while offset < len(payload):
        tag = payload[offset]
        offset += 1
        if tag == 0:
            raise Malformed(f"field tag 0 at byte {offset - 1}")
        length, shift = 0, 0
        while True:
            if offset >= len(payload):
                raise Malformed(f"field {tag} length runs past the end")
            if shift >= 63:
                raise Malformed(f"field {tag} length is too long")
            byte = payload[offset]
            offset += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0:
                break
        if length > len(payload) - offset:
            raise Malformed(f"field {tag} claims {length} bytes")
        fields.append((tag, payload[offset : offset + length]))
        offset += length
    return fields


def typed(value, kind):
    if kind == "uuid" and len(value) == 16:
        return str(uuid.UUID(bytes=value))
    if kind == "string":
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            pass
    if kind in ("unsigned", "signed", "timestamp") and len(value) == 8:
        return struct.unpack(">Q" if kind == "unsigned" else ">q", value)[0]
    if kind == "bool" and len(value) == 1 and value[0] <= 1:
        return value[0] == 1
    return value.hex()


def named(fields, schema):
    """Fields named and typed by `schema`; a repeated tag becomes a list."""
    payload = {}
    for tag, value in fields:
        field, kind = schema.get(tag, (f"tag{tag}", "bytes"))
        decoded = typed(value, kind)
        if field in payload:
            existing = payload[field]
            payload[field] = (existing if isinstance(existing, list) else [existing]) + [decoded]
        else:
            payload[field] = decoded
    return payload


def describe(record):
    """The record as JSON: header fields, kind name, payload fields named by their schema, and the
    caller context of a version 2 record."""
    name, schema = KINDS.get(record["kindCode"], (f"kind#{record['kindCode']}", {}))
    payload = named(record["payloadFields"], schema)
    described = {
        "position": record["position"],
        "timestampMicros": record["timestampMicros"],
        "actor": record["actor"],
        "kind": name,
        "kindCode": record["kindCode"],
        "payload": payload,
        "formatVersion": record["formatVersion"],
        "previousHash": record["previousHash"],
        "hash": record["hash"],
    }
    if record["content"] != "present":
        described["content"] = record["content"]
    if record["contextFields"] is not None:
        described["context"] = named(record["contextFields"], CONTEXT)
    return described


def open_store(path):
    if not os.path.exists(os.path.join(path, "data.mdb")):
        sys.stderr.write(f"error: no store at {path} — check the path\n")
        sys.exit(66)
    env = lmdb.open(path, readonly=True, lock=True, max_dbs=64, subdir=True, map_size=1 << 20)
    try:
        log = env.open_db(b"log", create=False)
        meta = env.open_db(b"meta", create=False)
    except lmdb.NotFoundError:
        sys.stderr.write(f"error: {path} is not a Kalends store (it has no log) — check the path\n")
        sys.exit(69)
    return env, log, meta


def may_make(record):
    """Rule 8 of docs/log-format.md (§4.1's first table): whether the record's actor may make it."""
    kind, actor = record["kindCode"], record["actor"]
    fields = dict(record["payloadFields"])
    if kind == 1:
        return actor == {"type": "system"}
    if kind == 3:
        return actor == {"type": "person"} or (actor == {"type": "system"} and 8 in fields)
    if kind == 4:
        return actor == {"type": "person"}
    if kind in (101, 102, 201, 202, 301, 302):
        return actor["type"] in ("person", "client", "source")
    if kind in (501, 502, 503, 504, 505, 506):
        return actor["type"] in ("person", "client", "source")
    if kind in (601, 602):
        return actor == {"type": "person"}
    if kind in (603, 604):
        return actor["type"] == "source"
    if kind in (401, 407, 408, 409, 410):
        return actor == {"type": "person"}
    if kind == 406:
        return actor == {"type": "system"}
    if kind in (402, 404, 405):
        return actor["type"] == "client" and fields.get(1) == actor["id"].encode("utf-8")
    if kind == 403:
        reason = fields.get(5)
        reason = struct.unpack(">Q", reason)[0] if reason is not None and len(reason) == 8 else None
        if fields.get(1) is None or actor["type"] == "client":
            return False
        if reason in (1, 2, 4, 6):
            return actor == {"type": "person"}
        if reason == 3:
            return actor["type"] == "policy"
        if reason == 5:
            return actor == {"type": "system"}
        return False
    return True


def merkle_root(leaves):
    """RFC 9162 §2.1.1's MTH over leaf hashes (docs/transparency.md), level by level: each level
    pairs its nodes left to right, and an odd last node moves up unchanged."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = leaves
    while len(level) > 1:
        paired = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def edge_root(edge):
    """The root of the tree whose right edge `meta/treeFrontier` stores: its subtree roots folded
    from the right."""
    hashes = [edge[8 + 32 * i : 8 + 32 * (i + 1)] for i in range((len(edge) - 8) // 32)]
    if not hashes:
        return hashlib.sha256(b"").digest()
    root = hashes[-1]
    for node in reversed(hashes[:-1]):
        root = hashlib.sha256(b"\x01" + node + root).digest()
    return root


def verify(path):
    env, log, meta = open_store(path)
    problem, checked, head, head_hash = None, 0, 0, bytes(32)
    leaves = []
    unrecorded = set()
    legacy = {}  # position -> SHA-256(0x03 || bytes before the hash) of a record erased from format 1 or 2
    unproven = []
    with env.begin() as txn:
        store_id = txn.get(b"storeId", db=meta)
        recorded_head = txn.get(b"head", db=meta)
        recorded_hash = txn.get(b"headHash", db=meta)
        recorded = struct.unpack(">Q", recorded_head)[0] if recorded_head and len(recorded_head) == 8 else 0
        for key, value in txn.cursor(db=log):
            expected = head + 1
            if len(key) != 8:
                problem = (expected, "unexpectedKey")
                break
            (number,) = struct.unpack(">Q", key)
            if number != expected:
                problem = (expected, "missingRecord" if number > expected else "unexpectedKey")
                break
            try:
                record = decode_record(bytes(value))
            except Malformed:
                problem = (expected, "malformedRecord")
                break
            if record["position"] != expected:
                problem = (expected, "positionMismatch")
                break
            if bytes.fromhex(record["previousHash"]) != head_hash:
                problem = (expected, "brokenChain")
                break
            if record["content"] != "erasedUnverifiable" and record["hash"] != record["computedHash"]:
                problem = (expected, "hashMismatch")
                break
            if record["content"] != "present":
                if record["kindCode"] not in CONTENT_KINDS:
                    problem = (expected, "malformedRecord")
                    break
                unrecorded.add(expected)
                if record["content"] == "erasedUnverifiable":
                    legacy[expected] = hashlib.sha256(b"\x03" + bytes(value)[:-32]).digest()
            if record["kindCode"] == 3:
                named = [struct.unpack(">Q", v)[0] for t, v in record["payloadFields"] if t == 3 and len(v) == 8]
                if not named or any(p >= expected for p in named):
                    problem = (expected, "malformedRecord")
                    break
                binds = any(t == 10 and v == b"\x01" for t, v in record["payloadFields"])
                bound = {
                    struct.unpack(">Q", v[:8])[0]: v[8:]
                    for t, v in record["payloadFields"]
                    if t == 9 and len(v) == 40
                }
                for p in named:
                    if p not in legacy:
                        continue
                    left = legacy.pop(p)
                    if not binds:
                        unproven.append(p)
                    elif bound.get(p) != left:
                        problem = (p, "hashMismatch")
                        break
                if problem:
                    break
                unrecorded.difference_update(named)
            if expected == 1:
                fields = dict(record["payloadFields"])
                if record["kindCode"] != 1 or record["actor"] != {"type": "system"} or fields.get(1) != store_id:
                    problem = (expected, "genesisMismatch")
                    break
            if not may_make(record):
                problem = (expected, "unauthorizedRecord")
                break
            head, head_hash = expected, bytes.fromhex(record["hash"])
            leaves.append(head_hash)
            checked += 1
        if problem is None and unrecorded:
            problem = (min(unrecorded), "unrecordedErasure")
        if problem is None:
            if recorded > head:
                problem = (head + 1, "missingRecord")
            elif recorded < head:
                problem = (recorded + 1, "headMismatch")
            elif recorded_hash != head_hash and head > 0:
                problem = (recorded, "headMismatch")
        edge = txn.get(b"treeFrontier", db=meta)
    root = merkle_root(leaves)
    if problem is None and edge is not None:
        (size,) = struct.unpack_from(">Q", edge, 0)
        if size != head or edge_root(edge) != root:
            problem = (min(size, head) + 1, "treeMismatch")
    result = {
        "intact": problem is None,
        "recordsChecked": checked,
        "verifiedHead": head,
        "verifiedHeadHash": head_hash.hex(),
        "recordedHead": recorded,
        "treeSize": len(leaves),
        "treeRoot": root.hex(),
        "unprovenRecords": unproven,
    }
    if problem:
        result["problem"] = {"position": problem[0], "kind": problem[1]}
    print(json.dumps(result))
    return 0 if problem is None else 69


def dump(path, start):
    env, log, _ = open_store(path)
    with env.begin() as txn:
        cursor = txn.cursor(db=log)
        if not cursor.set_range(struct.pack(">Q", start)):
            return 0
        for _, value in cursor:
            try:
                print(json.dumps(describe(decode_record(bytes(value))), ensure_ascii=False))
            except Malformed as error:
                sys.stderr.write(f"error: a stored record is malformed: {error} — run --verify\n")
                return 69
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    parser.add_argument("--verify", action="store_true", help="check the whole chain")
    parser.add_argument("--from", dest="start", type=int, default=1, help="first position to print")
    arguments = parser.parse_args()
    sys.exit(verify(arguments.store) if arguments.verify else dump(arguments.store, arguments.start))


if __name__ == "__main__":
    main()
