"""Bad input: the package raises a clear Python exception exactly where the oracle refuses,
and answers (never crashes) wherever the oracle answers.

The oracle never refuses a body (RFC 9309 §2.3.1.5: crawlers MUST try to parse each line;
odd lines become diagnostics). It refuses a URL it cannot reduce to a path
(`robots_oracle::Error`), with a message naming the URL: the package raises ValueError
with that message.
"""

import pytest

import robots_oracle

ROBOTS = robots_oracle.RobotsTxt(b"User-agent: *\nDisallow: /x\n")


@pytest.mark.parametrize("url", ["x", "mailto:someone", "example.com/x", "q=1"])
def test_url_that_is_not_a_path_raises_the_oracles_error(url):
    for ask in (ROBOTS.allowed, ROBOTS.decide):
        with pytest.raises(ValueError) as e:
            ask("FooBot", url)
        assert str(e.value) == (
            "cannot match '%s': expected an absolute URL such as https://example.com/a "
            "or a path starting with '/'" % url
        )


@pytest.mark.parametrize(
    "url, allowed",
    [
        # Absolute URLs and paths; the fragment is not part of what is matched (R2.2.2-2).
        ("https://example.com/x", False),
        ("https://example.com/y#x", True),
        ("/x?q=1", False),
        ("/y", True),
        # A network-path reference ("//authority/path", RFC 3986 §4.2): its path is matched.
        ("//example.com/x", False),
    ],
)
def test_urls_the_oracle_reads(url, allowed):
    assert ROBOTS.allowed("FooBot", url) is allowed


def test_robots_txt_url_needs_an_absolute_url():
    with pytest.raises(ValueError, match="'/x' is not an absolute URL"):
        robots_oracle.robots_txt_url("/x")


def test_unknown_profile_names_the_valid_ones():
    with pytest.raises(ValueError) as e:
        robots_oracle.RobotsTxt(b"", "bing")
    assert str(e.value) == "unknown profile 'bing': expected one of rfc9309, google, aipref"


def test_body_type():
    with pytest.raises(TypeError, match="body must be bytes or str, not int"):
        robots_oracle.RobotsTxt(3)
    with pytest.raises(TypeError):
        robots_oracle.RobotsTxt(b"", 3)


def test_str_with_lone_surrogates_is_refused_by_utf8_encoding():
    # A str body is encoded as UTF-8; a lone surrogate has no UTF-8 form.
    with pytest.raises(UnicodeEncodeError):
        robots_oracle.RobotsTxt("User-agent: *\nDisallow: /\udcff\n")


def test_invalid_utf8_body_is_read_not_refused():
    # R2.2-15 (the oracle's reading): a rule value that is not UTF-8 is ignored and reported;
    # the other lines still apply.
    robots = robots_oracle.RobotsTxt(b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /x\n")
    assert robots.allowed("a", "/caf%E9")
    assert not robots.allowed("a", "/x")
    [diag] = robots.diagnostics
    assert (diag.line, diag.clause) == (2, "R2.2-15")
    assert "not UTF-8" in diag.message
    # The deciding line's text is shown with invalid bytes replaced, never raised.
    assert robots.line(2) == "Disallow: /caf\ufffd"


def test_bytes_and_str_bodies_agree():
    text = "User-agent: *\nDisallow: /ツ\n"
    a, b = robots_oracle.RobotsTxt(text), robots_oracle.RobotsTxt(text.encode("utf-8"))
    for url in ("/%E3%83%84", "/ツ", "/x"):
        assert a.allowed("a", url) is b.allowed("a", url)


def test_empty_and_huge_bodies():
    assert robots_oracle.RobotsTxt(b"").allowed("a", "/x")
    # Past the 500 KiB parse limit (R2.5) the rest is ignored and reported.
    body = b"User-agent: *\n" + b"#" * (600 * 1024) + b"\nDisallow: /late\n"
    robots = robots_oracle.RobotsTxt(body)
    assert robots.allowed("a", "/late")
    assert any(d.clause == "R2.5-2" for d in robots.diagnostics)


def test_nul_bytes_and_control_characters_never_crash():
    robots = robots_oracle.RobotsTxt(b"User-agent: *\x00\nDisallow: /\x00x\n\x01\x02\n")
    for url in ("/", "/\x00x", "/%00x"):
        assert isinstance(robots.allowed("a", url), bool)
    assert isinstance(robots.decide("\x00", "/").allowed, bool)


def test_line_numbers_out_of_range():
    assert ROBOTS.line(0) is None
    assert ROBOTS.line(3) is None
    with pytest.raises(OverflowError):
        ROBOTS.line(-1)


def test_crawl_delay_as_written():
    body = "User-agent: b\nDisallow: /y\n\nUser-agent: *\nCrawl-delay: 2.5\n"
    robots = robots_oracle.RobotsTxt(body)
    assert robots.crawl_delay("a") == "2.5"
    assert robots.crawl_delay("b") is None
