#!/usr/bin/env python3
"""Keeps README.md honest: runs every command of its ```sh blocks, in order,
in a fresh clone of this repository that has no ../shared beside it.

    tests/readme/run.py [--subset ci|all] [--share-target] [--keep] [--list]

A command is one line of a ```sh block (a line ending in a backslash goes
on). A trailing comment may carry tags (see README.md, "The binary"):

    [yours]    needs the reader's own parser, adapter or files   never run
    [cluster]  needs a Spark cluster                             never run
    [system]   installs system packages (root or sudo)           never run
    [network]  downloads from the web                            never run
    [long]     takes many minutes                                run with --subset all

and `prints "TEXT"`: the command's output (stdout and stderr) must contain
TEXT. Every skipped command is printed with its reason. Every other command
runs in one bash session (an `export` carries on, as in a reader's shell),
from the clone's root, and must exit 0; the first that does not stops the
run, which then exits 1.

--subset ci (the default) is what .ci/run runs: every command not tagged,
which is the README's two first commands (the main job with the ready
adapters, and `cargo test`), the release build, `certify` of one Rust
parser, `validate`, one spec file's tests, `coverage`, two short `diff`
runs, `audit make-warc` and `audit` of the embedded sample, and a
`bench --seconds 0.1`. --subset all adds the [long] ones (every adapter's
set-up and the matrix of all of them, cargo-nextest and cargo-fuzz, the
Spark job in local mode, `bench --seconds 3`).

--share-target makes the clone's target/ a link to this checkout's, so the
registry dependencies are not compiled again (the workspace's own crates
are, under the clone's path); without it the clone builds everything.
--keep leaves the clone for a look afterwards. --list prints the plan and
runs nothing. Nothing here reads or writes outside the clone (and the
linked target/).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

NEVER = {
    "yours": "needs your own parser, adapter or files",
    "cluster": "needs a Spark cluster",
    "system": "installs system packages (root or sudo)",
    "network": "downloads from the web",
}
LONG = "long"
TAG = re.compile(r"\[(yours|cluster|system|network|long)\]")
PRINTS = re.compile(r'prints "([^"]+)"')


def commands(readme):
    """(line number, command, tags, expected texts) of every ```sh line."""
    out, block, pending, start = [], False, "", 0
    for n, line in enumerate(readme.splitlines(), 1):
        if line.startswith("```"):
            if block and pending:
                raise SystemExit(f"README.md:{start}: a ```sh block ends inside a continued line")
            block = line.strip() == "```sh"
            continue
        if not block:
            continue
        if not pending:
            start = n
        if line.endswith("\\"):
            pending += line + "\n"
            continue
        text = (pending + line).strip()
        pending = ""
        if not text or text.startswith("#"):
            continue
        comment = comment_of(text)
        out.append((start, text, set(TAG.findall(comment)), PRINTS.findall(comment)))
    return out


def comment_of(command):
    """The trailing comment of a shell command: from the first `#` that
    starts a word outside quotes."""
    quote = None
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1] in " \t"):
            return command[i:]
    return ""


def plan(cmds, subset):
    """Each command with None (run) or the reason it is skipped."""
    out = []
    for line, cmd, tags, prints in cmds:
        reason = next((NEVER[t] for t in sorted(tags) if t in NEVER), None)
        if reason is None and LONG in tags and subset != "all":
            reason = "takes many minutes (--subset all runs it)"
        out.append((line, cmd, prints, reason))
    return out


def script(steps, log_dir):
    """One bash script running the steps in order, each checked."""
    lines = ["set -uo pipefail", "fail() { echo; echo \"README test: FAILED at README.md:$1 (exit $2)\"; exit 1; }"]
    total = sum(1 for s in steps if s[3] is None)
    k = 0
    for line, cmd, prints, reason in steps:
        shown = cmd.replace("\n", " ")
        if reason is not None:
            lines.append(f"echo {shlex.quote(f'-- skipped README.md:{line}: {reason}: {shown}')}")
            continue
        k += 1
        lines.append(f"echo; echo {shlex.quote(f'== [{k}/{total}] README.md:{line}')}; echo {shlex.quote('$ ' + shown)}")
        if prints:
            out = os.path.join(log_dir, f"out-{line}.txt")
            lines.append(f"{{\n{cmd}\n}} > {shlex.quote(out)} 2>&1; rc=$?; cat {shlex.quote(out)}")
            lines.append(f"[ $rc -eq 0 ] || fail {line} $rc")
            for text in prints:
                lines.append(
                    f"grep -qF -- {shlex.quote(text)} {shlex.quote(out)} || "
                    f"{{ echo {shlex.quote(f'README test: README.md:{line} should print: {text}')}; exit 1; }}")
        else:
            lines.append(f"{cmd}\nrc=$?; [ $rc -eq 0 ] || fail {line} $rc")
    lines.append(f"echo; echo 'README test: {total} command(s) ran as the README says'")
    return "\n".join(lines) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--subset", choices=["ci", "all"], default="ci")
    p.add_argument("--share-target", action="store_true")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--list", action="store_true")
    a = p.parse_args(argv)
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                          check=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        steps = plan(commands(f.read()), a.subset)
    if a.list:
        for line, cmd, prints, reason in steps:
            print(f"README.md:{line}: {'run' if reason is None else 'skip (' + reason + ')'}: {cmd}")
        return 0
    work = tempfile.mkdtemp(prefix="readme-test-")
    clone = os.path.join(work, "robots-conformance")
    try:
        # A fresh clone of the committed tree; its parent holds nothing else,
        # so ../shared does not exist for any command.
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", root, clone], check=True)
        assert not os.path.exists(os.path.join(work, "shared"))
        if a.share_target:
            os.makedirs(os.path.join(root, "target"), exist_ok=True)
            os.symlink(os.path.join(root, "target"), os.path.join(clone, "target"))
        path = os.path.join(work, "readme.sh")
        with open(path, "w") as f:
            f.write(script(steps, work))
        print(f"README test: {clone} ({a.subset} subset)", flush=True)
        env = dict(os.environ)
        # The reader's shell: none of this repository's variables.
        for k in ("ROBOTS_CONFORMANCE", "ROBOTS_CONFORMANCE_CACHE", "ROBOTS_CORPUS", "CARGO_TARGET_DIR"):
            env.pop(k, None)
        return 0 if subprocess.run(["bash", path], cwd=clone, env=env).returncode == 0 else 1
    finally:
        if a.keep:
            print(f"README test: kept {clone}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
