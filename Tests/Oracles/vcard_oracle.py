#!/usr/bin/env python3
"""The vCard oracle: PyPI's `vobject` reads and writes the files Kalends exchanges.

    Tests/Oracles/vcard_oracle.py read FILE.vcf            every card as vobject reads it, as JSON
    Tests/Oracles/vcard_oracle.py write CARDS.json OUT.vcf  cards described in JSON, serialized by vobject
    Tests/Oracles/vcard_oracle.py generate N OUT.vcf [--seed S]
                                                   N deterministic contacts, serialized by vobject
    Tests/Oracles/vcard_oracle.py parse-time FILE.vcf [--times K]
                                                   vobject's parse time of the file (median of K)

Exit status: 0 on success, 3 when vobject is missing, 1 when vobject cannot read the file.
"""

import json
import random
import statistics
import sys
import time

try:
    import vobject
except ImportError:  # pragma: no cover - reported, not raised
    sys.stderr.write("error: the Python vobject package is missing — run tools/setup\n")
    sys.exit(3)


def types_of(prop):
    values = []
    for value in prop.params.get("TYPE", []):
        values.extend(v.strip().lower() for v in value.split(",") if v.strip())
    return sorted(values)


def text(card, name):
    prop = getattr(card, name, None)
    if prop is None:
        return None
    value = prop.value
    if isinstance(value, list):
        return value
    return str(value)


def describe(card):
    out = {"version": text(card, "version"), "uid": text(card, "uid"), "fn": text(card, "fn")}
    if hasattr(card, "n"):
        name = card.n.value
        out["n"] = {
            "family": name.family, "given": name.given, "additional": name.additional,
            "prefix": name.prefix, "suffix": name.suffix,
        }
    for key in ("nickname", "title", "note", "bday", "kind", "x_addressbookserver_kind"):
        key_name = key.replace("_", "-")
        prop = card.contents.get(key_name)
        if prop:
            out[key] = str(prop[0].value)
    if "org" in card.contents:
        out["org"] = list(card.contents["org"][0].value)
    for key in ("email", "tel", "url"):
        out[key] = [{"value": str(p.value), "types": types_of(p), "group": p.group} for p in card.contents.get(key, [])]
    out["adr"] = [
        {
            "box": p.value.box, "extended": p.value.extended, "street": p.value.street, "city": p.value.city,
            "region": p.value.region, "code": p.value.code, "country": p.value.country, "types": types_of(p),
        }
        for p in card.contents.get("adr", [])
    ]
    out["labels"] = {p.group: str(p.value) for p in card.contents.get("x-ablabel", []) if p.group}
    out["members"] = [str(p.value) for key in ("member", "x-addressbookserver-member") for p in card.contents.get(key, [])]
    return out


def read(path):
    with open(path, encoding="utf-8") as handle:
        data = handle.read()
    try:
        cards = [describe(card) for card in vobject.readComponents(data)]
    except Exception as error:  # vobject raises several types
        sys.stderr.write(f"vobject cannot read {path}: {error}\n")
        return 1
    json.dump(cards, sys.stdout, ensure_ascii=False)
    return 0


def build(spec):
    card = vobject.vCard()
    card.add("version").value = spec.get("version", "3.0")
    if "uid" in spec:
        card.add("uid").value = spec["uid"]
    n = spec.get("n", {})
    card.add("n").value = vobject.vcard.Name(
        family=n.get("family", ""), given=n.get("given", ""), additional=n.get("additional", ""),
        prefix=n.get("prefix", ""), suffix=n.get("suffix", ""))
    card.add("fn").value = spec.get("fn") or " ".join(x for x in (n.get("given"), n.get("family")) if x) or "x"
    for key in ("nickname", "title", "note", "bday"):
        if key in spec:
            card.add(key).value = spec[key]
    if "org" in spec:
        card.add("org").value = spec["org"]
    for key in ("email", "tel", "url"):
        for item in spec.get(key, []):
            prop = card.add(key)
            prop.value = item["value"]
            if item.get("types"):
                prop.type_paramlist = [t.upper() for t in item["types"]]
    for item in spec.get("adr", []):
        prop = card.add("adr")
        prop.value = vobject.vcard.Address(
            street=item.get("street", ""), city=item.get("city", ""), region=item.get("region", ""),
            code=item.get("code", ""), country=item.get("country", ""), box=item.get("box", ""),
            extended=item.get("extended", ""))
        if item.get("types"):
            prop.type_paramlist = [t.upper() for t in item["types"]]
    return card


def write(spec_path, out_path):
    with open(spec_path, encoding="utf-8") as handle:
        specs = json.load(handle)
    with open(out_path, "w", encoding="utf-8", newline="") as out:
        for spec in specs:
            out.write(build(spec).serialize())
    return 0


GIVEN = ["Anna", "Ben", "Chloé", "David", "Emma", "Fatima", "Georg", "Hana", "Ivan", "José", "Karin", "Liam",
         "Maja", "Noah", "Olga", "Pedro", "Quinn", "Rosa", "Sven", "Tomás", "Uma", "Viktor", "Wen", "Yusuf", "Zoë"]
FAMILY = ["Ørsted", "Müller", "García", "Nakamura", "Smith", "Okafor", "Kowalski", "Rossi", "Dubois", "Andersson",
          "Novák", "Silva", "Yılmaz", "Nguyen", "Papadopoulos", "O'Brien", "Schmidt", "Jensen", "Costa", "Ivanova"]
CITIES = ["Berlin", "Lisbon", "Osaka", "Lagos", "Oslo", "Toronto", "Kraków", "Lyon"]


def generate(count, out_path, seed):
    rng = random.Random(seed)
    with open(out_path, "w", encoding="utf-8", newline="") as out:
        for index in range(count):
            given, family = rng.choice(GIVEN), rng.choice(FAMILY)
            spec = {
                "uid": f"kalends-bench-{seed}-{index}",
                "n": {"family": family, "given": given},
                "fn": f"{given} {family}",
                "email": [{"value": f"{given.lower()}.{index}@example.com", "types": ["internet", "home"]}],
                "tel": [{"value": f"+1 555 {index // 10000:02d}{index % 10000:04d}", "types": ["cell"]}],
            }
            if index % 3 == 0:
                spec["org"] = [f"Company {index % 97}"]
                spec["title"] = "Engineer"
            if index % 4 == 0:
                spec["adr"] = [{"street": f"{index % 300} Main St", "city": rng.choice(CITIES), "code": f"{index % 99999:05d}",
                                "country": "Nowhere", "types": ["home"]}]
            if index % 5 == 0:
                spec["bday"] = f"19{50 + index % 50}-{1 + index % 12:02d}-{1 + index % 28:02d}"
            out.write(build(spec).serialize())
    return 0


def parse_time(path, times):
    with open(path, encoding="utf-8") as handle:
        data = handle.read()
    samples = []
    count = 0
    for _ in range(times):
        start = time.perf_counter()
        count = sum(1 for _ in vobject.readComponents(data))
        samples.append(time.perf_counter() - start)
    json.dump({"cards": count, "medianSeconds": statistics.median(samples), "samples": samples}, sys.stdout)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "read":
        return read(argv[1])
    if len(argv) >= 3 and argv[0] == "write":
        return write(argv[1], argv[2])
    if len(argv) >= 3 and argv[0] == "generate":
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
        return generate(int(argv[1]), argv[2], seed)
    if len(argv) >= 2 and argv[0] == "parse-time":
        times = int(argv[argv.index("--times") + 1]) if "--times" in argv else 3
        return parse_time(argv[1], times)
    sys.stderr.write(__doc__)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
