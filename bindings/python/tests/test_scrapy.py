"""The Scrapy backend `robots_oracle.scrapy.RobotParser`: Scrapy's RobotParser interface over
the oracle. (End to end through Scrapy's RobotsTxtMiddleware, it is the adapter
python-scrapy-oracle.) Skipped where Scrapy is not installed, and says so.
"""

import pytest

scrapy = pytest.importorskip("scrapy")

from scrapy.robotstxt import RobotParser as ScrapyRobotParser  # noqa: E402
from scrapy.utils.misc import load_object  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

import robots_oracle  # noqa: E402
from robots_oracle.scrapy import RobotParser  # noqa: E402

BODY = b"User-agent: FooBot\nDisallow: /private\nAllow: /private/open\n"


def test_loads_as_scrapys_setting_names_it():
    cls = load_object("robots_oracle.scrapy.RobotParser")
    assert cls is RobotParser and issubclass(cls, ScrapyRobotParser)


def test_verdicts_are_the_oracles():
    # The middleware hands the body as downloaded (bytes), URLs and the agent as str or bytes.
    parser = RobotParser.from_crawler(get_crawler(), BODY)
    oracle = robots_oracle.RobotsTxt(BODY)
    for url in ("https://example.com/private", "https://example.com/private/open/x",
                "https://example.com/public"):
        want = oracle.allowed("FooBot", url)
        assert parser.allowed(url, "FooBot") is want
        assert parser.allowed(url.encode(), b"FooBot") is want
    assert parser.allowed("https://example.com/private", "FooBot") is False
    assert parser.allowed("https://example.com/private/open/x", "FooBot") is True


def test_the_middlewares_dependency_check_with_an_empty_body():
    # RobotsTxtMiddleware builds the backend once with b"" to check it loads: no rules.
    assert RobotParser.from_crawler(get_crawler(), b"").allowed("https://example.com/", "A")


def test_no_crawler_means_the_default_profile():
    assert RobotParser.from_crawler(None, BODY).robots.profile == "rfc9309"


def test_profile_setting():
    # Google documents `user-agent: googlebot/1.2` as naming googlebot (text after the token
    # is ignored); under RFC 9309 that value is not a product token and names no crawler.
    body = b"user-agent: googlebot/1.2\ndisallow: /\n"
    url = "https://example.com/x"
    rfc = RobotParser.from_crawler(get_crawler(), body)
    google = RobotParser.from_crawler(
        get_crawler(settings_dict={"ROBOTSTXT_ORACLE_PROFILE": "google"}), body)
    assert google.robots.profile == "google"
    assert rfc.allowed(url, "googlebot") is True
    assert google.allowed(url, "googlebot") is False


def test_unknown_profile_setting_is_refused():
    crawler = get_crawler(settings_dict={"ROBOTSTXT_ORACLE_PROFILE": "bing"})
    with pytest.raises(ValueError, match="expected one of rfc9309, google, aipref"):
        RobotParser.from_crawler(crawler, BODY)


def test_raw_bytes_reach_the_oracle():
    # Scrapy's own backends decode the body first (invalid bytes and a BOM dropped); this one
    # does not: the oracle reads the BOM and the invalid rule value itself.
    body = b"\xef\xbb\xbfUser-agent: *\nDisallow: /caf\xe9\nDisallow: /x\n"
    parser = RobotParser.from_crawler(get_crawler(), body)
    assert parser.allowed("https://example.com/x", "A") is False
    assert parser.allowed("https://example.com/caf%E9", "A") is True
    assert [d.clause for d in parser.robots.diagnostics] == ["G-FMT-3", "R2.2-15"]
