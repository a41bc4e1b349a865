"""The package's decisions are the CLI's: for every body, agent, URL and profile below,
`str(decide(agent, url))` is exactly what `robots-conformance check --explain` prints, and a
URL the CLI's oracle refuses is one the package refuses.

Needs the binary: set RC_BIN to its path (CI sets it to target/release/robots-conformance).
Without it these tests are skipped, and say so.
"""

import os
import subprocess

import pytest

import robots_oracle

BIN = os.environ.get("RC_BIN")
pytestmark = pytest.mark.skipif(not BIN, reason="RC_BIN (the robots-conformance binary) not set")

BODIES = {
    "rfc-5.1": b"User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\n"
    b"User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\n"
    b"User-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n",
    "google-merge": b"user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\n"
    b"disallow: /carrots\n\nuser-agent: googlebot-news\ndisallow: /shrimp\n",
    "google-ua": b"user-agent: googlebot/1.2\ndisallow: /\n",
    "index-html": b"User-agent: *\nAllow: /dir/index.html\nDisallow: /dir/\n",
    "bom-cr-invalid": b"\xef\xbb\xbfUser-agent: *\rDisallow: /caf\xe9\rDisallow: /%7Ex\rAllow: /$\r",
    "wildcards": b"User-agent: FooBot\nDisallow: /*.php$\nAllow: /a*b*c\nDisallow: /a\n",
}
AGENTS = ["FooBot", "googlebot-news", "googlebot", "foobot", "barbot"]
URLS = [
    "/", "/x.gif", "/example/page.html", "/publications/", "/fish", "/carrots", "/shrimp",
    "/dir/", "/dir/index.html", "/caf%E9", "/~x", "/%7ex", "https://example.com/a/b/c?d",
    "/index.php", "/index.php?x", "/robots.txt", "https://example.com", "/ツ",
]


def cli(tmp_path, body, agent, profile, urls):
    robots = tmp_path / "robots.txt"
    robots.write_bytes(body)
    run = subprocess.run(
        [BIN, "check", "--robots", str(robots), "--agent", agent, "--profile", profile,
         "--explain", *urls],
        capture_output=True, timeout=60,
    )
    return run.returncode, run.stdout.decode("utf-8"), run.stderr.decode("utf-8")


@pytest.mark.parametrize("profile", robots_oracle.PROFILES)
@pytest.mark.parametrize("name", sorted(BODIES))
def test_explanations_equal_check_explain(tmp_path, name, profile):
    body = BODIES[name]
    robots = robots_oracle.RobotsTxt(body, profile)
    for agent in AGENTS:
        code, out, err = cli(tmp_path, body, agent, profile, URLS)
        assert code == 0, err
        assert out == "".join(str(robots.decide(agent, u)) for u in URLS), (name, agent)


def test_refusals_equal_check(tmp_path):
    # `check` applies the wire protocol's own rule before the oracle (which refuses "" and "?q"
    # too, where the library reads "/"): a URL the oracle refuses, both refuse, naming it.
    code, out, err = cli(tmp_path, b"User-agent: *\nDisallow: /\n", "FooBot", "rfc9309",
                         ["mailto:x"])
    assert code != 0
    with pytest.raises(ValueError) as e:
        robots_oracle.RobotsTxt(b"User-agent: *\nDisallow: /\n").allowed("FooBot", "mailto:x")
    assert "'mailto:x'" in err and "'mailto:x'" in str(e.value)
