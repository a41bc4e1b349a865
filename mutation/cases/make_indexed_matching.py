#!/usr/bin/env python3
"""Writes spec-cases/limits/indexed-matching.toml: cases whose files and URLs
are big enough to reach the oracle's fast machinery (the piece table for
targets of 64 octets and more, the index for groups of 8 rules and more and
its keys cut at 64 octets, the early settling of URLs of 256 octets and
more), where the other cases' small files never go. Mutation sample s1 found
these paths answered by no case (mutation/triage.toml).

Every expectation is computed here by RFC 9309's own rule, independently of
the oracle: a pattern matches when its octets, `*` standing for any run and
a final `$` for the end, match from the first octet of the path (R2.2.2-4,
R2.2.2-13, R2.2.3-1); the matching rule with the most octets decides
(R2.2.2-5, R2.2.2-6); no matching rule allows (R2.2.2-9). Checks are kept
only when the winner is ahead of every other matching rule by 3 octets or
more, so no answer depends on how `*` and `$` are counted or on ties
(R2.2.2-8). Paths hold only letters, digits and `-`: no percent-encoding
question arises. Seeded: the same file every run.

    python3 mutation/cases/make_indexed_matching.py > spec-cases/limits/indexed-matching.toml
"""

import random
import re

R = random.Random(20261202)
LETTERS = "bcdefghijklmnopqrstuvwxyz0123456789"


def token(n):
    return "".join(R.choice(LETTERS) for _ in range(n))


def matches(pattern, path):
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    rx = ".*".join(re.escape(p) for p in body.split("*"))
    return re.match(rx + (r"\Z" if anchored else ""), path, re.S) is not None


def decide(rules, path):
    """(verdict, line of the deciding rule or None) when clear, else None."""
    hits = sorted(((len(p), k, line) for line, k, p in rules if matches(p, path)), reverse=True)
    if not hits:
        return ("allowed", None)
    if len(hits) > 1 and hits[0][0] - hits[1][0] < 3:
        return None
    n, kind, line = hits[0]
    return ("allowed" if kind == "Allow" else "disallowed", line)


def place(length, pieces):
    """A path of `length` octets of filler with each piece written at its offset."""
    s = list("/" + "a" * (length - 1))
    for at, piece in pieces:
        s[at:at + len(piece)] = piece
    return "".join(s)[:length]


