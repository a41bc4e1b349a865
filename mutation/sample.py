#!/usr/bin/env python3
"""Draws a seeded random sample of the oracle's mutants and writes the
cargo-mutants configuration that runs exactly that sample.

    python3 mutation/sample.py --seed 1 --size 360 --out mutation/s1
    bash mutation/run.sh mutation/s1 0/2     # and 1/2, on this or another machine

The population is `cargo mutants --list --json -p robots-oracle` on the tree
as it is (the names carry line and column, so a sample belongs to its
commit, which is written beside it). `--exclude DIR` leaves out the mutants
an earlier sample already ran (the same name, or the same change carried to
the line it has moved to since: recheck.py), so a confirming sample is fresh
evidence. The judge is fixed here, never per run: the spec cases alone
(`robots-runner`'s `spec` test target), not the oracle's unit or property
tests. It writes only DIR/mutants.toml and DIR/sample.txt (temp + rename).
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recheck  # noqa: E402 (the sibling script: its mapping and config)
from recheck import write  # noqa: E402


def population():
    out = subprocess.run(
        ["cargo", "mutants", "--list", "--json", "-p", "robots-oracle"],
        check=True, capture_output=True, text=True,
    ).stdout
    return sorted(m["name"] for m in json.loads(out))


def earlier(dirs, pop):
    """The names of the earlier samples, each also carried to the tree as it
    is (recheck.py's mapping: the same change at the line `git diff` moves
    it to), so that a mutant whose line moved is not drawn again."""
    index = recheck.index_of(pop)
    names = set()
    for d in dirs:
        with open(os.path.join(d, "sample.txt"), encoding="utf-8") as f:
            head = f.readline()
            old = [line.rstrip("\n") for line in f if not line.startswith("#")]
        names.update(old)
        commit = re.search(r"src at ([0-9a-f]{40})", head)
        if commit:
            maps = recheck.line_maps(commit[1])
            names.update(n for n in (recheck.nearest(o, index, maps) for o in old) if n)
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--exclude", action="append", default=[],
                    help="an earlier sample's folder whose mutants are left out")
    a = ap.parse_args()
    pop = population()
    seen = earlier(a.exclude, pop)
    pool = [n for n in pop if n not in seen]
    if a.size > len(pool):
        sys.exit(f"sample.py: {a.size} asked, only {len(pool)} mutants in the pool")
    sample = sorted(random.Random(a.seed).sample(pool, a.size))
    commit = subprocess.run(["git", "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "src"], check=True,
                           capture_output=True, text=True).stdout.strip()
    os.makedirs(a.out, exist_ok=True)
    head = (f"# seed {a.seed}, {a.size} of {len(pool)} mutants "
            f"({len(pop)} in all, {len(seen)} excluded), src at {commit}"
            f"{' (src modified)' if dirty else ''}\n")
    write(os.path.join(a.out, "sample.txt"), head + "".join(n + "\n" for n in sample))
    write(os.path.join(a.out, "mutants.toml"),
          recheck.config(head, "mutation/sample.py", f"{a.out} K/N", sample))
    print(head.strip())


if __name__ == "__main__":
    main()
