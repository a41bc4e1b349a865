//! Which groups a crawler obeys (§2.2.1): product-token validity
//! (R2.2.1-1), case-insensitive matching (R2.2.1-6), merging every matching
//! group (R2.2.1-7), the `*` groups when none matches (R2.2.1-8), and no
//! rules at all when neither exists (R2.2.1-9).
//!
//! Knows nothing of paths or rules; see `decide`.

use crate::parse::{AgentToken, Group};
use crate::profile::{AgentMatch, Profile};

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

pub(crate) fn names(value: &str, token: &str, how: AgentMatch) -> bool {
    match how {
        AgentMatch::Exact => value.eq_ignore_ascii_case(token),
        // An empty value is a substring and a prefix of every token, as
        // in the parsers these readings model (`"" in token`).
        AgentMatch::Substring => {
            token.to_ascii_lowercase().contains(&value.to_ascii_lowercase())
        }
        AgentMatch::Prefix => {
            token.len() >= value.len()
                && token.as_bytes()[..value.len()]
                    .eq_ignore_ascii_case(value.as_bytes())
        }
    }
}

/// Selects the groups `token` obeys: every group naming it, else every `*`
/// group, else none.
pub(crate) fn select(groups: &[Group], token: &str, p: &Profile) -> Selection {
    let mut specific = Vec::new();
    let mut global = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let mut is_global = false;
        let mut is_specific = false;
        for a in &g.agents {
            match &a.token {
                AgentToken::Global => is_global = true,
                AgentToken::Named(v) => {
                    is_specific |= names(v, token, p.agent_match);
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
    if specific.is_empty() {
        Selection { groups: global, global: true }
    } else {
        Selection { groups: specific, global: false }
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

    #[test]
    fn product_tokens() {
        assert!(is_valid_product_token("FooBot"));
        for bad in ["", "ツ", "Foobot*", " Foobot ", "Bot2", "Foobot Bar"] {
            assert!(!is_valid_product_token(bad), "{bad:?}");
        }
    }
}
