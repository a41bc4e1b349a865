//! The parsers being timed: the oracle (its crawler's path:
//! `RobotsTxt::parse_for` and `is_allowed`; and its plain reading: a full
//! parse and `decide_linear`) and the
//! in-process Rust crates, each called the way its adapter file in
//! `adapters/src/rust/` calls it (bodies as `&str` through
//! `from_utf8_lossy` for the crates that take text; absolute URLs for the
//! crates that want them, built once outside the timed loop).
//!
//! Subjects are called directly, not through the `Adapter` trait (the
//! benchmark times parsers, not adapters); this is one of the few places
//! outside `adapters/` that names a parser crate or the oracle, and it
//! never judges their answers.

use std::hint::black_box;

use robots_adapters::rust::text;
use robots_oracle::{Profile, RobotsTxt};

use super::{AGENT, Query};

/// Runs a prepared check: a parsed file and a closure deciding one query.
pub type Run<'r> = &'r mut dyn FnMut(&mut dyn FnMut(&Query) -> bool);

/// One parser under test.
pub struct Subject {
    /// The name in tables and benchmark ids.
    pub name: &'static str,
    /// Parses a body and drops the result; `None` when it would time the
    /// same code as another subject.
    pub parse: Option<fn(&[u8])>,
    /// Parses a body and decides one query for [`AGENT`].
    pub parse_check: fn(&[u8], &Query) -> bool,
    /// Parses `body` once, then hands `run` a closure that decides one
    /// query against it (one-shot APIs parse again on every query).
    pub prepared: fn(body: &str, run: Run<'_>),
    /// Why the hostile workloads are cut down for this parser, if they
    /// are (see `Hostile::bounded`).
    pub bounded: Option<&'static str>,
    /// What to keep in mind when reading its figures.
    pub note: &'static str,
    /// The adapter of the same crate (`adapters/src/rust/`), whose
    /// claimed profile its answers are judged under (`agreement`);
    /// `None` for the oracle's own subjects.
    pub adapter: Option<&'static str>,
}

/// The oracle's profile in benchmarks: rfc9309 without the 500 KiB parse
/// limit, so that it reads every byte the peers read.
pub fn oracle_profile() -> Profile {
    let mut p = Profile::rfc9309();
    p.parse_limit = usize::MAX;
    p
}

fn oracle_parse(body: &[u8]) {
    black_box(RobotsTxt::parse(body, &oracle_profile()));
}

/// One check in one pass: the rules of the groups [`AGENT`] obeys are
/// matched as they are read, and nothing is kept.
fn oracle_parse_check(body: &[u8], q: &Query) -> bool {
    RobotsTxt::check_once(body, &oracle_profile(), AGENT, &q.path)
}

/// A crawler's parse: only the groups [`AGENT`] obeys are kept.
fn oracle_prepared(body: &str, run: Run<'_>) {
    let r = RobotsTxt::parse_for(body.as_bytes(), &oracle_profile(), AGENT);
    run(&mut |q| r.is_allowed(&q.path));
}

fn linear_parse_check(body: &[u8], q: &Query) -> bool {
    let r = RobotsTxt::parse(body, &oracle_profile());
    r.decide_linear(AGENT, &q.path).map_or(true, |d| d.is_allowed())
}

fn linear_prepared(body: &str, run: Run<'_>) {
    let r = RobotsTxt::parse(body.as_bytes(), &oracle_profile());
    run(&mut |q| {
        r.decide_linear(AGENT, &q.path).map_or(true, |d| d.is_allowed())
    });
}

/// `robotstxt` (Google port): a parse is a pass of its tokenizer with a
/// handler that does nothing; a check is a full one-shot parse.
mod google {
    use robotstxt::{DefaultMatcher, RobotsParseHandler, parse_robotstxt};

    use super::{AGENT, Query, Run, text};

    struct Nothing;

    impl RobotsParseHandler for Nothing {
        fn handle_robots_start(&mut self) {}
        fn handle_robots_end(&mut self) {}
        fn handle_user_agent(&mut self, _: u32, _: &str) {}
        fn handle_allow(&mut self, _: u32, _: &str) {}
        fn handle_disallow(&mut self, _: u32, _: &str) {}
        fn handle_sitemap(&mut self, _: u32, _: &str) {}
        fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {}
    }

    pub fn parse(body: &[u8]) {
        parse_robotstxt(&text(body), &mut Nothing);
    }

    pub fn parse_check(body: &[u8], q: &Query) -> bool {
        let mut m = DefaultMatcher::default();
        m.one_agent_allowed_by_robots(&text(body), AGENT, &q.absolute)
    }

    pub fn prepared(body: &str, run: Run<'_>) {
        run(&mut |q| {
            let mut m = DefaultMatcher::default();
            m.one_agent_allowed_by_robots(body, AGENT, &q.absolute)
        });
    }
}

mod texting {
    use std::hint::black_box;

    use texting_robots::Robot;

    use super::{AGENT, Query, Run};

    pub fn parse(body: &[u8]) {
        black_box(Robot::new(AGENT, body).ok());
    }

    pub fn parse_check(body: &[u8], q: &Query) -> bool {
        Robot::new(AGENT, body).is_ok_and(|r| r.allowed(&q.path))
    }

    pub fn prepared(body: &str, run: Run<'_>) {
        let r = Robot::new(AGENT, body.as_bytes()).ok();
        run(&mut |q| r.as_ref().is_some_and(|r| r.allowed(&q.path)));
    }
}

mod robotxt {
    use std::hint::black_box;

