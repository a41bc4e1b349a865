"""RFC 9309's own examples (§5.1 and §5.2), asked through the package.

Each verdict is the RFC's text: §5.1 describes what each group may fetch, §5.2 names the
rule that MUST decide. The reasons, clauses and lines are the oracle's explanation of those
verdicts (the rule that decided is the one the RFC's prose names), which the package must
pass on unchanged.
"""

import pytest

import robots_oracle

# RFC 9309 §5.1, verbatim (the figure's indentation and its closing "EOF" marker removed).
SIMPLE = b"""User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot
"""


@pytest.mark.parametrize(
    "agent, url, allowed, line",
    [
        # "*": allows /publications/, restricts /example/ and every URL with a .gif suffix.
        ("SomeBot", "https://example.com/publications/x.html", True, 4),
        ("SomeBot", "https://example.com/example/x.html", False, 3),
        ("SomeBot", "https://example.com/a/b.gif", False, 2),
        ("SomeBot", "https://example.com/other", True, None),
        # foobot: only /example/page.html and /example/allowed.gif.
        ("foobot", "https://example.com/example/page.html", True, 8),
        ("foobot", "https://example.com/example/allowed.gif", True, 9),
        ("foobot", "https://example.com/publications/", False, 7),
        # barbot and bazbot: not /example/page.html, everything else.
        ("barbot", "https://example.com/example/page.html", False, 13),
        ("bazbot", "https://example.com/example/page.html", False, 13),
        ("bazbot", "https://example.com/example/other.html", True, None),
        # quxbot: an empty group, unrestricted.
        ("quxbot", "https://example.com/example/x.gif", True, None),
    ],
)
def test_simple_example(agent, url, allowed, line):
    robots = robots_oracle.RobotsTxt(SIMPLE)
    assert robots.allowed(agent, url) is allowed
    d = robots.decide(agent, url)
    assert d.allowed is allowed and bool(d) is allowed
    assert d.verdict == ("allowed" if allowed else "disallowed")
    assert (d.agent, d.url) == (agent, url)
    assert d.line == line
    if line is not None:
        assert d.line_text == SIMPLE.decode().splitlines()[line - 1]
        assert robots.line(line) == d.line_text
        assert d.rule is not None and d.rule.line == line
        assert d.reason == "longest-match" and d.clause == "R2.2.2-5"
    else:
        assert d.rule is None and d.line_text is None
        assert d.reason == "no-matching-rule" and d.clause == "R2.2.2-9"


def test_foobot_group_and_not_the_star_group():
    d = robots_oracle.RobotsTxt(SIMPLE).decide("FooBot", "/example/page.html")
    # Product tokens match case-insensitively (R2.2.1-6); foobot's group is at line 6.
    assert d.groups == [6] and d.global_group is False
    assert d.agent_is_valid is True
    d = robots_oracle.RobotsTxt(SIMPLE).decide("SomeBot", "/example/page.html")
    assert d.groups == [1] and d.global_group is True


def test_longest_match_example():
    # RFC 9309 §5.2: /example/page/disallowed.gif MUST be used for that URI.
    body = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
    url = "https://example.com/example/page/disallowed.gif"
    d = robots_oracle.RobotsTxt(body).decide("foobot", url)
    assert d.verdict == "disallowed"
    assert d.line == 3 and d.line_text == "Disallow: /example/page/disallowed.gif"
    assert [c.line for c in d.candidates] == [2, 3]
    assert d.rule.kind == "disallow" and d.rule.pattern == "/example/page/disallowed.gif"
    assert d.rule.priority > d.candidates[0].priority


def test_explanation_is_check_explain_text():
    # The text `robots-conformance check --explain` prints (its Display), line for line:
    # priorities are the patterns' octet counts (R2.2.2-6).
    body = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
    d = robots_oracle.RobotsTxt(body).decide("foobot", "/example/page/disallowed.gif")
    assert d.explanation.splitlines() == [
        "  reason: longest-match (R2.2.2-5)",
        "  matched against: /example/page/disallowed.gif",
        "  group(s) at line(s) 1",
        "  matched line 2: allow: /example/page/ (normalised /example/page/, priority 14)",
        "  matched line 3: disallow: /example/page/disallowed.gif "
        "(normalised /example/page/disallowed.gif, priority 28)",
        "  winner: line 3",
    ]
    assert str(d) == "disallowed /example/page/disallowed.gif\n" + d.explanation


def test_robots_txt_is_implicitly_allowed():
    # R2.2.2-10: "The /robots.txt URI is implicitly allowed."
    d = robots_oracle.RobotsTxt("User-agent: *\nDisallow: /\n").decide("a", "/robots.txt")
    assert d.allowed and d.reason == "robots-txt-path" and d.clause == "R2.2.2-10"


def test_no_group_and_no_star_group_means_no_rules():
    # R2.2.1-9 (after Figure 3): no matching group and no "*" group: no rules apply.
    d = robots_oracle.RobotsTxt("User-agent: foobot\nDisallow: /\n").decide("barbot", "/x")
    assert d.allowed and d.reason == "no-group" and d.clause == "R2.2.1-9" and d.groups == []


def test_tie_goes_to_allow():
    # R2.2.2-8: an allow and a disallow rule that are equivalent: the allow SHOULD be used.
    d = robots_oracle.RobotsTxt("User-agent: *\nDisallow: /x\nAllow: /x\n").decide("a", "/x")
    assert d.allowed and d.reason == "tie-goes-to-allow" and d.line == 3


def test_robots_txt_url_and_product_tokens():
    # §2.3: the file is at the top-level path of the authority; §2.2.1 product tokens.
    assert robots_oracle.robots_txt_url("https://example.com/a/b?c") == "https://example.com/robots.txt"
    assert robots_oracle.is_valid_product_token("Foo_Bar-Baz")
    assert not robots_oracle.is_valid_product_token("Foobot/2.1")
    assert robots_oracle.PROFILES == ["rfc9309", "google", "aipref"]
