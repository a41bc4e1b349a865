//! A parse for one crawler: [`RobotsTxt::parse_for`] reads a file once and
//! keeps only the groups the crawler obeys (§2.2.1), as [`ForAgent`], whose
//! decisions for that crawler are the full parse's, explanation included.
//!
//! As it reads, the parser (`parse`) asks `agent` whether each group names
//! the crawler, once the group's user-agent lines are read. The rules of
//! a group it does not obey are recognised as rules (so that the next
//! user-agent line still starts a new group, R2.1-3) but not compiled,
//! and its records are not kept; the `*` groups kept so far are dropped as
//! soon as a group naming the crawler appears, and later `*` groups are
//! skipped. Sitemaps, records outside groups and diagnostics are not kept
//! (use [`RobotsTxt::parse`] for them).
//!
//! # Complexity
//!
//! One pass over the file, O(|file|) line splitting (`memchr`) and key
//! recognition; pattern compilation and allocation only for the kept
//! groups. Decisions cost what they cost on a full parse of the kept
//! groups (see `decide`), less the selection of groups, made once at
//! parse time. Must never answer for another crawler: the crawler is
//! fixed at parse time.

use crate::agent::{Selection, select};
use crate::explain::Decision;
use crate::parse::{Group, RobotsTxt};
use crate::profile::Profile;
use crate::target::Error;

/// The groups of a robots.txt file that one crawler obeys, parsed for it
/// alone (see [`RobotsTxt::parse_for`]).
///
/// ```
/// use robots_oracle::{Profile, RobotsTxt};
/// let body = b"User-agent: a\nDisallow: /\n\nUser-agent: foobot\nAllow: /\n";
/// let mine = RobotsTxt::parse_for(body, &Profile::rfc9309(), "FooBot");
/// assert_eq!(mine.groups().len(), 1);
/// assert!(mine.is_allowed("/x"));
/// let full = RobotsTxt::parse(body, &Profile::rfc9309());
/// assert_eq!(mine.decide("/x")?, full.decide("FooBot", "/x")?);
/// # Ok::<(), robots_oracle::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ForAgent {
    robots: RobotsTxt,
    agent: String,
    /// The groups of `robots` the agent obeys, selected once.
    selection: Selection,
}

impl RobotsTxt {
    /// Parses `body` for the crawler with product token `agent` alone:
    /// the groups it does not obey are skipped as they are read. Its
    /// decisions equal `RobotsTxt::parse(body, profile).decide(agent, ..)`.
    pub fn parse_for(body: &[u8], profile: &Profile, agent: &str) -> ForAgent {
        let robots = RobotsTxt::parse_focused(body, profile, agent);
        let selection = select(robots.groups(), agent, robots.profile());
        ForAgent { robots, agent: agent.to_string(), selection }
    }
}

impl ForAgent {
    /// The crawler's product token, as given.
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The groups the crawler obeys, in file order.
    pub fn groups(&self) -> &[Group] {
        self.robots.groups()
    }

    /// The profile the file was parsed under.
    pub fn profile(&self) -> &Profile {
        self.robots.profile()
    }

    /// [`RobotsTxt::decide`] for the crawler.
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub fn decide(&self, url: &str) -> Result<Decision, Error> {
        self.robots.decide(&self.agent, url)
    }

    /// [`RobotsTxt::decide_linear`] for the crawler.
    ///
    /// # Errors
    ///
    /// When `url` is neither an absolute URL nor a path from `/`.
    pub fn decide_linear(&self, url: &str) -> Result<Decision, Error> {
        self.robots.decide_linear(&self.agent, url)
    }

    /// [`RobotsTxt::is_allowed`] for the crawler.
    pub fn is_allowed(&self, url: &str) -> bool {
        self.robots.is_allowed_in(&self.agent, &self.selection, url)
    }

    /// [`RobotsTxt::crawl_delay`] for the crawler.
    pub fn crawl_delay(&self) -> Option<&str> {
        self.robots.crawl_delay(&self.agent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &[u8] = b"User-agent: *\nDisallow: /all\n\n\
        User-agent: OtherBot\nUser-agent: also\nDisallow: /\nCrawl-delay: 9\n\n\
        User-agent: FooBot\nAllow: /all\nDisallow: /foo\nCrawl-delay: 3\n\
        Sitemap: https://example.com/s.xml\n\
        User-agent: *\nDisallow: /later\n\
        User-agent: foobot\nDisallow: /second\n";

    fn lines(r: &ForAgent) -> Vec<u32> {
        r.groups().iter().map(Group::line).collect()
    }

    #[test]
    fn only_the_obeyed_groups_are_kept() {
        let p = Profile::rfc9309();
        let foo = RobotsTxt::parse_for(BODY, &p, "FooBot");
        assert_eq!(lines(&foo), [9, 16]);
        assert_eq!(foo.crawl_delay(), Some("3"));
        let other = RobotsTxt::parse_for(BODY, &p, "otherbot");
        assert_eq!(lines(&other), [4]);
        let none = RobotsTxt::parse_for(BODY, &p, "NoBot");
        assert_eq!(lines(&none), [1, 14]);
        let full = RobotsTxt::parse(BODY, &p);
        for (agent, r) in [("FooBot", &foo), ("otherbot", &other)] {
            for url in ["/all", "/foo", "/later", "/second", "/x", "/"] {
                assert_eq!(r.decide(url), full.decide(agent, url), "{url}");
                assert_eq!(r.decide_linear(url), full.decide(agent, url));
                assert_eq!(r.is_allowed(url), full.is_allowed(agent, url));
            }
        }
    }

    #[test]
    fn a_record_before_the_user_agent_line_naming_the_crawler_is_kept() {
        // The crawl-delay is read while the group names only OtherBot; the
        // next user-agent line joins FooBot to the same group (R2.2.4-3).
        let body = b"User-agent: OtherBot\nCrawl-delay: 10\n\
            User-agent: FooBot\nDisallow: /x\n\nUser-agent: Bar\nCrawl-delay: 3\n";
        let p = Profile::rfc9309();
        let full = RobotsTxt::parse(body, &p);
        let mine = RobotsTxt::parse_for(body, &p, "FooBot");
        assert_eq!(mine.crawl_delay(), Some("10"));
        assert_eq!(mine.crawl_delay(), full.crawl_delay("FooBot"));
        assert_eq!(mine.groups(), &full.groups()[..1]);
        let other = RobotsTxt::parse_for(body, &p, "Baz");
        assert!(other.groups().is_empty());
    }

    #[test]
    fn skipped_groups_still_end_at_the_next_user_agent_line() {
        // `b`'s rule is skipped for `a`, but it still makes the next
        // user-agent line start a new group, which names `a`.
        let body =
            b"User-agent: b\nDisallow: /b\nUser-agent: a\nDisallow: /a\n";
        let p = Profile::rfc9309();
        let a = RobotsTxt::parse_for(body, &p, "a");
        assert_eq!(lines(&a), [3]);
        assert!(!a.is_allowed("/a") && a.is_allowed("/b"));
        // A rejected rule does not end the list of user-agent lines.
        let body = b"User-agent: b\nDisallow: x\nUser-agent: a\nDisallow: /\n";
        let full = RobotsTxt::parse(body, &p);
        let a = RobotsTxt::parse_for(body, &p, "a");
        for url in ["/b", "/x", "/"] {
            assert_eq!(a.decide(url), full.decide("a", url), "{url}");
        }
    }
}
