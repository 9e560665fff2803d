#!/usr/bin/env python3
"""RFC 9162 §2.1 Merkle tree hashes, inclusion paths and consistency proofs, written from the RFC's
text alone (its recursive definitions of MTH, PATH, PROOF and SUBPROOF, and the verification
algorithms of §2.1.3.2 and §2.1.4.2) and nothing else, as an oracle for Kalends' tree.

    merkle_oracle.py INPUT.json OUTPUT.json

INPUT: {"leaves": [hex leaf hash, ...], "roots": [n, ...], "inclusion": [[m, n], ...],
        "consistency": [[m, n], ...]}
OUTPUT: {"roots": {"n": hex}, "inclusion": [[hex, ...], ...], "consistency": [[hex, ...], ...]}
where each inclusion path and consistency proof is also checked by the RFC's verification
algorithms before it is written (the run fails if one does not verify).
"""
import functools
import hashlib
import json
import sys


def node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def largest_power_of_two_below(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def verify_inclusion(leaf_index, tree_size, leaf_hash, inclusion_path, root):
    if leaf_index >= tree_size:
        return False
    fn, sn, r = leaf_index, tree_size - 1, leaf_hash
    for p in inclusion_path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node(p, r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root

def verify_consistency(first, second, first_hash, second_hash, proof):
    if not proof:
        return False
    if first & (first - 1) == 0:
        proof = [first_hash] + proof
    fn, sn = first - 1, second - 1
    if fn & 1:
        while fn & 1:
            fn >>= 1
            sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node(c, fr)
            sr = node(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_hash and sr == second_hash and sn == 0


def main():
    data = json.load(open(sys.argv[1]))
    leaves = [bytes.fromhex(h) for h in data["leaves"]]

    @functools.lru_cache(maxsize=None)
    def mth(lo, hi):
        # MTH({d(0)}) = SHA-256(0x00 || d(0)) is the leaf hash itself, given.
        n = hi - lo
        if n == 0:
            return hashlib.sha256(b"").digest()
        if n == 1:
            return leaves[lo]
        k = largest_power_of_two_below(n)
        return node(mth(lo, lo + k), mth(lo + k, hi))

    def path(m, lo, hi):
        # PATH(m, D[n]) for the subtree D[lo:hi], m relative to lo.
        n = hi - lo
        if n == 1:
            return []
        k = largest_power_of_two_below(n)
        if m < k:
            return path(m, lo, lo + k) + [mth(lo + k, hi)]
        return path(m - k, lo + k, hi) + [mth(lo, lo + k)]

    def subproof(m, lo, hi, b):
        n = hi - lo
        if m == n:
            return [] if b else [mth(lo, hi)]
        k = largest_power_of_two_below(n)
        if m <= k:
            return subproof(m, lo, lo + k, b) + [mth(lo + k, hi)]
        return subproof(m - k, lo + k, hi, False) + [mth(lo, lo + k)]

    out = {"roots": {}, "inclusion": [], "consistency": []}
    for n in data.get("roots", []):
        out["roots"][str(n)] = mth(0, n).hex()
    for m, n in data.get("inclusion", []):
        p = path(m, 0, n)
        if not verify_inclusion(m, n, leaves[m], p, mth(0, n)):
            sys.exit(f"inclusion of {m} in {n} does not verify")
        out["inclusion"].append([h.hex() for h in p])
    for m, n in data.get("consistency", []):
        p = subproof(m, 0, n, True) if 0 < m < n else []
        if 0 < m < n and not verify_consistency(m, n, mth(0, m), mth(0, n), p):
            sys.exit(f"consistency of {m} with {n} does not verify")
        out["consistency"].append([h.hex() for h in p])
    json.dump(out, open(sys.argv[2], "w"))


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
