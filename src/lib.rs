//! A reference parser and matcher for robots.txt (RFC 9309) that explains
//! every answer.
//!
//! The oracle takes the file as **bytes**, never as a pre-decoded string,
//! because what a parser does with a BOM, a CR or an invalid UTF-8 octet is
//! part of what is being tested. Parsing never fails: odd lines become
//! [`Diagnostic`]s. Wherever readings of the protocol differ, a named
//! switch of [`Profile`] chooses; [`Profile::rfc9309`] (the default),
//! [`Profile::google`] and [`Profile::aipref`] (RFC 9309 as the AI
//! preferences drafts update it) are bundles of those switches.
//!
//! # Example
//!
//! ```
//! use robots_oracle::{Profile, Reason, RobotsTxt, Verdict};
//!
//! let body = b"User-agent: FooBot\nAllow: /shop/\nDisallow: /\n";
//! let robots = RobotsTxt::parse(body, &Profile::rfc9309());
//! let d = robots.decide("foobot", "https://example.com/shop/cart?x=1")?;
//! assert_eq!(d.verdict, Verdict::Allowed);
//! assert_eq!(d.reason, Reason::LongestMatch);
//! assert!(!robots.is_allowed("FooBot", "/private")); // no re-parse
//! # Ok::<(), robots_oracle::Error>(())
//! ```
//!
//! # What it does not do
//!
//! No I/O: fetching, status codes, redirects and caching are modelled in
//! [`fetch`] as pure functions of a fetch outcome. No host checks: which
//! authority a file governs is the caller's business.
//!
//! # The house
//!
//! Three rooms: `reading` (what the text says: lex, parse, agent, tokens,
//! encode, pattern, target, decide, and the AI preference drafts in
//! `reading::aipref`), `fast` (the same answers sooner: adaptive, tries,
//! index, haystack, trie, early, once, focus, kept_lines) and `space`
//! (the readings a parser may take: profile, settle, classify); [`fetch`]
//! models the fetch. Each room's module doc says what it must never do.
//! The fast paths depend on the reading, never the reverse
//! (`tests/rooms.rs`): the public decisions that want speed
//! ([`RobotsTxt::decide`], [`RobotsTxt::is_allowed`],
//! [`RobotsTxt::usage`], [`RobotsTxt::decide_tokens`]) are the reading's,
//! their matching rules found by the fast room.
//!
//! # Where each clause lives
//!
//! | RFC 9309 | module |
//! |---|---|
//! | §2.2 lines, `NL`, `WS`, comments; §2.5 parse limit | `lex` |
//! | §2.1 groups; §2.2 `group`, `rule`; §2.2.4 other records | `parse` |
//! | §2.2.1 product tokens, group selection and merging | `agent` |
//! | a crawler with several product tokens (Google's `AllowedByRobotsTuple`) | `tokens` |
//! | §2.2.2 percent-encoding (Figure 4), §2.2.3 Figure 6 | `encode` |
//! | §2.2.2 matching, §2.2.3 `*` and `$` | `pattern` |
//! | §2.2.2 which URL octets are matched; §2.3 robots.txt location | `target` |
//! | §2.2.2 longest match, ties, no match, `/robots.txt` | `decide` |
//! | §2.2.2 the same decisions sooner ([`RobotsTxt::decide`], [`RobotsTxt::is_allowed`]) | `adaptive` |
//! | §2.2.1 and §2.2.2 for one crawler: its groups only ([`RobotsTxt::parse_for`]) | `focus` |
//! | one URL in one pass, nothing kept ([`RobotsTxt::check_once`]) | `once` |
//! | a long URL decided on its raw path when a prefix settles it | `early` |
//! | §2.3.1, §2.4 access results and caching | [`fetch`] |
//! | draft-ietf-aipref-attach-05 §3 Content-Usage rules, draft-ietf-aipref-vocab-07 statements, Content-Signal ([`RobotsTxt::usage`], [`RobotsTxt::content_signals`]) | `aipref` |
//!
//! # Complexity
//!
//! Parsing is linear in the file (bounded by the parse limit); the parsed
//! file keeps one copy of it, which rule values share ([`Octets`]).
//! Matching one rule costs O(|path| · |pattern|) at worst, with no
//! backtracking; see the `pattern` module. [`RobotsTxt::decide`] indexes a
//! group's rules once the group has been consulted a few times: one
//! Aho-Corasick automaton over every rule's key (literal prefix, anchored
//! suffix or longest piece) names the candidates in one scan of the target
//! (`index`), and for long targets the candidates share one greedy walk
//! (a trie over their pieces, `trie`) over bit-parallel occurrence sets
//! (`haystack`); a decision over few rules searches with `memmem` and
//! builds nothing. [`RobotsTxt::is_allowed`] wants only the verdict and
//! stops early (the longest patterns first; no rule left can change it);
//! on a long URL those longest rules are tried on the raw path first, and
//! a verdict their matches settle within a prefix free of `#` and of
//! anything canonicalisation changes needs no pass over the rest of the
//! URL (`early`). Walks of few rules search each piece with a `memmem`
//! searcher built once per group (`trie`).
//! A crawler reads a file for itself: [`RobotsTxt::parse_for`] keeps only
//! the groups its token selects and skips the rest as it reads them;
//! [`RobotsTxt::check_once`] asks one URL in that same pass, matching each
//! obeyed rule as it is read and keeping nothing.
//! [`RobotsTxt::decide_linear`] is the plain reading, tried against all of
//! these by property tests and by every spec case (`decide_indexed`).
//!
//! # Panics
//!
//! No input makes this crate panic; property tests and fuzzing check it.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod fast;
pub mod fetch;
mod reading;
mod space;
#[cfg(test)]
mod test_support;

// The rooms' modules by their own names, so that every module reaches
// another as `crate::<module>` wherever it lives.
use fast::{adaptive, early, focus, haystack, index, kept_lines, trie, tries};
use reading::{
    agent, aipref, decide, diag, encode, explain, lex, memo, octets, parse,
    pattern, target,
};
use space::{classify, profile, settle, usage_switches};

pub use agent::is_valid_product_token;
pub use aipref::rule::UsageRule;
pub use aipref::signal::{ContentSignals, Signal, SignalScope, SignalUse};
pub use aipref::usage::{UsageDecision, UsageMatch};
pub use aipref::vocab::{
    Category, Preference, Preferences, Statement, Vocabulary, read_statement,
};
pub use classify::{Classification, classify};
pub use diag::{Diagnostic, DiagnosticKind, MAX_NOTES, notes_text};
pub use explain::{Decision, Reason, RuleMatch, Verdict};
pub use focus::ForAgent;
pub use lex::{LineRanges, line_ranges};
pub use octets::Octets;
pub use parse::{Agent, AgentToken, Group, Record, RobotsTxt, Rule, RuleKind};
pub use profile::{
    AgentMatch, BomHandling, DotSegments, FIVE_HUNDRED_KIB, GOOGLE_LINE_BYTES,
    GroupsObeyed, PreambleRules, Precedence, Priority, Profile, Switch,
    switches,
};
pub use target::{Error, ErrorKind, robots_txt_url};
pub use usage_switches::usage_switches;
