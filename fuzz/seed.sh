#!/bin/sh
# Fills fuzz/corpus/<target>/ with seeds built from the robots.txt bodies of
# spec-cases/**/*.toml (`robots`, `robots_hex`, `robots_base64`,
# `robots_parts`). Idempotent: each seed is named by the SHA-1 of its bytes,
# as libFuzzer names its own finds. fuzz/corpus is git-ignored.
#
#   parse          the body, and `body NUL agent NUL url` for each check
#                  (the layout the target splits on; bodies up to 4 KiB)
#   decide,        the body as a byte stream: these targets read it through
#   differential   `Check::arbitrary`, so a seed is only a starting point
#                  for mutation; libFuzzer grows the real corpus in seconds
#   case_loader    each case file, and each of its `[[case]]` tables on its
#                  own (the file's text cut before each `[[case]]` line)
#   serve_reader   the request lines of adapters/PROTOCOL.md, and for each
#                  body up to 1 KiB a decide, a sitemaps and a crawl-delay
#                  line (`serve_reader` caps a line at 2048 bytes)
#
# Every target also gets fuzz/regressions/<target>/*: the inputs of
# crashes found and fixed, kept so that the fix stays covered.
#
# Bodies over MAX_SEED bytes (default 32768) are left out: libFuzzer sizes
# -max_len from the largest seed, and big inputs slow every run.
# Usage: fuzz/seed.sh [--out DIR] [TARGET...]
#   DIR defaults to fuzz/corpus; TARGET defaults to every target
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/corpus"
if [ "${1:-}" = "--out" ]; then
  out=$2
  shift 2
fi
targets=${*:-parse decide differential case_loader serve_reader}
MAX_SEED=${MAX_SEED:-32768} python3 - "$here/../spec-cases" "$out" $targets <<'EOF'
import base64, hashlib, json, os, pathlib, sys, tomllib

cases_dir, corpus, targets = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3:]
max_seed = int(os.environ["MAX_SEED"])

def hex_bytes(s):
    return bytes.fromhex("".join(s.split()))

def body_of(case):
    if "robots" in case:
        return case["robots"].encode("utf-8")
    if "robots_hex" in case:
        return hex_bytes(case["robots_hex"])
    if "robots_base64" in case:
        return base64.b64decode(case["robots_base64"].strip())
    if "robots_parts" in case:
        out = bytearray()
        for p in case["robots_parts"]:
            if "text" in p:
                out += p["text"].encode("utf-8")
            elif "hex" in p:
                out += hex_bytes(p["hex"])
            elif "repeat" in p:
                out += p["repeat"].encode("utf-8") * p["times"]
            elif "pad" in p:
                pad = p["pad"].encode("utf-8")
                while len(out) < p["to"]:
                    out += pad[: p["to"] - len(out)]
        return bytes(out)
    return None

seeds = set()
files = set()  # case_loader
lines = set()  # serve_reader
protocol = cases_dir.parent / "adapters" / "PROTOCOL.md"
for line in protocol.read_text(encoding="utf-8").splitlines():
    for part in line.split("`"):  # table cells quote requests in backticks
        part = part.strip().removeprefix("→").strip()
        if part.startswith('{"id"') and '"op"' in part:
            part = part.replace('"id":N', '"id":7')
            lines.add(part.encode("utf-8") + b"\n")
lines.add(b"".join(sorted(lines)))  # a session of every example
skipped = 0
for path in sorted(cases_dir.rglob("*.toml")):
    raw = path.read_bytes()
    if len(raw) <= max_seed:
        files.add(raw)
    chunks = raw.split(b"\n[[case]]")
    if len(chunks) > 1:
        files.update(b"[[case]]" + c for c in chunks[1:] if len(c) <= max_seed)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        print(f"seed.sh: skipping {path}: {e}", file=sys.stderr)
        continue
    for case in doc.get("case", []):
        body = body_of(case)
        if body is None:
            continue
        if len(body) > max_seed:
            skipped += 1
            continue
        seeds.add(("body", body))
        if len(body) <= 1024:
            b64 = base64.b64encode(body).decode()
            agent = (case.get("check") or [{}])[0].get("agent", "FooBot")
            urls = [c["url"] for c in case.get("check", []) if "url" in c][:4]
            for call in (
                {"op": "decide", "robots": b64, "agent": agent, "urls": urls},
                {"op": "sitemaps", "robots": b64},
                {"op": "crawl-delay", "robots": b64, "agent": agent},
            ):
                lines.add(json.dumps({"id": 1, **call}).encode("utf-8") + b"\n")
        for check in case.get("check", []):
            tail = f"\0{check['agent']}\0{check['url']}".encode("utf-8")
            if len(body) <= 4096:  # long bodies: one seed is enough
                seeds.add(("steered", body + tail))

by_target = {
    "case_loader": [("file", f) for f in files],
    "serve_reader": [("line", l) for l in lines],
}
for target in targets:
    d = corpus / target
    d.mkdir(parents=True, exist_ok=True)
    n = 0
    kept = pathlib.Path(sys.argv[1]).parent / "fuzz" / "regressions" / target
    regressions = [("kept", f.read_bytes()) for f in sorted(kept.glob("*"))]
    for kind, data in sorted(by_target.get(target, seeds)) + regressions:
        if kind == "steered" and target != "parse":
            continue
        f = d / hashlib.sha1(data).hexdigest()
        if not f.exists():
            f.write_bytes(data)
        n += 1
    print(f"seed.sh: {target}: {n} seeds in {d} ({skipped} bodies over {max_seed} bytes left out)")
EOF
