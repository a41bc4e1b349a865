#!/usr/bin/env python3
"""The google profile checked against Google's own parser.

Runs `robots-conformance matrix --adapters python-jwm-robotstxt --profile google` (Google's
C++ library through pybind11) over every case, then compares each check's outcome with the
committed list of deliberate divergences, spec-cases/google-divergences.toml. Fails (exit 1)
on any disagreement (fail, error, crash, timeout, protocol error) that is not in the list, and
on any listed check that no longer disagrees or no longer exists, so that the list stays
short and true. Checks the adapter cannot be asked (not-applicable) and implementation-defined
ones (unscored) are not disagreements.

Usage: .ci/google-crosscheck.py BINARY [OUT_DIR]

Never edits the list; it only reports. Needs `BINARY adapters setup python-jwm-robotstxt`
first.
"""
import json
import pathlib
import subprocess
import sys
import tomllib

ADAPTER = "python-jwm-robotstxt"
AGREE = {"pass", "not-applicable", "unscored"}
ROOT = pathlib.Path(__file__).resolve().parent.parent


def divergences():
    path = ROOT / "spec-cases" / "google-divergences.toml"
    listed = {}
    for entry in tomllib.loads(path.read_text())["divergence"]:
        check, reason = entry["check"], entry.get("reason", "").strip()
        if not reason:
            sys.exit(f"{path}: {check}: a divergence needs a reason")
        if check in listed:
            sys.exit(f"{path}: {check}: listed twice")
        listed[check] = (entry.get("outcome", "fail"), reason)
    return listed


def run_matrix(binary, out):
    # 5 s per request, not the default 1 s: CI shares two cores, and a slow answer that is
    # right must not read as a disagreement.
    cmd = [binary, "matrix", "--adapters", ADAPTER, "--profile", "google", "--timeout", "5",
           "--out", str(out)]
    print("$", " ".join(cmd), flush=True)
    # The matrix exits non-zero when checks fail; the list decides here.
    done = subprocess.run(cmd, cwd=ROOT)
    report = out / "report.json"
    if not report.is_file():
        sys.exit(f"the matrix wrote no {report} (exit {done.returncode})")
    return json.loads(report.read_text())


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = str(pathlib.Path(sys.argv[1]).resolve())
    out = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else ROOT / "target" / "google-crosscheck")
    listed = divergences()
    report = run_matrix(binary, out)
    seen, disagree = set(), {}
    for check in report["checks"]:
        result = check["results"].get(ADAPTER)
        if result is None:
            continue
        seen.add(check["name"])
        outcome = result["outcome"]["google"]
        if outcome not in AGREE:
            disagree[check["name"]] = (outcome, check["expect"]["google"], result["answer"])
    if not seen:
        sys.exit(f"{ADAPTER} answered no check: is it set up? "
                 f"({binary} adapters setup {ADAPTER})")
    problems = []
    for name, (outcome, expect, answer) in sorted(disagree.items()):
        if name not in listed:
            problems.append(f"NEW  {name}: {outcome} (google expects {expect}, Google's parser: {answer[:80]})")
        elif listed[name][0] != outcome:
            problems.append(f"CHANGED  {name}: listed as {listed[name][0]}, now {outcome}")
    for name in sorted(listed):
        if name not in seen:
            problems.append(f"STALE  {name}: listed, but no such check ran")
        elif name not in disagree and listed[name][0] == "timeout":
            # Speed depends on the machine: a listed timeout that finished in time is noted only.
            print(f"note  {name}: listed as a timeout, answered in time on this machine")
        elif name not in disagree:
            problems.append(f"STALE  {name}: listed, but Google's parser now agrees: remove it")
    agreed = len(seen) - len(disagree)
    unlisted = sum(1 for n in disagree if n not in listed)
    print(f"google cross-check: {len(seen)} checks, {agreed} agree or are not applicable, "
          f"{len(disagree)} disagree, {unlisted} of them not in spec-cases/google-divergences.toml")
    for p in problems:
        print(p)
    # One line per check: agreeing or deliberately listed is a pass; each problem a failure.
    print(f"{len(seen) - min(len(seen), len(problems))} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
