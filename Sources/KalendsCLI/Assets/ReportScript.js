"use strict";
(() => {
const data = JSON.parse(document.getElementById("kalends-proofs").textContent);
const utf8 = (s) => new TextEncoder().encode(s);
const text = (b) => new TextDecoder().decode(b);
const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const sha = async (b) => new Uint8Array(await crypto.subtle.digest("SHA-256", b));
const u16 = (b, o) => (b[o] << 8) | b[o + 1];
const u32 = (b, o) => ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);
const u64 = (b, o) => { let v = 0n; for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(b[o + i]); return v; };
const words = {
  service: { 1: "calendars", 2: "reminders", 3: "contacts" },
  status: { 0: "not asked yet", 1: "restricted", 2: "denied", 3: "full access", 4: "write-only", 5: "limited" },
  reason: { 1: "prompt answered", 2: "settings", 3: "policy", 4: "reset", 5: "no usage description", 6: "upgrade" },
  kind: { 403: "accessDecided", 409: "accessScopeChanged", 410: "contactPicked" },
  actor: { 0: "the system", 1: "the person", 2: "app", 3: "policy" },
};

// A verifier key NAME+KEYID+base64(type ‖ key), its key id checked (C2SP signed-note).
async function parseKey(vkey) {
  // The key's base64 may hold "+": only the first two separate the parts.
  const text = vkey.trim();
  const first = text.indexOf("+"), second = text.indexOf("+", first + 1);
  if (first < 1 || second < 0) throw new Error("a verifier key is NAME+KEYID+KEY");
  const [name, id, encoded] = [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  const key = b64(encoded);
  if (key.length !== 33 || (key[0] !== 1 && key[0] !== 4)) throw new Error("not an Ed25519 verifier key");
  const digest = await sha(cat(utf8(name), new Uint8Array([0x0a, key[0]]), key.slice(1)));
  if (hex(digest.slice(0, 4)) !== id.toLowerCase()) throw new Error("its key ID does not match its key");
  return { name, id: digest.slice(0, 4), type: key[0], publicKey: key.slice(1) };
}

function parseNote(note) {
  const cut = note.lastIndexOf("\n\n");
  const body = note.slice(0, cut + 1);
  const signatures = note.slice(cut + 2).split("\n").filter((l) => l.length).map((line) => {
    const [dash, name, encoded] = line.split(" ");
    const bytes = b64(encoded);
    return { name, id: bytes.slice(0, 4), signature: bytes.slice(4) };
  });
  const lines = body.split("\n");
  return { body, signatures, origin: lines[0], size: BigInt(lines[1]), root: b64(lines[2]) };
}

async function ed25519(publicKey, signature, message) {
  const key = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, key, signature, message);
}

// Whether `key` signed the note (type 1) or cosigned it with a timestamp (type 4).
async function signed(note, key) {
  for (const s of note.signatures) {
    if (s.name !== key.name || !same(s.id, key.id)) continue;
    if (key.type === 1) return ed25519(key.publicKey, s.signature, utf8(note.body));
    if (s.signature.length !== 72) return false;
    const time = u64(s.signature, 0);
    const message = cat(utf8("cosignature/v1\ntime " + time.toString() + "\n"), utf8(note.body));
    return ed25519(key.publicKey, s.signature.slice(8), message);
  }
  return false;
}

// The hash a record should carry (docs/log-format.md): versions 1 and 2 hash their bytes;
// version 3 hashes its erased form (the content through its salted commitment).
async function recordHash(r) {
  const before = r.slice(0, r.length - 32);
  if (r[0] === 1 || r[0] === 2) return sha(cat(new Uint8Array([0]), before));
  if (r[0] !== 3) throw new Error("unknown record version " + r[0]);
  const n = u16(r, 18);
  const c = u16(r, 20 + n);
  const form = 24 + n + c;
  if (r[form] === 1) return sha(cat(new Uint8Array([0]), before));
  if (r[form] !== 0) throw new Error("the record's content was erased before its hash covered it");
  const salt = r.slice(form + 1, form + 17);
  const f = u32(r, form + 17);
  const p = u32(r, form + 21);
  const facts = r.slice(form + 25, form + 25 + f);
  const content = r.slice(form + 25 + f, form + 25 + f + p);
  const commitment = await sha(cat(new Uint8Array([2]), salt, content));
  return sha(cat(new Uint8Array([0]), r.slice(0, form), new Uint8Array([1]), commitment,
    r.slice(form + 17, form + 21), facts, r.slice(r.length - 64, r.length - 32)));
}

// The record's header and payload fields (tag → list of values), as docs/log-format.md lays them out.
function decode(r) {
  const n = u16(r, 18);
  const header = { position: u64(r, 1), actorType: r[17], actor: text(r.slice(20, 20 + n)) };
  let o = 20 + n;
  if (r[0] >= 2) o += 2 + u16(r, o);
  header.kind = u16(r, o);
  let payload;
  if (r[0] === 3) {
    const form = o + 2;
    payload = r[form] === 0 ? r.slice(form + 25, form + 25 + u32(r, form + 17)) : new Uint8Array();
  } else {
    payload = r.slice(o + 6, o + 6 + u32(r, o + 2));
  }
  const fields = {};
  for (let i = 0; i < payload.length;) {
    const tag = payload[i++];
    let length = 0, shift = 0, b;
    do { b = payload[i++]; length += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    (fields[tag] = fields[tag] || []).push(payload.slice(i, i + length));
    i += length;
  }
  return { header, fields };
}

// Whether the decoded record states exactly what the row shows (`expect`, from the page).
function states(decoded, expect) {
  const h = decoded.header;
  if (h.position !== BigInt(expect.position) || h.kind !== expect.kind) return false;
  if (h.actorType !== expect.actorType || h.actor !== expect.actor) return false;
  for (const [tag, want] of Object.entries(expect.fields)) {
    const got = decoded.fields[tag] || [];
    if (typeof want === "string") { if (got.length !== 1 || text(got[0]) !== want) return false; }
    else if (typeof want === "number") { if (got.length !== 1 || got[0].length !== 8 || u64(got[0], 0) !== BigInt(want)) return false; }
    else if (got.length !== want.length || !want.every((w, i) => hex(got[i]) === w.replaceAll("-", ""))) return false;
  }
  return true;
}

// Interior nodes, by their two children: proofs of records near each other share the upper
// part of their paths, and each node is hashed once (its promise kept while it is computed).
const nodes = new Map();
const bytes = (b) => String.fromCharCode.apply(null, b);
function node(left, right) {
  const key = bytes(left) + bytes(right);
  let hash = nodes.get(key);
  if (!hash) { hash = sha(cat(new Uint8Array([1]), left, right)); nodes.set(key, hash); }
  return hash;
}

// The root an inclusion path leads to (RFC 9162 §2.1.3.2).
async function rootFrom(leaf, index, size, path) {
  if (index >= size) return null;
  let fn = index, sn = size - 1n, r = leaf;
  for (const p of path) {
    if (sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = await node(p, r);
      while ((fn & 1n) === 0n && fn !== 0n) { fn >>= 1n; sn >>= 1n; }
    } else {
      r = await node(r, p);
    }
    fn >>= 1n; sn >>= 1n;
  }
  return sn === 0n ? r : null;
}

function describe(decoded) {
  const f = decoded.fields, h = decoded.header;
  const num = (tag) => f[tag] ? Number(u64(f[tag][0], 0)) : undefined;
  let what = words.kind[h.kind] || "kind " + h.kind;
  if (h.kind === 403) what += ": " + words.service[num(2)] + " " + words.status[num(4)] + " → " + words.status[num(3)] + " (" + words.reason[num(5)] + ")";
  if (h.kind === 409 || h.kind === 410) what += ": " + (words.service[num(2)] || "contacts");
  const by = h.actorType === 2 || h.actorType === 3 ? words.actor[h.actorType] + " " + h.actor : words.actor[h.actorType];
  return "record " + h.position + ", " + what + ", for " + text(f[1][0]) + ", by " + by;
}

function mark(row, state, detail) {
  const cell = row.querySelector("td.proof");
  cell.dataset.proof = state;
  const label = { proven: "✓ proven", failed: "✗ not proven", uncovered: "– after the checkpoint", unchecked: "? not checked" }[state];
  cell.textContent = "";
  const strong = document.createElement("strong");
  strong.textContent = label;
  cell.append(strong, document.createElement("br"), detail);
}

function say(id, message, state) {
  const element = document.getElementById(id);
  element.textContent = message;
  if (state) element.dataset.state = state;
}

async function check(keyText) {
  document.body.dataset.verification = "running";
  const rows = Array.from(document.querySelectorAll("#decisions tbody tr[data-position]"));
  const proofs = new Map(data.proofs.map((p) => [String(p.position), p]));
  const pathNodes = data.nodes.map(b64);
  const counts = { proven: 0, failed: 0, uncovered: 0, unchecked: 0 };
  const finish = (verdict, state) => {
    say("verdict", verdict, state);
    // Done once the page with its verdict is drawn: `checkedMs` is how long that took from the
    // start of its loading (read, laid out, every proof checked, painted).
    requestAnimationFrame(() => requestAnimationFrame(() => {
      document.body.dataset.checkedMs = String(Math.round(performance.now()));
      document.body.dataset.verification = "done";
    }));
    document.body.dataset.proven = String(counts.proven);
    document.body.dataset.failed = String(counts.failed);
  };
  if (!data.checkpoint) {
    for (const row of rows) { counts.uncovered++; mark(row, "uncovered", "no checkpoint is kept"); }
    say("checkpoint-status", "No checkpoint is kept in the store: no decision can be proven. Sign one (kalends checkpoint sign) and make the report again.", "failed");
    return finish("No decision is proven: the store keeps no signed checkpoint.", "failed");
  }
  let note, key = null, signatureOK = false, reason = "";
  try {
    note = parseNote(data.checkpoint);
    if (note.origin !== data.origin) throw new Error("the checkpoint is for " + note.origin + ", not " + data.origin);
    if (keyText) {
      key = await parseKey(keyText);
      if (key.type !== 1) throw new Error("the log's key must be a signing key (type 1), not a witness's");
      signatureOK = await signed(note, key);
      if (!signatureOK) reason = "the checkpoint is not signed by " + key.name + " (" + hex(key.id) + ")";
    } else {
      reason = "no verifier key: paste the log's key below to check";
    }
  } catch (error) {
    reason = error && error.name === "NotSupportedError"
      ? "this browser has no Ed25519 in Web Crypto: check offline with the command below"
      : String(error.message || error);
  }
  let witnessesOK = true;
  if (note && signatureOK && data.witnesses.length) {
    let cosigned = 0;
    for (const w of data.witnesses) {
      try { if (await signed(note, await parseKey(w))) cosigned++; } catch (error) { /* counted as missing */ }
    }
    witnessesOK = cosigned >= data.quorum;
    say("witness-status", cosigned + " of " + data.witnesses.length + " witnesses cosigned (" + data.quorum + " needed)", witnessesOK ? "proven" : "failed");
    if (!witnessesOK) reason = "only " + cosigned + " of the " + data.quorum + " witness cosignatures needed";
  }
  const trusted = note && signatureOK && witnessesOK;
  say("checkpoint-status", trusted
    ? "Signature valid: the checkpoint of " + note.size + " records is signed by " + key.name + " (key ID " + hex(key.id) + ")."
    : "Checkpoint not trusted: " + reason + ".", trusted ? "proven" : keyText ? "failed" : "unchecked");
  // Every row at once: each proof is a chain of digests, and Web Crypto runs the chains side by
  // side, so that thousands of proofs take about as long as their longest path.
  await Promise.all(rows.map(async (row) => {
    const proof = proofs.get(row.dataset.position);
    if (!proof) { counts.uncovered++; mark(row, "uncovered", "the record is newer than the checkpoint"); return; }
    if (!note) { counts.failed++; mark(row, "failed", reason); return; }
    try {
      const record = b64(proof.record);
      const decoded = decode(record);
      const computed = await recordHash(record);
      if (!same(computed, record.slice(record.length - 32))) throw new Error("the record's bytes do not hash to the hash it carries: it was altered");
      if (!states(decoded, proof.expect)) throw new Error("the record does not say what this row shows");
      const root = await rootFrom(computed, BigInt(proof.index), note.size, proof.path.map((i) => pathNodes[i]));
      if (!root || !same(root, note.root)) throw new Error("its inclusion path does not lead to the checkpoint's root");
      if (!trusted) { counts.unchecked++; mark(row, "unchecked", describe(decoded) + " — in the tree, but " + reason); return; }
      counts.proven++;
      mark(row, "proven", describe(decoded));
    } catch (error) {
      counts.failed++;
      mark(row, "failed", String(error.message || error));
    }
  }));
  const total = rows.length;
  if (counts.failed) return finish(counts.failed + " of the " + total + " decisions listed failed their proof: this report or the store was altered.", "failed");
  if (!trusted) return finish("The decisions listed are not proven: " + reason + ".", keyText ? "failed" : "unchecked");
  const after = counts.uncovered ? " (" + counts.uncovered + " newer than the checkpoint are not)" : "";
  finish(counts.proven + " of the " + total + " decisions listed are proven against a checkpoint signed by " + key.name + after + ".", counts.uncovered ? "partial" : "proven");
}

document.getElementById("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  check(document.getElementById("key-input").value);
});
check(data.logKey);
})();
