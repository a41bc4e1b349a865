//! `usage(agent, url)`: the usage preferences that apply to one URL for
//! one crawler (draft-ietf-aipref-attach-05 §3.1, with
//! draft-ietf-aipref-vocab-07 §5.1 for combining).
//!
//! 1. The crawler is asked first whether it may crawl the URL
//!    ([`RobotsTxt::decide`]): "Usage preferences apply only to those
//!    resources that can be crawled according to Allow/Disallow rules;
//!    no preferences are implied for resources that are disallowed".
//! 2. The groups are those [`RobotsTxt::decide`] obeys (§3.1: "Each group
//!    in the file applies to a set of crawlers"): a named group does not
//!    inherit the `*` group's rules, groups naming the crawler merge.
//! 3. Among their Content-Usage rules that match the URL (same
//!    percent-encoding normalisation and `*` / `$` matching as Allow and
//!    Disallow; a rule without a path matches every URL with the least
//!    specificity), the most specific decide: "the path prefix length is
//!    determined by counting the number of bytes in the encoded path".
//! 4. Rules of equal specificity are combined per category (§3.1:
//!    "identical paths and conflicting usage preferences ... apply
//!    separately according to Section 7.1 of VOCAB": any `n`, else any
//!    `y`, else unknown). Rules of equal length but different paths are
//!    combined the same way (the draft is silent; S-AIPREF-TIE).
//!
//! Only under a profile whose `content_usage_rule` is on are there
//! Content-Usage rules; under the others every crawlable URL has every
//! preference unknown. Never panics; each rule costs
//! O(|path| · |pattern|), as for Allow and Disallow.

use std::fmt;

use crate::agent::select;
use crate::aipref::rule::UsageRule;
use crate::aipref::signal::{ContentSignals, SignalScope};
use crate::aipref::vocab::Preferences;
use crate::decide::FindHits;
use crate::explain::Decision;
use crate::parse::{AgentToken, Record, RobotsTxt};
use crate::pattern::Plain;
use crate::profile::Priority;
use crate::target::{Error, match_octets};

/// A Content-Usage rule that matched the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UsageMatch {
    /// The rule's 1-based line number.
    pub line: u32,
    /// The path as written (empty when absent).
    pub path: String,
    /// The statement of preference as written.
    pub statement: String,
    /// The statement as read.
    pub preferences: Preferences,
    /// Why the statement did not parse as a Dictionary, if it did not.
    pub error: Option<String>,
    /// Its specificity (octets of the normalised path; 0 without one).
    pub priority: usize,
}

