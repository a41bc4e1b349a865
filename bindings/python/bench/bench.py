#!/usr/bin/env python3
"""Speed and agreement of the Python package robots_oracle against Protego (Scrapy's default
parser) and urllib.robotparser, on the real corpus, in one run.

    python3 -m venv /tmp/bench-venv
    /tmp/bench-venv/bin/pip install --no-deps -r bindings/python/bench/requirements.txt
    /tmp/bench-venv/bin/pip install --no-deps ./bindings/python
    /tmp/bench-venv/bin/python bindings/python/bench/bench.py [real-robots.tar.gz]

The corpus (default: ../shared/corpus/real-robots.tar.gz from the project root) is unpacked
into bindings/python/bench/corpus/ (git-ignored) on the first run.

Workload, as `robots-conformance bench`'s real-corpus workload: for every file, parse it and
check one URL (/search?q=robots.txt&page=2 for FooBot). Each parser gets the file the way its
users hand it over: the oracle takes the bytes; Protego and urllib.robotparser take a str
(UTF-8, errors="replace", as the python-protego and python-urllib adapters decode), and that
decoding is timed with them. Best of --repeat passes over the whole corpus; ratios are taken
within the same run. Timings are printed, never asserted.

Agreement: every file is also asked a fixed set of probe URLs; a peer's verdict agrees when it
equals the oracle's under RFC 9309 (the profile both peers claim). A peer that raises counts
as disagreeing.
"""

import argparse
import os
import platform
import sys
import tarfile
import time
import urllib.robotparser
from importlib.metadata import version

import robots_oracle
from protego import Protego

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
AGENT = "FooBot"
BASE = "https://example.com"
TIMED_PATH = "/search?q=robots.txt&page=2"
PROBES = [
    TIMED_PATH, "/", "/admin/", "/wp-admin/admin-ajax.php", "/search", "/cgi-bin/x.cgi",
    "/private/x.html", "/api/v1/items?x=1", "/index.php?page=1", "/images/a.jpg",
]


def corpus_files(tarball):
    """The corpus's bodies (bytes), unpacked once into bench/corpus/."""
    target = os.path.join(HERE, "corpus")
    done = os.path.join(target, ".unpacked")
    if not os.path.exists(done):
        if not os.path.exists(tarball):
            sys.exit("no corpus at %s: pass the path of real-robots.tar.gz" % tarball)
        tmp = target + ".tmp"
        with tarfile.open(tarball) as t:
            t.extractall(tmp, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(tmp)
        if os.path.exists(target):
            os.rename(target, target + ".old.%d" % os.getpid())
        os.rename(tmp, target)
        open(done, "w").close()
    bodies = []
    for base, _, names in os.walk(target):
        for name in sorted(names):
            if name != ".unpacked":
                with open(os.path.join(base, name), "rb") as f:
                    bodies.append(f.read())
    return bodies


def oracle_check(body, path):
    return robots_oracle.RobotsTxt(body).allowed(AGENT, path)


def protego_check(body, path):
    return Protego.parse(body.decode("utf-8", "replace")).can_fetch(BASE + path, AGENT)


def urllib_check(body, path):
    p = urllib.robotparser.RobotFileParser()
    p.parse(body.decode("utf-8", "replace").splitlines())
    return p.can_fetch(AGENT, BASE + path)


SUBJECTS = [
    ("robots_oracle " + version("robots-oracle"), oracle_check),
    ("protego " + version("protego"), protego_check),
    ("urllib.robotparser (CPython %s)" % platform.python_version(), urllib_check),
]


def timed(check, bodies, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for body in bodies:
            check(body, TIMED_PATH)
        best = min(best, time.perf_counter() - start)
    return best


def agreement(bodies):
    """Per peer: (agreeing verdicts, verdicts asked, exceptions)."""
    out = {name: [0, 0, 0] for name, _ in SUBJECTS[1:]}
    for body in bodies:
        oracle = robots_oracle.RobotsTxt(body)
        want = [oracle.allowed(AGENT, p) for p in PROBES]
        text = body.decode("utf-8", "replace")
        protego = Protego.parse(text)
        rp = urllib.robotparser.RobotFileParser()
        rp.parse(text.splitlines())
        peers = {
            SUBJECTS[1][0]: lambda p: protego.can_fetch(BASE + p, AGENT),
            SUBJECTS[2][0]: lambda p: rp.can_fetch(AGENT, BASE + p),
        }
        for name, ask in peers.items():
            for path, w in zip(PROBES, want):
                out[name][1] += 1
                try:
                    got = ask(path)
                except Exception:
                    out[name][2] += 1
                    continue
                out[name][0] += got is w
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="?",
                    default=os.path.join(ROOT, "..", "shared", "corpus", "real-robots.tar.gz"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    bodies = corpus_files(args.corpus)
    size = sum(map(len, bodies))
    print("corpus: %d files, %.1f MiB; workload: parse + check %s for %s; best of %d"
          % (len(bodies), size / 2**20, TIMED_PATH, AGENT, args.repeat))
    print("load average at start: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    times = [(name, timed(check, bodies, args.repeat)) for name, check in SUBJECTS]
    oracle_time = times[0][1]
    print()
    print("| parser | seconds per pass | files per second | time vs robots_oracle |")
    print("|---|---|---|---|")
    for name, t in times:
        print("| %s | %.3f | %.0f | %.1fx |" % (name, t, len(bodies) / t, t / oracle_time))
    print()
    print("agreement with the oracle (rfc9309) on %d probe URLs per file:" % len(PROBES))
    for name, (agree, asked, errors) in agreement(bodies).items():
        print("  %s: %d of %d verdicts (%.2f %%), %d exceptions"
              % (name, agree, asked, 100.0 * agree / asked, errors))
    print("load average at end: %s" % " ".join("%.2f" % x for x in os.getloadavg()))


if __name__ == "__main__":
    main()
