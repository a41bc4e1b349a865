"""The robots.txt audit on Apache Spark.

Spreads WARC paths over executors; each partition runs the same binary
(`robots-conformance audit - --out - --no-progress`, paths on stdin, rows as
JSON lines on stdout); Spark sums the rows into `audit.json` (the same
document, same arithmetic, as `robots-conformance audit --out DIR`: see
audit/src/aggregate.rs, which this file must stay in step with) and writes
the per-host rows as Parquet.

    spark-submit [--master ...] [--files robots-conformance] audit_job.py \
        --out OUT [--binary PATH] [--partitions N] [audit options] INPUT...

INPUT is a WARC / WARC.gz file or a folder of them (read by the executors:
the paths must be visible to every executor). Never decides a verdict
itself: the binary does.
"""

import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from operator import add

PROFILES = ["rfc9309", "google", "aipref"]
FORMAT = "robots-audit/2"
AI_KINDS = ["content-usage", "content-signal", "content-signals"]
USAGE_CATEGORIES = ["train-ai", "search"]
USAGE_VALUES = ["y", "n", "unknown"]
SIGNAL_CATEGORIES = ["search", "ai-input", "ai-train"]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--out", required=True, help="output folder (local or any Hadoop path for Parquet)")
    p.add_argument("--binary", help="robots-conformance binary [default: the one shipped with --files]")
    p.add_argument("--partitions", type=int, default=0, help="[default: one per input, at most 4 x default parallelism]")
    p.add_argument("--agents")
    p.add_argument("--adapters")
    p.add_argument("--max-body")
    p.add_argument("--probes")
    p.add_argument("--classify-max")
    return p.parse_args(argv)


def audit_options(a):
    opts = []
    for name in ["agents", "adapters", "max_body", "probes", "classify_max"]:
        value = getattr(a, name)
        if value is not None:
            opts += ["--" + name.replace("_", "-"), str(value)]
    return opts


def expand(inputs):
    """Folders become the files inside them (sorted); files stay."""
    out = []
    for i in inputs:
        if os.path.isdir(i):
            for root, _, files in os.walk(i):
                out += [os.path.join(root, f) for f in files]
        else:
            out.append(i)
    return sorted(set(out))


