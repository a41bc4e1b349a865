//! Which groups a crawler obeys (§2.2.1): product-token validity
//! (R2.2.1-1), case-insensitive matching (R2.2.1-6), merging every matching
//! group (R2.2.1-7), the `*` groups when none matches (R2.2.1-8), and no
//! rules at all when neither exists (R2.2.1-9); and the profile's other
//! readings of those (`groups_obeyed`, `star_groups_join_named`, the
//! agent-less group of `preamble_rules=every-crawler`). The selection is
//! the same for the fast and the plain decision paths.
//!
//! Knows nothing of paths or rules; see `decide`.

use crate::parse::{AgentToken, Group};
use crate::profile::{AgentMatch, GroupsObeyed, Profile};

/// R2.2.1-1: a product token contains only `a-z`, `A-Z`, `_` and `-`
/// (and, per the ABNF `identifier = 1*(...)`, at least one of them).
///
/// ```
/// assert!(robots_oracle::is_valid_product_token("Foo_Bar-Baz"));
/// assert!(!robots_oracle::is_valid_product_token("Foobot/2.1"));
/// ```
pub fn is_valid_product_token(token: &str) -> bool {
    !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
}

/// The groups that apply to a crawler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Selection {
    /// Indices into the file's groups, in file order.
    pub groups: Vec<usize>,
    /// The groups are the `*` fallback.
    pub global: bool,
}

/// Whether a user-agent line's `value` names the crawler `token`, compared
/// as `how` says, in any case or (`case_sensitive`, profile
/// `agent_case_sensitive`) in the case written.
pub(crate) fn names(
    value: &str,
    token: &str,
    how: AgentMatch,
    case_sensitive: bool,
) -> bool {
    match (how, case_sensitive) {
        (AgentMatch::Exact, false) => value.eq_ignore_ascii_case(token),
        (AgentMatch::Exact, true) => value == token,
        // An empty value is a substring and a prefix of every token, as
        // in the parsers these readings model (`"" in token`).
        (AgentMatch::Substring, false) => {
            token.to_ascii_lowercase().contains(&value.to_ascii_lowercase())
        }
        (AgentMatch::Substring, true) => token.contains(value),
        (AgentMatch::Prefix, false) => {
            token.len() >= value.len()
                && token.as_bytes()[..value.len()]
                    .eq_ignore_ascii_case(value.as_bytes())
        }
        (AgentMatch::Prefix, true) => token.starts_with(value),
    }
}

/// Selects the groups `token` obeys: every group naming it, else every `*`
/// group, else none (as the profile's `groups_obeyed` and
/// `star_groups_join_named` read it); plus any group without user-agent
/// lines (`preamble_rules=every-crawler`). In file order.
pub(crate) fn select(groups: &[Group], token: &str, p: &Profile) -> Selection {
    let mut specific = Vec::new();
    let mut global = Vec::new();
    let mut everyone = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        if g.agents.is_empty() {
            everyone.push(i);
            continue;
        }
        let mut is_global = false;
        let mut is_specific = false;
        for a in &g.agents {
            match &a.token {
                AgentToken::Global => is_global = true,
                AgentToken::Named(v) => {
                    is_specific |=
                        names(v, token, p.agent_match, p.agent_case_sensitive);
                }
                // Not a product token: names no crawler (R2.2.1-1; see
                // `Profile::agent_value_prefix`).
                AgentToken::Invalid(_) => {}
            }
        }
        if is_specific {
            specific.push(i);
        } else if is_global {
            global.push(i);
        }
    }
    let specific = obeyed(specific, p.groups_obeyed);
    let global = obeyed(global, p.groups_obeyed);
    let (mut chosen, is_global) = match specific.is_empty() {
        true => (global, true),
        false if p.star_groups_join_named => {
            (specific.into_iter().chain(global).collect(), false)
        }
        false => (specific, false),
    };
    chosen.extend(everyone);
    chosen.sort_unstable();
    Selection { groups: chosen, global: is_global }
}

