#!/usr/bin/env python3
"""Runs mutants named at an earlier commit again, on the tree as it is.

    python3 mutation/recheck.py map --triage unreachable --sample s1 --out target/mutation/recheck-s1
    python3 mutation/recheck.py map --names FILE --commit REV --out DIR
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
timeout or unviable (or not run), for a caught one the first check that failed
and what it said (from cargo-mutants' log), then the counts.

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


def config(head, writer, run_args, names):
    """The cargo-mutants configuration that runs exactly `names` with the
    spec cases alone as the judge (what sample.py and `map` write)."""
    res = ",\n".join("  " + json.dumps("^" + re.escape(n) + "$") for n in names)
    return f"""{head}# Written by {writer}; run with
#   bash mutation/run.sh {run_args}
# The judge: the spec cases alone (built and run alone).
test_package = ["robots-runner"]
additional_cargo_args = ["--test", "spec"]
profile = "mutants"
minimum_test_timeout = 60
examine_re = [
{res}
]
"""


def now():
    out = subprocess.run(
        ["cargo", "mutants", "--list", "--json", "-p", "robots-oracle"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [m["name"] for m in json.loads(out)]


def earlier_names(a):
    """The earlier names, and the commit they were named at."""
    here = os.path.dirname(os.path.abspath(__file__))
    if a.names:
        with open(a.names, encoding="utf-8") as f:
            names = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
        return names, a.commit
    with open(os.path.join(here, "triage.toml"), "rb") as f:
        entries = tomllib.load(f)["survivor"]
    names = [e["mutant"] for e in entries
             if e["verdict"] == a.triage and e["sample"] == a.sample]
    with open(os.path.join(here, a.sample, "sample.txt"), encoding="utf-8") as f:
        commit = re.search(r"src at ([0-9a-f]{40})", f.readline())[1]
    return names, commit


HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def line_maps(commit):
    """Per file, the hunks of `git diff commit` (old start, old count, new
    start, new count), to carry an old line number to the tree as it is."""
    out = subprocess.run(["git", "diff", "-U0", commit, "--", "src"], check=True,
                         capture_output=True, text=True).stdout
    maps, file = collections.defaultdict(list), None
    for line in out.splitlines():
        if line.startswith("+++ "):
            file = line[6:] if line.startswith("+++ b/") else None
        elif (h := HUNK.match(line)) and file:
            os_, oc, ns, nc = (int(h[1]), int(h[2] or 1), int(h[3]), int(h[4] or 1))
            maps[file].append((os_, oc, ns, nc))
    return maps


def carried(hunks, line):
    """The line `line` of the old file is now, or None if a hunk changed it."""
    shift = 0
    for os_, oc, ns, nc in hunks:
        if oc and os_ <= line < os_ + oc:
            return None
        if (os_ + oc if oc else os_ + 1) <= line:
            shift = (ns + nc) - (os_ + oc)
    return line + shift


def nearest(old, index, maps):
    m = NAME.match(old)
    if not m:
        return None
    line, col = int(m["line"]), int(m["col"])
    cands = index.get((m["file"], m["what"]), [])
    if not cands:
        return None
    moved = carried(maps.get(m["file"], []), line)
    exact = [c for c in cands if moved is not None and c[0] == moved and c[1] == col]
    if exact:
        return exact[0][2]
    return min(cands, key=lambda c: (abs(c[0] - (moved or line)), c[1] != col))[2]


def index_of(names):
    """The mutants `names` by file and change, with line and column."""
    index = collections.defaultdict(list)
    for n in names:
        m = NAME.match(n)
        if m:
            index[(m["file"], m["what"])].append((int(m["line"]), int(m["col"]), n))
    return index


def cmd_map(a):
    index = index_of(now())
    old, commit = earlier_names(a)
    maps = line_maps(commit)
    pairs = [(o, nearest(o, index, maps)) for o in old]
    taken = collections.Counter(n for _, n in pairs if n)
    clash = [n for n, k in taken.items() if k > 1]
    if clash:
        sys.exit(f"recheck.py: several earlier names map to one mutant now: {clash}")
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "map.tsv"),
          "".join(f"{o}\t{n or ''}\n" for o, n in pairs))
    names = sorted(n for _, n in pairs if n)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    head = f"# recheck of {len(old)} earlier mutants ({len(names)} found), src at {commit}\n"
    write(os.path.join(a.out, "mutants.toml"),
          config(head, "mutation/recheck.py", f"{a.out} 0/1", names))
    gone = [o for o, n in pairs if not n]
    print(f"{len(names)} of {len(old)} mapped; {len(gone)} gone")
    for o in gone:
        print("  gone:", o)


FAILED = re.compile(r"^---- (\S+) ----$")


def caught_by(log):
    """The first check the judge failed in a cargo-mutants log, with the
    first line it said (what a triage entry's `caught_by` cites), or ''
    when the log is absent or names none."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return ""
    for i, line in enumerate(lines):
        if m := FAILED.match(line):
            said = next((x.strip() for x in lines[i + 1:i + 6] if x.strip()), "")
            return f"{m[1]}: {said[:160]}"
    return ""


def cmd_report(a):
    outcomes = {}
    for shard in sorted(os.listdir(a.dir)):
        out = os.path.join(a.dir, shard, "mutants.out")
        path = os.path.join(out, "outcomes.json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            for o in json.load(f)["outcomes"]:
                mutant = o.get("scenario", {})
                if isinstance(mutant, dict) and "Mutant" in mutant:
                    word = WORDS.get(o["summary"], o["summary"])
                    why = ""
                    if word == "caught" and o.get("log_path"):
                        why = caught_by(os.path.join(out, o["log_path"]))
                    outcomes[mutant["Mutant"]["name"]] = (word, why)
    counts = collections.Counter()
    with open(os.path.join(a.dir, "map.tsv"), encoding="utf-8") as f:
        for line in f:
            old, new = line.rstrip("\n").split("\t")
            word, why = outcomes.get(new, ("not run", "")) if new else ("gone", "")
            counts[word] += 1
            print("\t".join([word, old, new] + ([why] if why else [])))
    print("#", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("map")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--names", help="a file of earlier names, one per line")
    src.add_argument("--triage", help="the triage entries with this verdict")
    m.add_argument("--sample", help="with --triage: the sample (its sample.txt names the commit)")
    m.add_argument("--commit", help="with --names: the commit the names were taken at")
    m.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("dir")
    a = ap.parse_args()
    cmd_map(a) if a.cmd == "map" else cmd_report(a)


if __name__ == "__main__":
    main()
