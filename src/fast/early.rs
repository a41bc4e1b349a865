//! A long URL decided on its raw path: the probe of the longest rules
//! (`adaptive::probe`) run on the path as written, before the URL is cut at
//! its fragment and canonicalised, which costs passes over every octet.
//!
//! Why this is the plain reading's verdict: let R be the raw path and T
//! the match octets (`target::match_octets`: R cut at its first `#`,
//! then canonicalised). Canonicalisation changes only `%` escapes,
//! non-ASCII octets, `*` and `$`, and copies every other octet; so when
//! R's first k octets hold none of those and no `#`, T starts with the
//! same k octets. A greedy match (`pattern`) that placed every piece of
//! a pattern within those k octets makes the same placements in T: each
//! piece's leftmost occurrence after the previous one is the same in
//! both, as they agree up to there. So every match the probe found, if
//! it ended within the plain prefix, is a match in T with the same
//! priority (pattern octets; the probe runs only under longest match by
//! pattern octets), and a verdict those matches settle (`Best::settled`:
//! no rule of any selected group can outweigh them, whether it matches
//! or not) is T's verdict. Only matches are carried over, never a
//! failure to match, which could differ. The prefix checked is at least
//! 12 octets, so T is not `/robots.txt` (always allowed, R2.2.2-10).
//!
//! Removing dot segments (profile `dot_segments`) rewrites plain
//! octets too, so under it the raw path is never probed.
//!
//! When the probe settles nothing, the caller canonicalises as usual; if
//! T turns out to be R itself, the probe is not run again.
//!
//! # Complexity
//!
//! The probe's cost (at most `PROBE_RULES` rules per indexed group, each
//! O(|R| · |pattern|) at worst) plus one scan of the prefix its matches
//! reached; nothing built or allocated. Taken only for paths of at least
//! `PROBE_TARGET` octets, where a decision probes anyway. Must never
//! carry a non-match from R to T, nor run under another precedence.

use crate::adaptive::{Obeyed, PROBE_TARGET, Scan, probe, tops};
use crate::agent::Selection;
use crate::explain::Verdict;
use crate::index::LazyIndex;
use crate::parse::RobotsTxt;
use crate::profile::{DotSegments, Precedence, Priority};
use crate::target::{is_plain, raw_path};

/// The plain prefix a settled verdict needs at least: longer than
/// `/robots.txt`.
const MIN_PLAIN: usize = 12;

/// What deciding on the raw path gave.
pub(crate) enum Raw<'u> {
    /// The verdict.
    Settled(Verdict),
    /// The probe ran on these raw octets and settled nothing usable.
    Probed(&'u [u8]),
    /// Not tried.
    Skipped,
}

impl RobotsTxt {
    /// `url`'s verdict for the groups `selection` names, if the probe of
    /// their longest rules settles it on the raw path (see the module
    /// doc); with `scan` adaptive only groups already indexed are probed.
    pub(crate) fn settle_raw<'u>(
        &self,
        selection: &Selection,
        url: &'u str,
        scan: Scan,
    ) -> Raw<'u> {
        let p = &self.profile;
        let longest = (p.precedence, p.priority)
            == (Precedence::LongestMatch, Priority::PatternOctets);
        // Removing dot segments rewrites plain octets too (see the
        // module doc): decide on the resolved path instead.
        let resolves = p.dot_segments != DotSegments::Kept;
        if !longest || resolves || url.len() < PROBE_TARGET {
            return Raw::Skipped;
        }
        let Some((_, path)) = raw_path(url) else { return Raw::Skipped };
        if path.len() < PROBE_TARGET {
            return Raw::Skipped;
        }
        let group = |i: usize| {
            let index = match scan {
                Scan::Adaptive => LazyIndex::built(&self.memos[i]),
                _ => self.index_of(i, scan),
            };
            (&self.groups[i].rules[..], index)
        };
        let obeyed = Obeyed::collect(&selection.groups, group);
        let groups = obeyed.as_slice();
        if groups.iter().all(|(_, index)| index.is_none()) {
            return Raw::Skipped;
        }
        let tops = tops(groups);
        let found = probe(groups, path, &tops, p.tie_goes_to_allow);
        match found.verdict {
            Some(v) => {
                let known = found.reach.max(MIN_PLAIN);
                match path.get(..known).is_some_and(is_plain) {
                    true => Raw::Settled(v),
                    false => Raw::Probed(path),
                }
            }
            None => Raw::Probed(path),
        }
    }
}
