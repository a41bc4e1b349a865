#!/usr/bin/env python3
"""Runs mutants named at an earlier commit again, on the tree as it is.

    python3 mutation/recheck.py map --triage unreachable --sample s1 --out target/mutation/recheck-s1
    python3 mutation/recheck.py map --names FILE --out DIR
    bash mutation/run.sh DIR 0/1                   # in a worktree of its own, as for a sample
    python3 mutation/recheck.py report DIR         # each earlier name: what the judge does now

A survivor's name carries its line and column at the sample's commit; the oracle
has moved since. `map` lists the mutants of the tree as it is (`cargo mutants
--list`) and takes, for each earlier name, the mutant of the same file and the
same change (`replace X with Y in F`) whose line is nearest (the same column
first). A name with no such mutant now is reported as gone (the code it
changed was rewritten: triage it again by hand). It writes DIR/map.tsv (earlier
name, name now) and DIR/mutants.toml, the sample's configuration (the spec
cases alone as the judge) restricted to those mutants. `report` reads the
shards' outcomes.json under DIR and prints, per earlier name, caught, missed,
timeout or unviable (or not run), then the counts.

It only writes under DIR (temp + rename) and never edits the triage: a
recheck's result becomes a triage entry by hand, with the check that now
catches the mutant (`case` or `judge`).
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tomllib

NAME = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<what>.*)$")
WORDS = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Timeout": "timeout",
    "Unviable": "unviable",
}


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def now():
    out = subprocess.run(
        ["cargo", "mutants", "--list", "--json", "-p", "robots-oracle"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [m["name"] for m in json.loads(out)]


def earlier_names(a):
    if a.names:
        with open(a.names, encoding="utf-8") as f:
            return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "triage.toml"), "rb") as f:
        entries = tomllib.load(f)["survivor"]
    return [e["mutant"] for e in entries
            if e["verdict"] == a.triage and (a.sample is None or e["sample"] == a.sample)]


def nearest(old, index):
    m = NAME.match(old)
    if not m:
        return None
    line, col = int(m["line"]), int(m["col"])
    cands = index.get((m["file"], m["what"]), [])
    if not cands:
        return None
    return min(cands, key=lambda c: (abs(c[0] - line), c[1] != col))[2]


def cmd_map(a):
    index = collections.defaultdict(list)
    for n in now():
        m = NAME.match(n)
        if m:
            index[(m["file"], m["what"])].append((int(m["line"]), int(m["col"]), n))
    old = earlier_names(a)
    pairs = [(o, nearest(o, index)) for o in old]
    taken = collections.Counter(n for _, n in pairs if n)
    clash = [n for n, k in taken.items() if k > 1]
    if clash:
        sys.exit(f"recheck.py: several earlier names map to one mutant now: {clash}")
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "map.tsv"),
          "".join(f"{o}\t{n or ''}\n" for o, n in pairs))
    names = sorted(n for _, n in pairs if n)
    res = ",\n".join("  " + json.dumps("^" + re.escape(n) + "$") for n in names)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    write(os.path.join(a.out, "mutants.toml"), f"""# recheck of {len(old)} earlier mutants ({len(names)} found), src at {commit}
# Written by mutation/recheck.py; run with
#   bash mutation/run.sh {a.out} 0/1
test_package = ["robots-runner"]
additional_cargo_args = ["--test", "spec"]
profile = "mutants"
minimum_test_timeout = 60
examine_re = [
{res}
]
""")
    gone = [o for o, n in pairs if not n]
    print(f"{len(names)} of {len(old)} mapped; {len(gone)} gone")
    for o in gone:
        print("  gone:", o)


def cmd_report(a):
    outcomes = {}
    for shard in sorted(os.listdir(a.dir)):
        path = os.path.join(a.dir, shard, "mutants.out", "outcomes.json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            for o in json.load(f)["outcomes"]:
                mutant = o.get("scenario", {})
                if isinstance(mutant, dict) and "Mutant" in mutant:
                    outcomes[mutant["Mutant"]["name"]] = WORDS.get(o["summary"], o["summary"])
    counts = collections.Counter()
    with open(os.path.join(a.dir, "map.tsv"), encoding="utf-8") as f:
        for line in f:
            old, new = line.rstrip("\n").split("\t")
            word = outcomes.get(new, "not run") if new else "gone"
            counts[word] += 1
            print(f"{word}\t{old}\t{new}")
    print("#", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("map")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--names", help="a file of earlier names, one per line")
    src.add_argument("--triage", help="the triage entries with this verdict")
    m.add_argument("--sample", help="only the triage entries of this sample")
    m.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("dir")
    a = ap.parse_args()
    cmd_map(a) if a.cmd == "map" else cmd_report(a)


if __name__ == "__main__":
    main()
