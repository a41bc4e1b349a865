#!/usr/bin/env python3
"""python-robotexclusionrulesparser: robotexclusionrulesparser 1.7.1 from PyPI (Philip
Semanchuk, pure Python), through adapters/ext/lib/rcproto.py.

Profile claimed: google. The module implements MK1996 plus the 2008 Google-Yahoo-Microsoft
extensions (GYM2008, its default syntax, used here); of the two readings this suite
scores, Google's is its nearest claim.

Input conventions:
- Body: raw bytes. RobotExclusionRulesParser.parse() accepts bytes and decodes them as
  ISO-8859-1 itself (fetch() does the same when the server names no charset), so every
  byte reaches the parser: non_utf8_bodies = true. A consequence of the parser's own
  decode: a UTF-8 BOM becomes the text "ï»¿" and raw UTF-8 in a rule never matches a URL.
- URLs: is_allowed(agent, url) takes absolute URLs and paths as given (it ignores scheme
  and host, "It is the caller's responsibility to make sure they match").
- sitemaps: the `sitemaps` property; crawl-delay: get_crawl_delay(agent) (a float, or
  None).
- fetch: the module's own RobotExclusionRulesParser().fetch(robots_url, timeout), then
  is_allowed(agent, url) per URL. fetch() reads at most MAX_FILESIZE = 100 KiB of the body,
  maps 401/403 to "disallow all" and 404 to "allow all", and raises URLError for every
  other non-2xx status (other 4xx, 5xx) and for network errors: those come back as errors.

Known deviations (probe): first matching rule in file order (no longest match); only the
first matching group; agent matched as a case-insensitive substring of the caller's
string; a `sitemap:` line between user-agent lines ends the group. Hangs on patterns with
many wildcards (probe case H1).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

from robotexclusionrulesparser import RobotExclusionRulesParser  # noqa: E402


def parse(robots, agent=None):
    p = RobotExclusionRulesParser()
    p.parse(robots)
    return p


def fetch(robots_url, agent, urls, timeout):
    p = RobotExclusionRulesParser()
    p.fetch(robots_url, timeout)
    return rcproto.each_url(p.is_allowed, agent, urls)


rcproto.serve(
    {
        "name": "python-robotexclusionrulesparser",
        "version": "robotexclusionrulesparser " + version("robotexclusionrulesparser"),
        "language": "python",
        "profile": "google",
        "body": "bytes (the parser decodes ISO-8859-1)",
    },
    parse=parse,
    allowed=lambda p, agent, url: p.is_allowed(agent, url),
    sitemaps=lambda robots: parse(robots).sitemaps,
    crawl_delay=lambda robots, agent: parse(robots).get_crawl_delay(agent),
    fetch=fetch,
)