/// The usage preferences for one crawler and one URL, with evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UsageDecision {
    /// Whether the crawler may crawl the URL, and why.
    pub crawl: Decision,
    /// The preferences; `None` for a URL that may not be crawled.
    pub preferences: Option<Preferences>,
    /// Every Content-Usage rule of the obeyed groups that matched, in
    /// file order.
    pub candidates: Vec<UsageMatch>,
    /// The lines of the rules that decided (the most specific ones).
    pub deciding: Vec<u32>,
    /// The clause that settles the outcome.
    pub clause: &'static str,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl RobotsTxt {
    /// [`RobotsTxt::usage`], the crawl decision's matching rules found
    /// by `find` (the plain reading: `decide::EveryRule`).
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub(crate) fn usage_with(
        &self,
        agent: &str,
        url: &str,
        find: &impl FindHits,
    ) -> Result<UsageDecision, Error> {
        let crawl = self.decide_with(agent, url, find)?;
        if !crawl.is_allowed() {
            return Ok(UsageDecision {
                crawl,
                preferences: None,
                candidates: Vec::new(),
                deciding: Vec::new(),
                clause: "AIPREF-ATTACH-3.1-3",
            });
        }
        let target = match_octets(url, &self.profile)?;
        let selection = select(&self.groups, agent, &self.profile);
        let mut hits: Vec<(&UsageRule, usize)> = Vec::new();
        for &i in &selection.groups {
            for rule in &self.groups[i].usage {
                let priority = match rule.shape() {
                    None => Some(0),
                    Some(shape) if shape.is_empty() => Some(0),
                    Some(shape) => {
                        shape.matches_in(&Plain(&target)).map(|end| match self
                            .profile
                            .priority
                        {
                            Priority::PatternOctets => {
                                shape.normalized().len()
                            }
                            Priority::MatchedOctets => end,
                        })
                    }
                };
                if let Some(p) = priority {
                    hits.push((rule, p));
                }
            }
        }
        hits.sort_by_key(|(r, _)| r.line);
        let top = hits.iter().map(|&(_, p)| p).max();
        let deciding: Vec<&UsageRule> = hits
            .iter()
            .filter(|&&(_, p)| Some(p) == top)
            .map(|&(r, _)| r)
            .collect();
        let preferences = deciding
            .iter()
            .map(|r| r.read.preferences)
            .reduce(Preferences::combine)
            .unwrap_or_default();
        let clause = match deciding.len() {
            0 => "AIPREF-VOCAB-3-2",
            1 => "AIPREF-ATTACH-3.1-2",
            _ => "AIPREF-ATTACH-3.1-5",
        };
        Ok(UsageDecision {
            crawl,
            preferences: Some(preferences),
            candidates: hits
                .iter()
                .map(|&(r, priority)| UsageMatch {
                    line: r.line,
                    path: r
                        .path
                        .as_ref()
                        .map(|p| lossy(p))
                        .unwrap_or_default(),
                    statement: lossy(&r.statement),
                    preferences: r.read.preferences,
                    error: r.read.error.clone(),
                    priority,
                })
                .collect(),
            deciding: deciding.iter().map(|r| r.line).collect(),
            clause,
        })
    }

    /// The Content-Signal values that apply to `agent` under the
    /// profile's [`SignalScope`], combined, and the lines they come from
    /// (see `aipref::signal`).
    pub fn content_signals(&self, agent: &str) -> (ContentSignals, Vec<u32>) {
        fn take<'a>(lines: &mut Vec<(u32, &'a str)>, records: &'a [Record]) {
            let is_signal =
                |key: &str| key.eq_ignore_ascii_case("content-signal");
            for r in records.iter().filter(|r| is_signal(&r.key)) {
                lines.push((r.line, r.value.as_str()));
            }
        }
        let mut lines: Vec<(u32, &str)> = Vec::new();
        let is_star = |a: &crate::parse::Agent| a.token == AgentToken::Global;
        let star_groups =
            || self.groups.iter().filter(|g| g.agents.iter().any(is_star));
        let scope = self.profile.content_signal_scope;
        match scope {
            SignalScope::Group | SignalScope::GroupOrStar => {
                let selection = select(&self.groups, agent, &self.profile);
                for &i in &selection.groups {
                    take(&mut lines, &self.groups[i].records);
                }
                let fall_back = scope == SignalScope::GroupOrStar
                    && lines.is_empty()
                    && !selection.global;
                for g in star_groups().filter(|_| fall_back) {
                    take(&mut lines, &g.records);
                }
            }
            SignalScope::StarGroups => {
                for g in star_groups() {
                    take(&mut lines, &g.records);
                }
            }
            SignalScope::File => {
                take(&mut lines, &self.records);
                for g in &self.groups {
                    take(&mut lines, &g.records);
                }
            }
        }
        lines.sort_by_key(|&(l, _)| l);
        let signals = lines
            .iter()
            .map(|(_, v)| ContentSignals::read(v))
            .fold(ContentSignals::default(), ContentSignals::combine);
        (signals, lines.into_iter().map(|(l, _)| l).collect())
    }
}

impl fmt::Display for UsageMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(no path)" } else { &self.path };
        write!(
            f,
            "line {}: content-usage: {path} {} → {} (priority {})",
            self.line, self.statement, self.preferences, self.priority
        )?;
        if let Some(e) = &self.error {
            write!(f, " [not a Dictionary: {e}; every category unknown]")?;
        }
        Ok(())
    }
}

