//! The reading of the text: what RFC 9309 (and Google's documentation,
//! and the AI preference drafts) say a robots.txt file means, one module
//! per part of the text (the clause table is in the crate docs).
//!
//! | module | what it reads |
//! |---|---|
//! | `lex` | bytes to lines (§2.2 `EOL`, `NL`, `WS`, comments; §2.5) |
//! | `parse` | lines to groups, rules and records (§2.1, §2.2, §2.2.4) |
//! | `agent` | product tokens, group selection and merging (§2.2.1) |
//! | `tokens` | a crawler with several product tokens (Google's tuple) |
//! | `encode` | percent-encoding normalisation (§2.2.2 Figure 4, §2.2.3 Figure 6) |
//! | `pattern` | matching, `*` and `$` (§2.2.2, §2.2.3) |
//! | `target` | which URL octets are matched; the robots.txt URL (§2.2.2, §2.3) |
//! | `decide` | longest match, ties, no match, `/robots.txt` (§2.2.2) |
//! | `explain`, `diag`, `octets` | the decision's evidence, odd lines, the kept file |
//! | `memo` | room per group for what faster readers build (kept opaque) |
//! | `aipref` | Content-Usage (draft-ietf-aipref-attach-05), statements (vocab-07), Content-Signal |
//!
//! Must never: do I/O, panic, hold a reading that no clause or profile
//! switch names, or name the fast room (`fast`): the fast paths depend on
//! the reading, never the reverse (`tests/rooms.rs` holds it). What they
//! need, the reading offers without knowing them: `decide::FindHits`
//! (which rules match), `parse::RuleSink` (each obeyed rule as it is
//! read), `parse::RobotsTxt::parse_lexed` (lines lexed already) and
//! `memo` (a slot per group). The plain reading of every decision is
//! `RobotsTxt::decide_linear`, which the fast paths are tested against.

pub(crate) mod agent;
pub(crate) mod aipref;
pub(crate) mod decide;
pub(crate) mod diag;
pub(crate) mod encode;
pub(crate) mod explain;
pub(crate) mod lex;
pub(crate) mod memo;
pub(crate) mod octets;
pub(crate) mod parse;
pub(crate) mod pattern;
pub(crate) mod target;
pub(crate) mod tokens;