    use robotxt::Robots;

    use super::{AGENT, Query, Run};

    pub fn parse(body: &[u8]) {
        let _ = black_box(Robots::parse(body, AGENT));
    }

    pub fn parse_check(body: &[u8], q: &Query) -> bool {
        Robots::parse(body, AGENT).is_allowed(&q.path)
    }

    pub fn prepared(body: &str, run: Run<'_>) {
        let r = Robots::parse(body.as_bytes(), AGENT);
        run(&mut |q| r.is_allowed(&q.path));
    }
}

/// `robots_txt`: the adapter builds its `SimpleMatcher` per call; a
/// prepared file builds it once.
mod robots_txt {
    use std::hint::black_box;

    use robots_txt::Robots;
    use robots_txt::matcher::SimpleMatcher;

    use super::{AGENT, Query, Run, text};

    pub fn parse(body: &[u8]) {
        black_box(Robots::from_str_lossy(&text(body)));
    }

    pub fn parse_check(body: &[u8], q: &Query) -> bool {
        let body = text(body);
        let r = Robots::from_str_lossy(&body);
        let section = r.choose_section(AGENT);
        SimpleMatcher::new(&section.rules).check_path(&q.path)
    }

    pub fn prepared(body: &str, run: Run<'_>) {
        let r = Robots::from_str_lossy(body);
        let m = SimpleMatcher::new(&r.choose_section(AGENT).rules);
        run(&mut |q| m.check_path(&q.path));
    }
}

mod robotparser {
    use std::hint::black_box;

    use robotparser::parser::parse_robots_txt;
    use robotparser::service::RobotsTxtService;

    use super::{Query, Run, text};
    use crate::{AGENT, origin};

    pub fn parse(body: &[u8]) {
        black_box(parse_robots_txt(origin(), &text(body)).get_result());
    }

    pub fn parse_check(body: &[u8], q: &Query) -> bool {
        let r = parse_robots_txt(origin(), &text(body)).get_result();
        r.can_fetch(AGENT, &q.url)
    }

    pub fn prepared(body: &str, run: Run<'_>) {
        let r = parse_robots_txt(origin(), body).get_result();
        run(&mut |q| r.can_fetch(AGENT, &q.url));
    }
}

mod robotstxt_rs {
    use std::hint::black_box;

    use robotstxt_rs::RobotsTxt;

    use super::{AGENT, Query, Run, text};

    pub fn parse(body: &[u8]) {
        black_box(RobotsTxt::parse(&text(body)));
    }

    pub fn parse_check(body: &[u8], q: &Query) -> bool {
        RobotsTxt::parse(&text(body)).can_fetch(AGENT, &q.path)
    }

    pub fn prepared(body: &str, run: Run<'_>) {
        let r = RobotsTxt::parse(body);
        run(&mut |q| r.can_fetch(AGENT, &q.path));
    }
}

/// Every subject, the oracle first (ratios are to it).
pub fn all() -> Vec<Subject> {
    vec![
        Subject {
            name: "oracle",
            parse: Some(oracle_parse),
            parse_check: oracle_parse_check,
            prepared: oracle_prepared,
            bounded: None,
            note: "check_once, or parse_for(AGENT): the agent's groups \
                   only; index built on the 4th decision of a group",
            adapter: None,
        },
        Subject {
            name: "oracle-linear",
            parse: None,
            parse_check: linear_parse_check,
            prepared: linear_prepared,
            bounded: None,
            note: "the plain reading: every rule, octet by octet",
            adapter: None,
        },
        Subject {
            name: "robotstxt",
            parse: Some(google::parse),
            parse_check: google::parse_check,
            prepared: google::prepared,
            bounded: Some(
                "its matcher is exponential in the number of `*` \
                 (probe H2 hangs)",
            ),
            note: "one-shot API: every check parses the file again",
            adapter: Some("rust-robotstxt"),
        },
        Subject {
            name: "texting_robots",
            parse: Some(texting::parse),
            parse_check: texting::parse_check,
            prepared: texting::prepared,
            bounded: None,
            note: "",
            adapter: Some("rust-texting_robots"),
        },
        Subject {
            name: "robotxt",
            parse: Some(robotxt::parse),
            parse_check: robotxt::parse_check,
            prepared: robotxt::prepared,
            bounded: None,
            note: "keeps only the agent's groups; stops at 500 KiB",
            adapter: Some("rust-robotxt"),
        },
        Subject {
            name: "robots_txt",
            parse: Some(robots_txt::parse),
            parse_check: robots_txt::parse_check,
            prepared: robots_txt::prepared,
            bounded: None,
            note: "no wildcards: `*` and `$` are plain text",
            adapter: Some("rust-robots_txt"),
        },
        Subject {
            name: "robotparser",
            parse: Some(robotparser::parse),
            parse_check: robotparser::parse_check,
            prepared: robotparser::prepared,
            bounded: None,
            note: "",
            adapter: Some("rust-robotparser"),
        },
        Subject {
            name: "robotstxt-rs",
            parse: Some(robotstxt_rs::parse),
            parse_check: robotstxt_rs::parse_check,
            prepared: robotstxt_rs::prepared,
            bounded: None,
            note: "",
            adapter: Some("rust-robotstxt-rs"),
        },
    ]
}
