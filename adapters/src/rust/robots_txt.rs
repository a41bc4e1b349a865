//! `rust-robots_txt`: `robots_txt` 0.7.0 (github.com/alexander-irbis/
//! robots_txt). Claims profile `rfc9309`.
//!
//! Takes the body as `&str` (invalid UTF-8 replaced) and a path. Known
//! deviations: no wildcards; first-match precedence; panics when a rule
//! is sliced inside a multibyte character of the path (the probe).
//!
//! Like every file in `rust/`, it only translates (never the oracle).

use robots_txt::Robots;
use robots_txt::matcher::SimpleMatcher;

use super::{decide_parts, info, path_and_query, text};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct RobotsTxt;

impl Parser for RobotsTxt {
    fn info(&self) -> Info {
        info(
            "rust-robots_txt",
            "robots_txt 0.7.0",
            "rfc9309",
            Capabilities::decide_only(),
        )
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let (robots, agent, url) = match decide_parts(request) {
            Ok(parts) => parts,
            Err(reply) => return reply,
        };
        let body = text(robots);
        let r = Robots::from_str_lossy(&body);
        let section = r.choose_section(agent);
        Reply::verdict(
            SimpleMatcher::new(&section.rules)
                .check_path(&path_and_query(url)),
        )
    }
}