/// The groups of `matching` (in file order) a crawler obeys.
fn obeyed(mut matching: Vec<usize>, how: GroupsObeyed) -> Vec<usize> {
    match how {
        GroupsObeyed::All => matching,
        GroupsObeyed::First => {
            matching.truncate(1);
            matching
        }
        GroupsObeyed::Last => matching.pop().into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::RobotsTxt;

    fn selected(body: &str, token: &str) -> Vec<u32> {
        let r = RobotsTxt::parse(body.as_bytes(), &Profile::rfc9309());
        let s = select(r.groups(), token, r.profile());
        s.groups.iter().map(|&i| r.groups()[i].line()).collect()
    }

    #[test]
    fn specific_groups_merge_and_hide_star() {
        let body = "user-agent: *\ndisallow: /\nuser-agent: a\nallow: /\n\
                    user-agent: b\nuser-agent: A\ndisallow: /x\n";
        assert_eq!(selected(body, "a"), [3, 5]);
        assert_eq!(selected(body, "zz"), [1]);
    }

    #[test]
    fn invalid_agent_line_ends_the_group_and_names_no_crawler() {
        let body = "User-agent: a\nDisallow: /\nUser-agent: b/1.0\nAllow: /\n";
        assert_eq!(selected(body, "a"), [1]);
        assert_eq!(selected(body, "b"), Vec::<u32>::new());
        let r = RobotsTxt::parse(body.as_bytes(), &Profile::rfc9309());
        assert_eq!(r.groups().len(), 2);
        assert_eq!(r.groups()[0].rules.len(), 1);
        let mut old = Profile::rfc9309();
        old.invalid_agent_ends_group = false;
        let r = RobotsTxt::parse(body.as_bytes(), &old);
        assert_eq!(r.groups().len(), 1);
        assert_eq!(r.groups()[0].rules.len(), 2);
    }

    fn selected_under(body: &str, token: &str, p: &Profile) -> Vec<u32> {
        let r = RobotsTxt::parse(body.as_bytes(), p);
        let s = select(r.groups(), token, r.profile());
        s.groups.iter().map(|&i| r.groups()[i].line()).collect()
    }

    const TWICE: &str = "user-agent: a\ndisallow: /1\nuser-agent: *\n\
                         disallow: /2\nuser-agent: a\ndisallow: /3\n\
                         user-agent: *\ndisallow: /4\n";

    #[test]
    fn groups_obeyed_first_or_last_keeps_one_of_each_kind() {
        let mut p = Profile::rfc9309();
        assert_eq!(selected_under(TWICE, "a", &p), [1, 5]);
        assert_eq!(selected_under(TWICE, "b", &p), [3, 7]);
        p.groups_obeyed = GroupsObeyed::First;
        assert_eq!(selected_under(TWICE, "a", &p), [1]);
        assert_eq!(selected_under(TWICE, "b", &p), [3]);
        p.groups_obeyed = GroupsObeyed::Last;
        assert_eq!(selected_under(TWICE, "a", &p), [5]);
        assert_eq!(selected_under(TWICE, "b", &p), [7]);
    }

    #[test]
    fn star_groups_join_named_adds_the_global_groups_in_file_order() {
        let mut p = Profile::rfc9309();
        p.star_groups_join_named = true;
        assert_eq!(selected_under(TWICE, "a", &p), [1, 3, 5, 7]);
        // A crawler no group names gets the `*` groups either way.
        assert_eq!(selected_under(TWICE, "b", &p), [3, 7]);
        p.groups_obeyed = GroupsObeyed::First;
        assert_eq!(selected_under(TWICE, "a", &p), [1, 3]);
    }

    #[test]
    fn preamble_rules_are_ignored_or_a_star_group_or_everyones() {
        use crate::profile::PreambleRules;
        let body = "disallow: /pre\nuser-agent: a\ndisallow: /a\n\
                    user-agent: *\ndisallow: /star\n";
        let mut p = Profile::rfc9309();
        assert_eq!(selected_under(body, "a", &p), [2]);
        assert_eq!(selected_under(body, "b", &p), [4]);
        let r = RobotsTxt::parse(body.as_bytes(), &p);
        assert_eq!(r.groups().len(), 2);
        p.preamble_rules = PreambleRules::StarGroup;
        assert_eq!(selected_under(body, "a", &p), [2]);
        assert_eq!(selected_under(body, "b", &p), [1, 4]);
        p.preamble_rules = PreambleRules::EveryCrawler;
        assert_eq!(selected_under(body, "a", &p), [1, 2]);
        assert_eq!(selected_under(body, "b", &p), [1, 4]);
        // Only before the first user-agent line: a rule after a blank
        // line that ended a group is still outside any group.
        p.blank_line_ends_group = true;
        let later = "user-agent: a\ndisallow: /a\n\ndisallow: /x\n";
        let r = RobotsTxt::parse(later.as_bytes(), &p);
        assert_eq!(r.groups().len(), 1);
        assert_eq!(r.groups()[0].rules.len(), 1);
    }

    #[test]
    fn the_fast_and_plain_paths_agree_under_the_grouping_readings() {
        use crate::profile::{PreambleRules, switches};
        let body = "disallow: /pre\nuser-agent: a\ndisallow: /1\nallow: /1/x\n\
                    user-agent: *\ndisallow: /2\nuser-agent: a\ndisallow: /3*$\n\
                    user-agent: *\nallow: /2/y\n";
        let names = [
            "records_end_agent_list=true",
            "groups_obeyed=first",
            "groups_obeyed=last",
            "star_groups_join_named=true",
            "preamble_rules=star-group",
            "preamble_rules=every-crawler",
        ];
        for name in names {
            let sw = switches().iter().find(|s| s.name == name).unwrap();
            let p = sw.applied_to(&Profile::rfc9309());
            assert_ne!(
                p.preamble_rules == PreambleRules::Ignored,
                name.starts_with("preamble")
            );
            let r = RobotsTxt::parse(body.as_bytes(), &p);
            for agent in ["a", "b"] {
                for url in
                    ["/pre", "/1", "/1/x", "/2", "/2/y", "/3", "/3/z", "/"]
                {
                    let fast = r.decide(agent, url).unwrap().verdict;
                    let plain = r.decide_linear(agent, url).unwrap().verdict;
                    let indexed =
                        r.decide_indexed(agent, url).unwrap().verdict;
                    assert_eq!(
                        (fast, indexed),
                        (plain, plain),
                        "{name} {agent} {url}"
                    );
                }
            }
        }
    }

    #[test]
    fn records_end_agent_list_splits_the_user_agent_lines() {
        let body = "user-agent: a\nsp: il\nuser-agent: b\ndisallow: /\n\
                    user-agent: c\nsitemap: https://e.com/s\nuser-agent: d\n\
                    disallow: /d\n";
        let mut p = Profile::rfc9309();
        assert_eq!(selected_under(body, "a", &p), [1]);
        assert_eq!(selected_under(body, "c", &p), [5]);
        p.records_end_agent_list = true;
        let r = RobotsTxt::parse(body.as_bytes(), &p);
        assert_eq!(r.groups().len(), 4);
        assert!(r.groups()[0].rules.is_empty());
        assert_eq!(selected_under(body, "b", &p), [3]);
        assert!(r.decide("a", "/x").unwrap().is_allowed());
        assert!(!r.decide("b", "/x").unwrap().is_allowed());
        assert!(r.decide("c", "/d").unwrap().is_allowed());
        assert_eq!(r.sitemaps().count(), 1);
    }

    #[test]
    fn product_tokens() {
        assert!(is_valid_product_token("FooBot"));
        for bad in ["", "ツ", "Foobot*", " Foobot ", "Bot2", "Foobot Bar"] {
            assert!(!is_valid_product_token(bad), "{bad:?}");
        }
    }
}
