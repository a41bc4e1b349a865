"""Google's documented examples ("How Google interprets the robots.txt specification"), asked
through the package under the "google" profile.

Every verdict below is the one Google's page states for the example (ids as in the project's
notes on that page: G-INTRO, G-GROUP, G-UA, G-MERGE, G-PREC, G-SITEMAP, G-FMT).
"""

import pytest

import robots_oracle


def google(body):
    return robots_oracle.RobotsTxt(body, "google")


INTRO = (
    "# This robots.txt file controls crawling of URLs under https://example.com.\n"
    "User-agent: *\nDisallow: /includes/\n\n"
    "User-agent: Googlebot\nAllow: /includes/\n\n"
    "Sitemap: https://example.com/sitemap.xml\n"
)


@pytest.mark.parametrize(
    "agent, url, allowed",
    [
        ("Googlebot", "/includes/app.js", True),
        ("googlebot", "/includes/style.css", True),
        ("Bingbot", "/includes/app.js", False),
        ("Bingbot", "/index.html", True),
        ("Googlebot", "/anything", True),
    ],
)
def test_intro(agent, url, allowed):
    assert google(INTRO).allowed(agent, url) is allowed


def test_intro_sitemap():
    assert google(INTRO).sitemaps == ["https://example.com/sitemap.xml"]


GROUPS = (
    "user-agent: a\ndisallow: /c\n\nuser-agent: b\ndisallow: /d\n\n"
    "user-agent: e\nuser-agent: f\ndisallow: /g\n\nuser-agent: h\n"
)


@pytest.mark.parametrize(
    "agent, url, allowed",
    [
        ("a", "/c", False), ("a", "/d", True), ("b", "/d", False), ("b", "/c", True),
        ("e", "/g", False), ("f", "/g", False), ("f", "/c", True), ("h", "/c", True),
        ("h", "/g", True), ("z", "/c", True),
    ],
)
def test_groups(agent, url, allowed):
    assert google(GROUPS).allowed(agent, url) is allowed


UA = (
    "user-agent: googlebot-news\ndisallow: /g1\n\nuser-agent: *\ndisallow: /g2\n\n"
    "user-agent: googlebot\ndisallow: /g3\n"
)


@pytest.mark.parametrize(
    "agent, blocked",
    [
        ("googlebot-news", "/g1"),
        ("googlebot", "/g3"),
        ("Storebot-Google", "/g2"),
        ("otherbot", "/g2"),
        ("othernewsbot", "/g2"),
    ],
)
def test_user_agent_precedence(agent, blocked):
    robots = google(UA)
    for url in ("/g1", "/g2", "/g3"):
        assert robots.allowed(agent, url) is (url != blocked), (agent, url)


@pytest.mark.parametrize(
    "body, agent, allowed",
    [
        # G-UA-2: non-matching text after the token is ignored.
        ("user-agent: googlebot/1.2\ndisallow: /\n", "googlebot", False),
        ("user-agent: googlebot*\ndisallow: /\n", "googlebot", False),
        ("user-agent: googlebot*\ndisallow: /\n", "googlebot-news", True),
    ],
)
def test_non_matching_text_ignored(body, agent, allowed):
    assert google(body).allowed(agent, "/x") is allowed


MERGE = (
    "user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\ndisallow: /carrots\n\n"
    "user-agent: googlebot-news\ndisallow: /shrimp\n"
)


@pytest.mark.parametrize(
    "agent, url, allowed",
    [
        ("googlebot-news", "/fish", False),
        ("googlebot-news", "/shrimp", False),
        ("googlebot-news", "/carrots", True),
        ("otherbot", "/carrots", False),
        ("otherbot", "/fish", True),
    ],
)
def test_merge(agent, url, allowed):
    assert google(MERGE).allowed(agent, url) is allowed


def test_merged_groups_are_both_named():
    d = google(MERGE).decide("googlebot-news", "/shrimp")
    assert d.groups == [1, 7] and d.line == 8 and d.line_text == "disallow: /shrimp"


@pytest.mark.parametrize(
    "url, rules, allowed, deciding",
    [
        ("https://example.com/page", ["allow: /p", "disallow: /"], True, "allow: /p"),
        ("https://example.com/folder/page", ["allow: /folder", "disallow: /folder"], True,
         "allow: /folder"),
        ("https://example.com/page.htm", ["allow: /page", "disallow: /*.htm"], False,
         "disallow: /*.htm"),
        ("https://example.com/page.php5", ["allow: /page", "disallow: /*.ph"], True,
         "allow: /page"),
        ("https://example.com/", ["allow: /$", "disallow: /"], True, "allow: /$"),
        ("https://example.com/page.htm", ["allow: /$", "disallow: /"], False, "disallow: /"),
    ],
)
@pytest.mark.parametrize("reverse", [False, True])
def test_rule_precedence(url, rules, allowed, deciding, reverse):
    # G-PREC-1..6: the doc names the applicable rule; the order of the lines is irrelevant.
    lines = list(reversed(rules)) if reverse else rules
    d = google("User-agent: *\n" + "\n".join(lines) + "\n").decide("Googlebot", url)
    assert d.allowed is allowed
    assert d.line_text == deciding


def test_sitemaps_in_order_and_unescaped():
    body = (
        "user-agent: otherbot\ndisallow: /kale\n\nsitemap: https://example.com/sitemap.xml\n"
        "sitemap: https://cdn.example.org/other-sitemap.xml\n"
        "sitemap: https://ja.example.org/テスト-サイトマップ.xml\n"
    )
    robots = google(body)
    assert robots.sitemaps == [
        "https://example.com/sitemap.xml",
        "https://cdn.example.org/other-sitemap.xml",
        "https://ja.example.org/テスト-サイトマップ.xml",
    ]
    assert not robots.allowed("otherbot", "/kales")
    assert robots.allowed("anybot", "/kale")


def test_bom_is_skipped():
    # G-FMT-3: a byte order mark does not break the first line.
    robots = google(b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n")
    assert not robots.allowed("a", "/x")
    assert [(x.line, x.clause) for x in robots.diagnostics] == [(1, "G-FMT-3")]


@pytest.mark.parametrize(
    "body", ["User-agent: *\rDisallow: /x\r", "User-agent: *\r\nDisallow: /x\r\n",
             "User-agent: *\nDisallow: /x\n"],
)
def test_line_ends(body):
    # G-FMT-2: CR, CR/LF or LF.
    d = google(body).decide("a", "/x")
    assert not d.allowed and d.line == 2 and d.line_text == "Disallow: /x"


def test_utf8_rule_matches_its_percent_encoding():
    # G-FMT-1 / G-ENC-1a: a raw UTF-8 rule is compared in its percent-encoded form.
    assert not google("User-agent: *\nDisallow: /foo/bar/ツ\n").allowed("a", "/foo/bar/%E3%83%84")
