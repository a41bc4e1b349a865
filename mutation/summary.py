#!/usr/bin/env python3
"""Counts a mutation sample's outcomes and checks its triage.

    python3 mutation/summary.py [--write] mutation/s1 [mutation/s2 ...]

For each sample folder: the mutants drawn (sample.txt), the outcomes of
every shard run so far (shard-*/mutants.out/outcomes.json, and those of
a later run of some of its mutants in a subfolder with recheck.py's
map.tsv, e.g. confirm/rest/shard-0/…, counted under the names they were
drawn with), and the triage of the survivors (mutation/triage.toml).
A later outcome of a mutant replaces an earlier one (a rerun of the
timeouts of a loaded run, say). With --write, each sample's merged
outcomes go to SAMPLE/outcomes.json: cargo-mutants' outcome records as
it wrote them (a rerun's under its later name; `drawn_as` maps those
back), with the counts over the sample. Prints a Markdown table;
exits 1 when a missed mutant of the sample has no triage entry, or an
entry names no survivor. Outcomes of mutants outside the sample (cargo-mutants
27.1.0 runs every struct-field deletion in the examined files whatever the
name filter says) are counted apart and never enter the score.
"""

import glob
import json
import os
import sys
import tomllib

KINDS = {"CaughtMutant": "caught", "MissedMutant": "missed",
         "Timeout": "timeout", "Unviable": "unviable"}


def records(sample_dir):
    """Every mutant's last outcome record, by the name it was drawn with,
    and the later names of those run under another (recheck.py's map)."""
    runs = [(p, None) for p in sorted(glob.glob(
        os.path.join(sample_dir, "shard-*/mutants.out/outcomes.json")))]
    for m in sorted(glob.glob(os.path.join(sample_dir, "*/map.tsv"))):
        with open(m, encoding="utf-8") as f:
            later = {n: o for o, n in (l.rstrip("\n").split("\t") for l in f) if n}
        runs += [(p, later) for p in sorted(glob.glob(
            os.path.join(os.path.dirname(m), "shard-*/mutants.out/outcomes.json")))]
    found, drawn_as = {}, {}
    for path, later in runs:
        with open(path, encoding="utf-8") as f:
            for o in json.load(f)["outcomes"]:
                m = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
                if m:
                    name = (later or {}).get(m["name"], m["name"])
                    if name != m["name"]:
                        drawn_as[m["name"]] = name
                    found[name] = o
    return found, drawn_as


def outcomes(sample_dir):
    found, _ = records(sample_dir)
    return {n: KINDS.get(o["summary"], o["summary"]) for n, o in found.items()}


def write_merged(sample_dir, drawn):
    """SAMPLE/outcomes.json: the sample's outcome records (temp + rename)."""
    found, drawn_as = records(sample_dir)
    mine = [found[n] for n in drawn if n in found]
    counts = {k: sum(1 for o in mine if KINDS.get(o["summary"]) == k)
              for k in KINDS.values()}
    merged = {"outcomes": mine, "total_mutants": len(mine), **counts,
              "cargo_mutants_version": "27.1.0",
              "drawn_as": {k: v for k, v in drawn_as.items() if v in set(drawn)}}
    path = os.path.join(sample_dir, "outcomes.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "triage.toml"), "rb") as f:
        triage = tomllib.load(f).get("survivor", [])
    bad = 0
    print("| sample | drawn | run | caught | missed | timeout | unviable | "
          "equivalent | unreachable | now caught (case, judge) | detected / viable | "
          "detected / (viable - equivalent) | with the new cases | outside the sample |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    args = sys.argv[1:]
    write = "--write" in args
    for d in [a for a in args if a != "--write"]:
        name = os.path.basename(os.path.normpath(d))
        with open(os.path.join(d, "sample.txt"), encoding="utf-8") as f:
            drawn = [l.rstrip("\n") for l in f if not l.startswith("#")]
        if write:
            write_merged(d, drawn)
        seen = outcomes(d)
        inside = {n: seen[n] for n in drawn if n in seen}
        outside = {n: k for n, k in seen.items() if n not in set(drawn)}
        count = {k: sum(1 for v in inside.values() if v == k) for k in KINDS.values()}
        mine = {t["mutant"]: t for t in triage if t["sample"] == name}
        for n, k in inside.items():
            if k == "missed" and n not in mine:
                print(f"{name}: missed mutant without triage: {n}", file=sys.stderr)
                bad += 1
        for n in mine:
            if seen.get(n) != "missed":
                print(f"{name}: triage entry for a mutant that is not a survivor here: {n}", file=sys.stderr)
                bad += 1
        verdicts = {}
        for n, t in mine.items():
            if inside.get(n) == "missed":
                verdicts[t["verdict"]] = verdicts.get(t["verdict"], 0) + 1
        equivalent = verdicts.get("equivalent", 0)
        unreachable = verdicts.get("unreachable", 0)
        fixed = verdicts.get("case", 0) + verdicts.get("judge", 0)
        viable = count["caught"] + count["missed"] + count["timeout"]
        detected = count["caught"] + count["timeout"]
        pct = lambda a, b: f"{100 * a / b:.1f} %" if b else "-"
        out = ", ".join(f"{sum(1 for v in outside.values() if v == k)} {k}"
                        for k in KINDS.values() if any(v == k for v in outside.values()))
        print(f"| {name} | {len(drawn)} | {len(inside)} | {count['caught']} | {count['missed']} | "
              f"{count['timeout']} | {count['unviable']} | {equivalent} | {unreachable} | {fixed} | "
              f"{pct(detected, viable)} | {pct(detected, viable - equivalent)} | "
              f"{pct(detected + fixed, viable - equivalent)} | {out or '-'} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
