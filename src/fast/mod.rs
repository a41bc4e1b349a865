//! The fast paths: the same answers as the reading, sooner. Each is held
//! to the plain reading (`RobotsTxt::decide_linear`) by property tests
//! and by every spec case (`decide_indexed` runs them all).
//!
//! | module | what it speeds up |
//! |---|---|
//! | `adaptive` | `decide` and `is_allowed`: the plain decision's matches found through the others, and early stops |
//! | `tries` | one group's rules tried through the haystack or the group's trie |
//! | `index` | a group's rules named as candidates by one Aho-Corasick scan |
//! | `haystack`, `trie` | pieces of many rules searched in one walk of a long target |
//! | `early` | a long URL settled on its raw path |
//! | `once` | one URL decided in the parsing pass, nothing kept (`check_once`) |
//! | `focus` | a parse for one crawler, other groups skipped (`parse_for`) |
//! | `kept_lines` | one lexing shared by the parses of several profiles (`classify`) |
//!
//! Must never: change an answer (a fast path that cannot be sure falls
//! back to the reading), or cost more than the reading's bound
//! (O(|path| · |pattern|) per rule tried).

pub(crate) mod adaptive;
pub(crate) mod early;
pub(crate) mod focus;
pub(crate) mod haystack;
pub(crate) mod index;
pub(crate) mod kept_lines;
pub(crate) mod once;
pub(crate) mod trie;
pub(crate) mod tries;
