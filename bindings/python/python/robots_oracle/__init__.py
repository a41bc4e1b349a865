"""robots_oracle: the robots-conformance reference oracle for robots.txt, from Python.

RFC 9309's reading (profile "rfc9309", the default), Google's ("google") or RFC 9309 with the
AI usage preference drafts ("aipref", for `usage`), every answer
explained: the verdict, the reason, the clause of the RFC that settles it and the line of the
file that decided. A thin layer over the Rust crate `robots-oracle`: nothing here decides.

    >>> import robots_oracle
    >>> robots = robots_oracle.RobotsTxt(b"User-agent: *\\nDisallow: /x\\n")
    >>> robots.allowed("FooBot", "https://example.com/x/y")
    False
    >>> d = robots.decide("FooBot", "/x/y")
    >>> (d.verdict, d.reason, d.clause, d.line, d.line_text)
    ('disallowed', 'longest-match', 'R2.2.2-5', 2, 'Disallow: /x')

For Scrapy, see `robots_oracle.scrapy`.
"""

from ._oracle import (
    PROFILES,
    Decision,
    Diagnostic,
    RobotsTxt,
    RuleMatch,
    is_valid_product_token,
    robots_txt_url,
)

__all__ = [
    "PROFILES",
    "Decision",
    "Diagnostic",
    "RobotsTxt",
    "RuleMatch",
    "is_valid_product_token",
    "robots_txt_url",
]