def near_words(n_max, count):
    """Offsets near 64-bit word edges (63, 64, 65, 127, ...), where a piece's octets straddle two words."""
    return [max(1, min(n_max, 64 * R.randint(1, max(1, n_max // 64)) + R.randint(-3, 3))) for _ in range(count)]


def emit(case_id, clauses, note, rules, checks):
    out = ["[[case]]", f'id = "{case_id}"', f"clauses = {clauses!r}".replace("'", '"'),
           'source = "rfc9309"', f'note = "{note}"']
    body = "User-agent: FooBot\n" + "".join(f"{k}: {p}\n" for _, k, p in rules)
    out.append("robots = " + '"' + body.replace("\n", "\\n") + '"')
    out.append("check = [")
    for path, (verdict, line) in checks:
        reason = "longest-match" if line else "no-matching-rule"
        rl = f", rule_line = {line}" if line else ""
        out.append(f'  {{ agent = "FooBot", url = "{path}", expect = "{verdict}"{rl}, reason = "{reason}" }},')
    out.append("]")
    print("\n".join(out) + "\n")


def checks_for(rules, candidates, want):
    """`want` checks, drawn in turn from the disallowed, the allowed by a
    rule and the allowed by no rule (two, two, one), so each answer is asked."""
    buckets = {("disallowed", True): [], ("allowed", True): [], ("allowed", False): []}
    seen = set()
    for path in candidates:
        d = decide(rules, path)
        if d and path not in seen:
            seen.add(path)
            buckets[(d[0], d[1] is not None)].append((path, d))
    order = [("disallowed", True), ("allowed", True)] * 2 + [("allowed", False)]
    kept, i = [], 0
    while len(kept) < want and any(buckets.values()):
        b = buckets[order[i % len(order)]]
        if b:
            kept.append(b.pop(0))
        i += 1
    assert all(any((d[0], d[1] is not None) == k for _, d in kept) for k in buckets), kept
    return kept


def table_case():
    lens = [2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 70]
    pieces = [token(lens[i % len(lens)]) for i in range(40)]
    tails = [token(R.choice([3, 5, 9, 20])) for _ in range(40)]
    # Twins: 16-octet pieces equal but for their last octet (a Disallow's and
    # an Allow's), which a lookup keyed on fewer than all 16 octets confuses.
    pieces[20] = pieces[7][:-1] + ("b" if pieces[7][-1] != "b" else "c")
    pieces[24] = pieces[7][:-1] + ("d" if pieces[7][-1] != "d" else "e")
    rules, line = [], 2
    for i in range(40):
        form = i % 4
        if form == 0:
            rules.append((line, "Disallow", "/*" + pieces[i]))
        elif form == 1:
            rules.append((line, "Allow", "/*" + pieces[i] + "*" + tails[i]))
        elif form == 2:
            rules.append((line, "Disallow", "/*" + pieces[i] + "*" + tails[i] + "$"))
        else:
            rules.append((line, "Allow", "/a*" + pieces[i]))
        line += 1
    cands = []
    for i in (20, 24, 7, 20, 7, 24):
        n = R.choice([130, 300])
        cands.append(place(n, [(near_words(n - 80, 1)[0], pieces[i])]))
    # A rule's later piece without its earlier one, or before it, and a
    # piece in a path that does not start with `/a`: a matcher that skips
    # a piece (or the first) matches where the pattern does not.
    for i in (1, 2, 5, 6, 9, 10, 13, 14):
        n = R.choice([130, 300])
        at = near_words(n - 80, 1)[0]
        cands.append(place(n, [(at, tails[i])]))
        cands.append(place(n, [(at, tails[i]), (at + len(tails[i]) + 3, pieces[i])]))
        cands.append(place(n, [(at, pieces[i])])[: n - len(tails[i])] + tails[i])
    for i in (3, 7, 11):
        cands.append("/b" + place(200, [(60, pieces[i])])[2:])
    for _ in range(400):
        n = R.choice([70, 130, 300, 520])
        chosen = R.sample(range(40), R.randint(0, 3))
        offs = near_words(n - 80, len(chosen) * 2)
        parts = []
        for j, i in enumerate(chosen):
            parts.append((offs[2 * j], pieces[i]))
            if R.random() < 0.6:
                parts.append((min(n - len(tails[i]), offs[2 * j] + len(pieces[i]) + R.randint(0, 40)), tails[i]))
        path = place(n, parts)
        if R.random() < 0.3 and parts:
            i = chosen[0]
            path = path[: n - len(tails[i])] + tails[i]  # a tail at the very end, for the `$` rules
        cands.append(path)
    emit("pieces-across-word-edges-in-long-urls",
         ["R2.2.3-1", "R2.2.2-5", "R2.2.2-6", "R2.2.2-13"],
         "40 wildcard rules whose pieces (2 to 70 octets) sit at offsets near 64-octet word edges of URLs of 70 to 520 octets, some with a rule's later piece but not its earlier one, or in the wrong order; the longest matching rule decides, computed by mutation/cases/make_indexed_matching.py from the RFC's matching rule alone",
         rules, checks_for(rules, cands, 30))


def keys_case():
    rules, line = [], 2
    stems = [token(R.choice([66, 70, 90])) for _ in range(4)]
    ends = [token(R.choice([66, 72])) for _ in range(3)]
    for s in stems:
        rules.append((line, "Disallow", "/" + s)); line += 1
        rules.append((line, "Allow", "/" + s + token(5))); line += 1
    for e in ends:
        rules.append((line, "Disallow", "/*" + e + "$")); line += 1
    mid = token(68)
    rules.append((line, "Allow", "/*" + mid + "*")); line += 1
    rules.append((line, "Disallow", "/p" + token(3))); line += 1
    cands = []
    for _ in range(600):
        kind = R.randint(0, 5)
        if kind == 0:
            s = R.choice(stems)
            cands.append("/" + s + token(R.randint(0, 200)))
        elif kind == 1:  # the stem with one octet changed past the 64th
            s = R.choice(stems)
            k = R.randint(64, len(s) - 1)
            cands.append("/" + s[:k] + "a" + s[k + 1:] + token(10))
        elif kind == 2:  # an allow rule's extension
            line_, k, p = R.choice([r for r in rules if r[1] == "Allow" and not r[2].startswith("/*")])
            cands.append(p + token(R.randint(0, 50)))
        elif kind == 3:
            e = R.choice(ends)
            cut = R.choice([0, 0, 1, 3])
            cands.append("/" + token(R.randint(1, 300)) + e[cut:] + ("" if R.random() < 0.7 else "b"))
        elif kind == 4:
            cands.append("/" + token(R.randint(0, 120)) + mid[: R.choice([68, 68, 67])] + token(R.randint(0, 90)))
        else:
            s = R.choice(stems)
            cands.append("/" + s + token(R.randint(0, 40)) + mid + R.choice(ends))
    emit("literal-keys-longer-than-64-octets",
         ["R2.2.2-4", "R2.2.2-5", "R2.2.2-6", "R2.2.2-13", "R2.2.3-1"],
         "literal prefixes, anchored suffixes and pieces of 66 to 90 octets (longer than any index key the oracle files under), with URLs that differ from them past their 64th octet; computed by mutation/cases/make_indexed_matching.py from the RFC's matching rule alone",
         rules, checks_for(rules, cands, 16))


def plain_case():
    rules, line = [], 2
    base = "/" + token(6)
    depth = [base]
    for _ in range(18):
        depth.append(depth[-1] + "/" + token(R.randint(2, 9)))
    for i, p in enumerate(depth):
        rules.append((line, "Allow" if i % 2 else "Disallow", p)); line += 1
    rules.append((line, "Allow", "/*" + token(4) + "$")); line += 1
    cands = ["/" + token(300)]
    for _ in range(400):
        p = R.choice(depth)
        cut = R.choice([0, 0, 0, 1, 2])
        stem = p[: len(p) - cut] if cut else p
        cands.append(stem + "/" + token(R.choice([10, 200, 300, 400])))
    emit("many-nested-prefixes-long-paths",
         ["R2.2.2-4", "R2.2.2-5", "R2.2.2-6"],
         "19 nested directory rules alternating Disallow and Allow, asked with paths of 260 to 600 octets (long enough for the oracle's early settling): the deepest matching directory decides; computed by mutation/cases/make_indexed_matching.py from the RFC's matching rule alone",
         rules, checks_for(rules, cands, 14))


print("""# Limits: long URLs and many rules, matched CORRECTLY (generated: do not edit by hand).
#
# Written by `python3 mutation/cases/make_indexed_matching.py` (seeded). The files and URLs are
# big enough for a parser's fast paths (tables of where each piece occurs, indexes keyed by
# literal prefixes, suffixes and pieces, early exits for long URLs); the answers are the RFC's:
# a pattern matches from the first octet of the path (R2.2.2-4) until its end is reached without a
# difference (R2.2.2-13), `*` matching any run and a final `$` the end (R2.2.3-1); the match with
# the most octets decides (R2.2.2-5, R2.2.2-6); no match allows (R2.2.2-9). Each expectation was
# computed by the script's own matcher, not by the oracle, and kept only when the winning rule is
# 3 octets or more longer than any other matching rule, so no answer rests on how `*` and `$` are
# counted or on an allow/disallow tie. Paths are letters, digits and `-` only.
#
# Clauses: R2.2.2-4, R2.2.2-5, R2.2.2-6, R2.2.2-13, R2.2.3-1.
""")
table_case()
keys_case()
plain_case()
