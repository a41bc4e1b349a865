#!/usr/bin/env python3
"""Counts a mutation sample's outcomes and checks its triage.

    python3 mutation/summary.py mutation/s1 [mutation/s2 ...]

For each sample folder: the mutants drawn (sample.txt), the outcomes of
every shard run so far (shard-*/mutants.out/outcomes.json), and the
triage of the survivors (mutation/triage.toml). Prints a Markdown table;
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


def outcomes(sample_dir):
    found = {}
    for path in sorted(glob.glob(os.path.join(sample_dir, "shard-*/mutants.out/outcomes.json"))):
        with open(path, encoding="utf-8") as f:
            for o in json.load(f)["outcomes"]:
                m = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
                if m:
                    found[m["name"]] = KINDS.get(o["summary"], o["summary"])
    return found


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "triage.toml"), "rb") as f:
        triage = tomllib.load(f).get("survivor", [])
    bad = 0
    print("| sample | drawn | run | caught | missed | timeout | unviable | "
          "equivalent | unreachable | now caught (case, judge) | detected / viable | "
          "detected / (viable - equivalent) | with the new cases | outside the sample |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in sys.argv[1:]:
        name = os.path.basename(os.path.normpath(d))
        with open(os.path.join(d, "sample.txt"), encoding="utf-8") as f:
            drawn = [l.rstrip("\n") for l in f if not l.startswith("#")]
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