def binary_path(given):
    if given:
        return given
    from pyspark import SparkFiles

    path = SparkFiles.get("robots-conformance")
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def setup_of(binary, opts):
    """Agents, parsers and bases as the binary resolves the options: an
    audit of no input, read back from its audit.json."""
    d = tempfile.mkdtemp(prefix="robots-audit-setup-")
    try:
        # Its summary line ("0 inputs, 0 records -> ...") is not the job's:
        # stderr is shown only when it fails.
        proc = subprocess.run([binary, "audit", "-", "--out", d, "--no-progress"] + opts,
                              input=b"", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            sys.exit("robots-conformance audit (setup) failed: " + proc.stderr.decode(errors="replace"))
        with open(os.path.join(d, "audit.json")) as f:
            return json.load(f)["setup"]
    finally:
        shutil.rmtree(d, ignore_errors=True)


def run_partition(binary, opts):
    def run(paths):
        paths = list(paths)
        if not paths:
            return
        exe = binary_path(binary)
        proc = subprocess.run([exe, "audit", "-", "--out", "-", "--no-progress"] + opts,
                              input="\n".join(paths).encode(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, check=False)
        if proc.returncode != 0:
            raise RuntimeError("robots-conformance audit failed: " + proc.stderr.decode(errors="replace"))
        for line in proc.stdout.decode().splitlines():
            if line.strip():
                yield line
    return run


def signal(signals, key):
    """`key=value` of a signals string (`search=yes, ai-train=no`)."""
    for pair in signals.split(", "):
        k, eq, v = pair.partition("=")
        if eq and k == key:
            return v
    return None


def ai_contributions(r, agents):
    """The AI counts one audited host adds (aggregate.rs, ai_host)."""
    out = []
    ai = r["ai"]
    kinds = [ai["content_usage"], ai["content_signal"], ai["content_signals"]]
    for kind, n in zip(AI_KINDS, kinds):
        if n > 0:
            out += [(("ai", "", "hosts:" + kind), 1), (("ai", "", "lines:" + kind), n)]
    if any(n > 0 for n in kinds):
        out.append((("ai", "", "hosts:any"), 1))
    rfc = r["verdicts"].get("rfc9309", {})
    aip = r["verdicts"].get("aipref", {})
    changed = False
    for agent in agents:
        if agent not in aip or agent not in rfc:
            continue
        a, v = aip[agent], rfc[agent]
        if any(x != y and x != "?" and y != "?" for x, y in zip(a, v)):
            changed = True
            out.append((("ai", agent, "verdicts_change"), 1))
        if a and all(c == "d" for c in a) and ai["train_y"]:
            out.append((("ai", agent, "train_yes_but_blocked"), 1))
        root = r["usage"].get(agent, "")[:2]
        if len(root) == 2 and all(c in "ynu" for c in root):
            out.append((("ai", agent, "crawlable_root"), 1))
            for cat, letter in zip(USAGE_CATEGORIES, root):
                value = {"y": "y", "n": "n"}.get(letter, "unknown")
                out.append((("ai", agent, f"usage:{cat}:{value}"), 1))
        signals = r["signals"].get(agent, "")
        for cat in SIGNAL_CATEGORIES:
            v = signal(signals, cat)
            if v in ("yes", "no"):
                out.append((("ai", agent, f"signal:{cat}:{v}"), 1))
        refused = root[:1] == "n" or signal(signals, "ai-train") == "no"
        if a.startswith("a") and refused:
            out.append((("ai", agent, "train_no_but_crawlable"), 1))
    if changed:
        out.append((("ai", "", "verdicts_change"), 1))
    return out


def contributions_for(audited_agents):
    return lambda line: contributions(line, audited_agents)


def contributions(line, audited_agents):
    """The (key, count) pairs one row adds (Aggregator::add)."""
    r = json.loads(line)
    kind = r["kind"]
    out = []
    if kind == "input":
        out += [(("c", "inputs"), 1), (("format", r["format"]), 1), (("c", "records"), r["records"]),
                (("c", "hosts"), r["hosts"]), (("c", "routes"), r["routes"]), (("c", "bad_records"), r["bad"])]
        for k, n in r["skipped"].items():
            out += [(("c", "skipped"), n), (("skipped", k), n)]
        for k, n in r.get("truncated", {}).items():
            out += [(("c", "truncated"), n), (("truncated", k), n)]
        if r["stopped"] is not None:
            out.append((("c", "inputs_stopped"), 1))
    elif kind == "error":
        out += [(("c", "errors"), 1), (("error", r["error"]), 1)]
    elif kind == "host":
        if r["unresolved"] is not None:
            return [(("c", "hosts_unresolved"), 1)]
        out.append((("c", "hosts_audited"), 1))
        if r["cut"]:
            out.append((("c", "cut"), 1))
        if r["redirects"] > 0:
            out.append((("c", "redirected"), 1))
        for p, f in r["fetch"].items():
            out.append((("policy", p, f["policy"]), 1))
        for p, named in r["named"].items():
            out += [(("named", p, a), 1) for a in named]
        for p, per_agent in r["verdicts"].items():
            for a, letters in per_agent.items():
                d = letters.count("d")
                if d > 0 and d == len(letters):
                    out.append((("fully", p, a), 1))
                elif d > 0:
                    out.append((("partly", p, a), 1))
        for p, dep in r["departures"].items():
            if dep["departing"] > 0:
                out.append((("hosts_departing", p), 1))
            out += [(("verdicts", p), dep["compared"]), (("verdicts_departing", p), dep["departing"]),
                    (("unanswered", p), dep["unanswered"])]
            out += [(("axis", p, axis), n) for axis, n in dep["axes"].items()]
        out += ai_contributions(r, audited_agents)
    return out


def share(n, d):
    return n / d if d else 0.0


def ai_document(setup, sums, d):
    """The AI section (aggregate.rs, ai_aggregate)."""
    g = lambda agent, key: sums.get(("ai", agent, key), 0)  # noqa: E731
    of = lambda n, den: {"hosts": n, "share": share(n, den)}  # noqa: E731
    hosts_with = {k: of(g("", "hosts:" + k), d) for k in AI_KINDS + ["any"]}
    lines = {k: g("", "lines:" + k) for k in AI_KINDS}
    agents = {}
    for agent in setup["agents"]:
        root = g(agent, "crawlable_root")
        agents[agent] = {
            "crawlable_root": root,
            "usage": {c: {v: of(g(agent, f"usage:{c}:{v}"), root) for v in USAGE_VALUES}
                      for c in USAGE_CATEGORIES},
            "signals": {c: {v: of(g(agent, f"signal:{c}:{v}"), d) for v in ["yes", "no"]}
                        for c in SIGNAL_CATEGORIES},
            "train_yes_but_blocked": of(g(agent, "train_yes_but_blocked"), d),
            "train_no_but_crawlable": of(g(agent, "train_no_but_crawlable"), d),
            "verdicts_change": of(g(agent, "verdicts_change"), d),
        }
    return {"hosts_with": hosts_with, "lines": lines, "verdicts_change": of(g("", "verdicts_change"), d),
            "agents": agents}


def document(setup, sums):
    """audit.json from the summed contributions (Aggregator::finish)."""
    g = lambda *k: sums.get(tuple(k), 0)  # noqa: E731
    sub = lambda tag: {k[1]: v for k, v in sorted(sums.items()) if k[0] == tag}  # noqa: E731
    counts = {name: g("c", name) for name in [
        "inputs", "inputs_stopped", "records", "hosts", "hosts_audited", "hosts_unresolved",
        "routes", "skipped", "bad_records", "errors", "cut", "redirected", "truncated"]}
    counts["formats"] = sub("format")
    counts["skipped_by_kind"] = sub("skipped")
    counts["errors_by_kind"] = sub("error")
    counts["truncated_by_reason"] = sub("truncated")
    policy = {p: {} for p in PROFILES}
    for k, v in sorted(sums.items()):
        if k[0] == "policy":
            policy.setdefault(k[1], {})[k[2]] = v
    counts["policy"] = policy
    d = counts["hosts_audited"]
    agents, largest = {}, None
    for agent in setup["agents"]:
        blocked, spread = {}, None
        for p in setup["parsers"]:
            f, q = g("fully", p, agent), g("partly", p, agent)
            sf = share(f, d)
            blocked[p] = {"fully": {"hosts": f, "share": sf}, "partly": {"hosts": q, "share": share(q, d)}}
            if spread is None:
                spread = [p, sf, p, sf]
            else:
                if sf < spread[1]:
                    spread[0], spread[1] = p, sf
                if sf > spread[3]:
                    spread[2], spread[3] = p, sf
        named = {p: {"hosts": g("named", p, agent), "share": share(g("named", p, agent), d)} for p in PROFILES}
        s = {"lowest": spread[0], "highest": spread[2], "points": spread[3] - spread[1]}
        agents[agent] = {"blocked": blocked, "named": named, "spread": s}
        if largest is None or s["points"] > largest["spread"]["points"]:
            largest = {"agent": agent, "spread": s}
    parsers = {}
    for name, base in setup["bases"].items():
        v, vd = g("verdicts", name), g("verdicts_departing", name)
        hd = g("hosts_departing", name)
        parsers[name] = {
            "base": base,
            "hosts_departing": {"hosts": hd, "share": share(hd, d)},
            "verdicts": v,
            "verdicts_departing": vd,
            "verdicts_departing_share": share(vd, v),
            "unanswered": g("unanswered", name),
            "axes": {k[2]: n for k, n in sorted(sums.items()) if k[0] == "axis" and k[1] == name},
        }
    return {"format": FORMAT, "setup": setup, "counts": counts, "agents": agents,
            "parsers": parsers, "largest_spread": largest, "ai": ai_document(setup, sums, d)}


def host_schema():
    from pyspark.sql.types import (ArrayType, BooleanType, IntegerType, LongType, MapType, StringType,
                                   StructField, StructType)
    s = StringType()
    departure = StructType([StructField("compared", LongType()), StructField("departing", LongType()),
                            StructField("unanswered", LongType()), StructField("axes", MapType(s, LongType()))])
    ai = StructType([StructField("content_usage", LongType()), StructField("content_signal", LongType()),
                     StructField("content_signals", LongType()), StructField("train_y", BooleanType()),
                     StructField("train_n", BooleanType())])
    return StructType([
        StructField("input", s), StructField("n", LongType()), StructField("url", s),
        StructField("answer", s), StructField("status", IntegerType()), StructField("redirects", LongType()),
        StructField("size", LongType()), StructField("cut", BooleanType()), StructField("unresolved", s),
        StructField("fetch", MapType(s, MapType(s, s))), StructField("probes", ArrayType(s)),
        StructField("named", MapType(s, ArrayType(s))),
        StructField("verdicts", MapType(s, MapType(s, s))), StructField("departures", MapType(s, departure)),
        StructField("ai", ai), StructField("usage", MapType(s, s)), StructField("signals", MapType(s, s)),
    ])


def host_record(line):
    r = json.loads(line)
    if r["kind"] != "host":
        return []
    return [(r["input"], r["n"], r["url"], r["answer"], r["status"], r["redirects"], r["size"], r["cut"],
             r["unresolved"], r["fetch"], r["probes"], r["named"], r["verdicts"], r["departures"],
             r["ai"], r["usage"], r["signals"])]


def main(argv):
    from pyspark.sql import SparkSession

    a = parse_args(argv)
    spark = SparkSession.builder.appName("robots-audit").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    opts = audit_options(a)
    paths = expand(a.inputs)
    if not paths:
        sys.exit("no input files")
    driver_binary = a.binary or binary_path(None)
    setup = setup_of(driver_binary, opts)
    parts = a.partitions or min(len(paths), 4 * sc.defaultParallelism)
    rows = sc.parallelize(paths, parts).mapPartitions(run_partition(a.binary, opts)).cache()
    sums = dict(rows.flatMap(contributions_for(setup["agents"])).reduceByKey(add).collect())
    doc = document(setup, sums)
    os.makedirs(a.out, exist_ok=True)
    spark.createDataFrame(rows.flatMap(host_record), host_schema()) \
        .write.mode("overwrite").parquet(os.path.join(a.out, "hosts.parquet"))
    tmp = os.path.join(a.out, "audit.json.tmp")
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(tmp, os.path.join(a.out, "audit.json"))
    spark.stop()
    c = doc["counts"]
    # The result, last (Spark's own messages are on stderr, before it).
    print(f"{c['inputs']} inputs, {c['records']} records, {c['hosts']} hosts, {c['errors']} errors -> {a.out}",
          flush=True)
    if c["records"] == 0:
        # As `robots-conformance audit`: inputs that hold no record at all
        # audited nothing.
        sys.exit("no record in any input; nothing was audited")


if __name__ == "__main__":
    main(sys.argv[1:])