/// The explanation `check --usage --explain` prints.
impl fmt::Display for UsageDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(p) = &self.preferences else {
            return writeln!(
                f,
                "  usage: none: the URL may not be crawled, so no preference \
                 applies ({})",
                self.clause
            );
        };
        writeln!(f, "  usage: {p} ({})", self.clause)?;
        for c in &self.candidates {
            let mark = if self.deciding.contains(&c.line) {
                "decides"
            } else {
                "matched"
            };
            writeln!(f, "  {mark} {c}")?;
        }
        if self.candidates.is_empty() {
            writeln!(
                f,
                "  no Content-Usage rule of the obeyed groups matches: every category unknown"
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Preference, Profile, RobotsTxt, Verdict};

    /// attach-05 §3.4, Figure 2 and Table 1.
    const EXAMPLE: &[u8] = b"User-Agent: *\nAllow: /\nDisallow: /never/\n\
Content-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n\
User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n";

    fn train(r: &RobotsTxt, agent: &str, url: &str) -> Option<Preference> {
        r.usage(agent, url).unwrap().preferences.map(|p| p.train_ai)
    }

    #[test]
    fn the_draft_s_table() {
        let r = RobotsTxt::parse(EXAMPLE, &Profile::aipref());
        assert_eq!(train(&r, "FooBot", "/test"), Some(Preference::Disallowed));
        assert_eq!(train(&r, "FooBot", "/never/test"), None);
        assert_eq!(
            train(&r, "FooBot", "/ai-ok/test"),
            Some(Preference::Allowed)
        );
        assert_eq!(
            train(&r, "ExampleBot", "/never/test"),
            Some(Preference::Allowed)
        );
        let u = r.usage("FooBot", "/ai-ok/test").unwrap();
        assert_eq!(u.deciding, vec![5]);
        assert_eq!(u.candidates.len(), 2);
    }

    #[test]
    fn other_profiles_read_no_preference() {
        for p in [Profile::rfc9309(), Profile::google()] {
            let r = RobotsTxt::parse(EXAMPLE, &p);
            let u = r.usage("FooBot", "/ai-ok/test").unwrap();
            assert!(u.preferences.unwrap().is_unknown(), "{}", p.name);
        }
    }

    #[test]
    fn a_content_usage_line_ends_the_user_agent_list_under_aipref_only() {
        let body = b"User-agent: GPTBot\nContent-Usage: train-ai=n\n\
User-agent: CCBot\nDisallow: /\n";
        let aipref = RobotsTxt::parse(body, &Profile::aipref());
        let rfc = RobotsTxt::parse(body, &Profile::rfc9309());
        assert_eq!(aipref.groups().len(), 2);
        assert_eq!(rfc.groups().len(), 1);
        let v = |r: &RobotsTxt| r.decide("GPTBot", "/x").unwrap().verdict;
        assert_eq!(v(&aipref), Verdict::Allowed);
        assert_eq!(v(&rfc), Verdict::Disallowed);
        assert!(aipref.is_allowed("GPTBot", "/x"));
        assert!(RobotsTxt::check_once(
            body,
            &Profile::aipref(),
            "GPTBot",
            "/x"
        ));
        assert!(!RobotsTxt::check_once(
            body,
            &Profile::rfc9309(),
            "GPTBot",
            "/x"
        ));
    }

    #[test]
    fn identical_paths_combine_any_n_wins() {
        let body = b"User-agent: *\nContent-Usage: /a train-ai=y, search=y\n\
Content-Usage: /a train-ai=n\nContent-Usage: /ab search=n\n";
        let r = RobotsTxt::parse(body, &Profile::aipref());
        let p = r.usage("x", "/a").unwrap().preferences.unwrap();
        assert_eq!(
            (p.train_ai, p.search),
            (Preference::Disallowed, Preference::Allowed)
        );
        let p = r.usage("x", "/abc").unwrap().preferences.unwrap();
        assert_eq!(
            (p.train_ai, p.search),
            (Preference::Unknown, Preference::Disallowed)
        );
    }

    mod properties {
        use proptest::prelude::*;

        use crate::test_support::{body, profile};
        use crate::{Profile, RobotsTxt};

        proptest! {
            /// attach-05 §3.1: a URL that may not be crawled has no
            /// preference, and `usage` agrees with `decide` on whether it
            /// may; under a profile without the Content-Usage rule every
            /// preference is unknown.
            #[test]
            fn usage_agrees_with_decide_on_crawlability(
                body in body(),
                p in profile(),
                url in prop::sample::select(vec!["/", "/x", "/x/y", "/p?q", "/%E3%83%84"]),
                agent in prop::sample::select(vec!["a", "FooBot", ""]),
            ) {
                for p in [p, Profile::aipref()] {
                    let r = RobotsTxt::parse(&body, &p);
                    let u = r.usage(agent, url).unwrap();
                    let d = r.decide(agent, url).unwrap();
                    prop_assert_eq!(u.preferences.is_some(), d.is_allowed());
                    prop_assert_eq!(&u.crawl, &d);
                    if !p.content_usage_rule {
                        prop_assert!(u.preferences.is_none_or(|x| x.is_unknown()));
                    }
                    for line in &u.deciding {
                        prop_assert!(u.candidates.iter().any(|c| c.line == *line));
                    }
                }
            }
        }
    }

    #[test]
    fn content_signal_scopes() {
        use crate::SignalScope;
        let body = b"Content-Signal: search=no\n\
User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\n\
User-agent: GPTBot\nDisallow: /\n\n\
User-agent: FooBot\nContent-Signal: ai-input=no\n";
        let read = |scope, agent| {
            let mut p = Profile::aipref();
            p.content_signal_scope = scope;
            let (s, lines) = RobotsTxt::parse(body, &p).content_signals(agent);
            (s.to_string(), lines)
        };
        use SignalScope::*;
        assert_eq!(
            read(Group, "Googlebot"),
            ("search=yes, ai-train=no".into(), vec![3])
        );
        assert_eq!(read(Group, "GPTBot"), (String::new(), vec![]));
        assert_eq!(read(Group, "FooBot"), ("ai-input=no".into(), vec![10]));
        assert_eq!(
            read(GroupOrStar, "GPTBot"),
            ("search=yes, ai-train=no".into(), vec![3])
        );
        assert_eq!(
            read(GroupOrStar, "FooBot"),
            ("ai-input=no".into(), vec![10])
        );
        assert_eq!(
            read(StarGroups, "FooBot"),
            ("search=yes, ai-train=no".into(), vec![3])
        );
        assert_eq!(
            read(File, "GPTBot"),
            ("search=no, ai-input=no, ai-train=no".into(), vec![1, 3, 10])
        );
    }
}
