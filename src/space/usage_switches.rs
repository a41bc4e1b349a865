//! The readings of AI usage preferences and Content-Signal lines: the
//! values the two profile fields that say how a file's preferences are
//! read can take in another reading (`content_signal_scope`,
//! `usage_vocabulary`; spec-cases/PROFILES.md names the evidence for
//! each).
//!
//! They never change an Allow/Disallow verdict, so the switch-space
//! search (`classify`) and the fit of verdicts leave them out. A `usage`
//! or `content_signal` check's `readings` name them, and the `spec`
//! target holds the oracle under each to the answer the check states.
//!
//! Must never: switch a field that can decide an Allow/Disallow verdict
//! (the search, which does not toggle these, would then miss it), or
//! name a reading without its source.

use crate::aipref::signal::SignalScope;
use crate::aipref::vocab::Vocabulary;
use crate::profile::{Profile, Switch};

/// Every value of `content_signal_scope` and `usage_vocabulary`, each as
/// a switch (axis `usage`). Applying one that equals the profile's
/// current value changes nothing; [`Switch::changes`] tells.
pub fn usage_switches() -> &'static [Switch] {
    macro_rules! sw {
        ($name:literal, [$($c:literal),*], |$p:ident| $body:expr) => {
            Switch {
                name: $name,
                axis: "usage",
                clauses: &[$($c),*],
                apply: |$p: &mut Profile| { $body; },
            }
        };
    }
    const ALL: &[Switch] = &[
        sw!("content_signal_scope=group", ["S-CS-SYNTAX"], |p| p
            .content_signal_scope =
            SignalScope::Group),
        sw!("content_signal_scope=group-or-star", ["S-CS-SYNTAX"], |p| p
            .content_signal_scope =
            SignalScope::GroupOrStar),
        sw!("content_signal_scope=star-groups", ["S-CS-SYNTAX"], |p| p
            .content_signal_scope =
            SignalScope::StarGroups),
        sw!("content_signal_scope=file", ["S-CS-SYNTAX"], |p| p
            .content_signal_scope =
            SignalScope::File),
        sw!("usage_vocabulary=vocab-06", ["AIPREF-VOCAB06-5-1"], |p| p
            .usage_vocabulary =
            Vocabulary::Vocab06),
        sw!("usage_vocabulary=vocab-07", ["AIPREF-VOCAB06-5-1"], |p| p
            .usage_vocabulary =
            Vocabulary::Vocab07),
    ];
    ALL
}

#[cfg(test)]
mod tests {
    use super::usage_switches;
    use crate::profile::{Profile, switches};

    #[test]
    fn each_touches_only_the_usage_fields() {
        for s in usage_switches() {
            for base in
                [Profile::rfc9309(), Profile::google(), Profile::aipref()]
            {
                let mut p = s.applied_to(&base);
                p.content_signal_scope = base.content_signal_scope;
                p.usage_vocabulary = base.usage_vocabulary;
                assert_eq!(p, base, "{}", s.name);
            }
        }
    }

    #[test]
    fn each_changes_some_profile_and_names_apart_from_the_verdict_switches() {
        let base = Profile::aipref();
        let mut changed = 0;
        for s in usage_switches() {
            assert!(
                !switches().iter().any(|v| v.name == s.name),
                "{}",
                s.name
            );
            assert_eq!(s.axis, "usage");
            changed += usize::from(s.changes(&base));
        }
        // Every value but the profile's own two.
        assert_eq!(changed, usage_switches().len() - 2);
    }
}
