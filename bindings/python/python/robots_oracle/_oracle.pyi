"""Type stubs of the compiled module `robots_oracle._oracle` (PyO3)."""

from typing import Dict, Final, List, Optional, Union, final

#: The names of the built-in profiles: ["rfc9309", "google", "aipref"].
PROFILES: Final[List[str]]

@final
class RuleMatch:
    """A rule of the obeyed groups that matched the URL."""

    #: The rule's 1-based line number in the file.
    line: int
    #: "allow" or "disallow".
    kind: str
    #: The pattern as written.
    pattern: str
    #: The pattern that matched, normalised (percent-encoding; for Google's
    #: index.html extension, the derived "/dir/$").
    normalized: str
    #: Its specificity under the profile (RFC 9309 §2.2.2).
    priority: int

@final
class Diagnostic:
    """One odd line of the file (parsing never fails; odd lines are reported)."""

    #: The 1-based line number.
    line: int
    #: The clause id the oddity concerns (e.g. "R2.2.2-15").
    clause: str
    #: What was odd, in words.
    message: str

@final
class Decision:
    """The oracle's decision for one crawler and one URL, with its evidence.

    `bool(decision)` is `decision.allowed`; `str(decision)` is what
    `robots-conformance check --explain` prints for the URL.
    """

    #: The product token asked about.
    agent: str
    #: The URL asked about, as given.
    url: str
    #: "allowed" or "disallowed".
    verdict: str
    #: verdict == "allowed".
    allowed: bool
    #: Why: "longest-match", "tie-goes-to-allow", "first-match", "no-matching-rule",
    #: "no-group" or "robots-txt-path".
    reason: str
    #: The RFC 9309 clause that settles a decision for that reason (e.g. "R2.2.2-5").
    clause: str
    #: The line of the rule that decided, or None when no rule did.
    line: Optional[int]
    #: That line as written in the file (invalid UTF-8 replaced), or None.
    line_text: Optional[str]
    #: The rule that decided, or None.
    rule: Optional[RuleMatch]
    #: Every rule of the obeyed groups that matched, in file order.
    candidates: List[RuleMatch]
    #: The line of the first user-agent line of each obeyed group.
    groups: List[int]
    #: The obeyed groups are the `*` fallback.
    global_group: bool
    #: The octets the rules were matched against (path and query, normalised).
    target: str
    #: The agent is a valid product token (RFC 9309 §2.2.1).
    agent_is_valid: bool
    #: The multi-line explanation `check --explain` prints under the verdict.
    explanation: str
    def __bool__(self) -> bool: ...

@final
class RobotsTxt:
    """A robots.txt file parsed under one profile.

    `body` is the file: bytes as fetched (a BOM, CRs or invalid UTF-8 are read as the oracle
    reads them), or a str, which is encoded as UTF-8. Parsing never fails; see `diagnostics`.
    `profile` is "rfc9309" (the default), "google" or "aipref" (RFC 9309 with the AI usage
    preference drafts' Content-Usage rules); any other name raises ValueError naming the valid
    ones. The GIL is released while the file is parsed.
    """

    def __init__(self, body: Union[bytes, str], profile: str = "rfc9309") -> None: ...
    @property
    def profile(self) -> str:
        """The profile's name."""
    @property
    def sitemaps(self) -> List[str]:
        """Every Sitemap URL, in file order."""
    @property
    def diagnostics(self) -> List[Diagnostic]:
        """What was odd about the file, line by line."""
    def allowed(self, agent: str, url: str) -> bool:
        """May the crawler whose product token is `agent` fetch `url`?

        `url` is an absolute URL or a path starting with "/" (with an optional query).
        Raises ValueError with the oracle's message for anything else.
        """
    def decide(self, agent: str, url: str) -> Decision:
        """The decision for `agent` and `url` with its explanation.

        Raises ValueError, as `allowed` does, where the oracle refuses the URL.
        """
    def usage(self, agent: str, url: str) -> Optional[Dict[str, str]]:
        """The AI usage preferences (draft-ietf-aipref-attach, -vocab) for `agent` on `url`.

        None where the URL may not be crawled (no preferences are implied for it); else each
        category's label ("train-ai", "search") mapped to "y", "n" or "unknown". Content-Usage
        rules are read only under the "aipref" profile: under the others every preference of a
        crawlable URL is "unknown". Raises ValueError, as `allowed` does, for a refused URL.
        """
    def crawl_delay(self, agent: str) -> Optional[str]:
        """The Crawl-delay value of the groups `agent` obeys, as written, or None."""
    def line(self, n: int) -> Optional[str]:
        """Line `n` (1-based, split as the oracle splits lines) as written, or None."""

def robots_txt_url(url: str) -> str:
    """The URL of the robots.txt file that governs an absolute URL (RFC 9309 §2.3).

    Raises ValueError with the oracle's message when `url` is not absolute.
    """

def is_valid_product_token(token: str) -> bool:
    """Whether `token` is a valid product token (RFC 9309 §2.2.1: letters, "_" and "-")."""

