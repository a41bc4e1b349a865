"""A Scrapy robots.txt backend that asks the robots-conformance oracle.

In a Scrapy project's settings::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robots_oracle.scrapy.RobotParser"
    ROBOTSTXT_USER_AGENT = "MyBot"          # your crawler's product token
    ROBOTSTXT_ORACLE_PROFILE = "rfc9309"    # or "google" or "aipref"; rfc9309 when unset

Scrapy's RobotsTxtMiddleware hands a backend the robots.txt body as it was downloaded
(bytes); this one gives those bytes to the oracle untouched, where Scrapy's own backends
first decode them (invalid UTF-8 and a BOM dropped). The oracle matches groups against a
*product token*: set ROBOTSTXT_USER_AGENT to yours, because without it Scrapy passes the
whole User-Agent header ("Scrapy/2.19 (+https://scrapy.org)"), which names no group.

Only translates (str/bytes conversions, the setting): every verdict is the oracle's.
"""

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
from scrapy.utils.python import to_unicode

from ._oracle import RobotsTxt

__all__ = ["RobotParser"]

#: The setting that chooses the oracle's profile.
PROFILE_SETTING = "ROBOTSTXT_ORACLE_PROFILE"


class RobotParser(_ScrapyRobotParser):
    """Scrapy's `scrapy.robotstxt.RobotParser` interface over `robots_oracle.RobotsTxt`."""

    def __init__(self, robotstxt_body, profile="rfc9309"):
        if isinstance(robotstxt_body, str):
            robotstxt_body = robotstxt_body.encode("utf-8")
        self.robots = RobotsTxt(robotstxt_body or b"", profile)

    @classmethod
    def from_crawler(cls, crawler, robotstxt_body):
        """Parse `robotstxt_body` (bytes) under the profile the crawler's settings name."""
        profile = "rfc9309"
        if crawler is not None:
            profile = crawler.settings.get(PROFILE_SETTING) or "rfc9309"
        return cls(robotstxt_body, profile)

    def allowed(self, url, user_agent):
        """May `user_agent` (a product token, str or bytes) fetch `url` (str or bytes)?"""
        return self.robots.allowed(to_unicode(user_agent), to_unicode(url))
