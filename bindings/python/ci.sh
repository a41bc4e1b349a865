#!/usr/bin/env bash
# CI check for the Python package robots-oracle (bindings/python), called by .ci/run:
#   bindings/python/ci.sh [BIN]   (BIN: the robots-conformance binary, default target/release)
# 1. builds and installs the package with pip into a fresh venv (target/py-oracle/, beside
#    Scrapy pinned as python-scrapy pins it, and pytest pinned), checks the issue's one-liner,
#    and runs the package's pytest tests (RC_BIN set: explanations are compared with
#    `check --explain`);
# 2. sets up the adapters python-robots-oracle and python-scrapy-oracle and runs the matrix
#    with reference: python-robots-oracle must agree with reference on every check it
#    answers; python-scrapy-oracle too, except where Scrapy itself changes what its backend
#    is given (its fetch layer, fetch::; its URL canonicalisation, listed below) and the URLs
#    Scrapy drops before robots.txt is asked (UrlLengthMiddleware).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The binary, made absolute (the steps below change folders), built when missing.
bin=$(bash "$root/.ci/binary.sh" "${1:-}")
command -v cargo >/dev/null || { echo "cargo (Rust 1.95+, rustup) is needed to build the package"; exit 1; }

venv=$root/target/py-oracle
rm -rf "$venv"
python3 -m venv "$venv"
pip=("$venv/bin/pip" install -q --disable-pip-version-check --no-deps)
"${pip[@]}" -r "$root/adapters/ext/python-scrapy/requirements.txt" -r "$here/tests/requirements.txt"
"${pip[@]}" "$here"
out=$("$venv/bin/python" -c "import robots_oracle; print(robots_oracle.RobotsTxt(b'User-agent: *\nDisallow: /x', 'rfc9309').allowed('FooBot', '/x/y'))")
[ "$out" = "False" ] || { echo "the one-liner printed '$out', not False"; exit 1; }
(cd "$here" && RC_BIN=$bin "$venv/bin/python" -m pytest -q -p no:cacheprovider tests)

"$bin" adapters setup python-robots-oracle python-scrapy-oracle
"$bin" matrix --adapters reference,python-robots-oracle,python-scrapy-oracle \
  --out "$root/target/ci-python-oracle"
python3 - "$root/target/ci-python-oracle/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
# Scrapy's Request canonicalises these URLs before any robots.txt backend sees them ("/a.php?"
# is requested as "/a.php", a DEL octet as %7F): the backend answers for the URL requested.
scrapy_url_canonicalisation = {
    "wildcards::dollar::dollar-anchors-before-query::2",
    "wildcards::dollar::anchored-exact-file::4",
    "wildcards::special-characters::del-octet-in-a-pattern::1",
    "wildcards::star::any-url-with-a-query::2",
    "wildcards::star::any-url-with-a-query::3",
}
bad = []
for name in ("python-robots-oracle", "python-scrapy-oracle"):
    agree = differ = fetch_differ = url_differ = dropped = 0
    for check in report["checks"]:
        mine, ref = check["results"].get(name), check["results"].get("reference")
        outcome = mine["outcome"]["rfc9309"]
        if outcome == "not-applicable":
            continue
        if outcome not in ("pass", "fail", "unscored"):
            if name == "python-scrapy-oracle" and "UrlLengthMiddleware" in mine["answer"]:
                dropped += 1
            else:
                bad.append("%s %s: %s %s" % (name, check["name"], outcome, mine["answer"][:160]))
            continue
        if mine["answer"].split("\n")[0] == ref["answer"].split("\n")[0]:
            agree += 1
        elif name == "python-scrapy-oracle" and check["name"].startswith("fetch::"):
            fetch_differ += 1
        elif name == "python-scrapy-oracle" and check["name"] in scrapy_url_canonicalisation:
            url_differ += 1
        else:
            differ += 1
            bad.append("%s %s: %s, reference %s" % (name, check["name"], mine["answer"][:80],
                                                    ref["answer"].split("\n")[0]))
    print("%s: %d checks agree with reference, %d differ; Scrapy's own layers: %d fetch "
          "checks, %d canonicalised URLs, %d URLs dropped" % (name, agree, differ, fetch_differ,
                                                             url_differ, dropped))
    if agree < 2000:
        bad.append("%s answered only %d checks" % (name, agree))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
