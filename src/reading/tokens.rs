//! A crawler with several product tokens, most specific first
//! (`Googlebot-Image`, then `Googlebot`): which token's groups it obeys,
//! and its decision.
//!
//! The reading is Google's `RobotsMatcher::AllowedByRobotsTuple` (the
//! pair form of `robots_main`: "If there are no specific rules targeting
//! that user-agent, it falls back to the second user-agent"), generalised
//! to any number of tokens: the first token that some group names is
//! obeyed alone, its groups merged as for one token; when no group names
//! any of them, the `*` groups apply. The tokens' groups are never merged
//! with each other (that is Google's `AllowedByRobots` with a vector,
//! which no Google crawler documents). RFC 9309 speaks of one product
//! token per crawler (R2.2.1-6), so wherever the tokens lead to different
//! groups the `rfc9309` expectation is implementation-defined.
//!
//! Only picks a token; every group selection and match is `decide`'s
//! ([`RobotsTxt::decide_tokens`], with the other public decisions in the
//! fast room's `adaptive`, decides for the token picked).

use crate::agent::select;
use crate::parse::RobotsTxt;

impl RobotsTxt {
    /// The token of `tokens` (most specific first) whose groups a crawler
    /// with all of them obeys: the first one some group names, else the
    /// last (which then obeys the `*` groups, as any unnamed token
    /// would). `None` for no tokens.
    ///
    /// ```
    /// use robots_oracle::{Profile, RobotsTxt};
    /// let body = b"User-agent: Googlebot\nDisallow: /\n";
    /// let r = RobotsTxt::parse(body, &Profile::google());
    /// assert_eq!(r.token_obeyed(&["Googlebot-Image", "Googlebot"]), Some("Googlebot"));
    /// ```
    pub fn token_obeyed<'t>(&self, tokens: &[&'t str]) -> Option<&'t str> {
        tokens
            .iter()
            .copied()
            .find(|t| !select(&self.groups, t, &self.profile).global)
            .or_else(|| tokens.last().copied())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Profile, RobotsTxt, Verdict};

    const PAIR: [&str; 2] = ["Googlebot-Image", "Googlebot"];

    fn verdict(body: &str, tokens: &[&str], url: &str) -> Verdict {
        let r = RobotsTxt::parse(body.as_bytes(), &Profile::google());
        r.decide_tokens(tokens, url).map(|d| d.verdict).unwrap()
    }

    #[test]
    fn the_first_named_token_is_obeyed_alone() {
        // Both named: only the first token's group, not merged with the
        // second's (the Allow of googlebot-image wins by being alone).
        let body = "User-agent: googlebot\nDisallow: /\n\n\
                    User-agent: googlebot-image\nAllow: /pics\n";
        assert_eq!(verdict(body, &PAIR, "/pics/a.png"), Verdict::Allowed);
        assert_eq!(verdict(body, &PAIR, "/other"), Verdict::Allowed);
        let r = RobotsTxt::parse(body.as_bytes(), &Profile::google());
        assert_eq!(r.token_obeyed(&PAIR), Some("Googlebot-Image"));
    }

    #[test]
    fn an_unnamed_first_token_falls_back_to_the_second_not_to_star() {
        let body =
            "User-agent: *\nAllow: /\n\nUser-agent: googlebot\nDisallow: /x\n";
        assert_eq!(verdict(body, &PAIR, "/x"), Verdict::Disallowed);
        let d = RobotsTxt::parse(body.as_bytes(), &Profile::google())
            .decide_tokens(&PAIR, "/x")
            .unwrap();
        assert_eq!(d.groups, [4]);
        assert!(!d.global);
    }

    #[test]
    fn no_named_token_obeys_star_and_no_tokens_is_an_empty_token() {
        let body =
            "User-agent: *\nDisallow: /x\n\nUser-agent: bingbot\nAllow: /\n";
        assert_eq!(verdict(body, &PAIR, "/x"), Verdict::Disallowed);
        let r = RobotsTxt::parse(body.as_bytes(), &Profile::google());
        assert_eq!(r.token_obeyed(&PAIR), Some("Googlebot"));
        assert_eq!(r.token_obeyed(&[]), None);
        assert_eq!(verdict(body, &[], "/x"), Verdict::Disallowed);
        // One token decides as `decide`.
        for url in ["/x", "/y"] {
            let one = r.decide("bingbot", url).unwrap();
            assert_eq!(r.decide_tokens(&["bingbot"], url).unwrap(), one);
        }
    }
}
