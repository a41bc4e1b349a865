//! `rust-robotstxt`: `robotstxt` 0.3.0, a Rust port of Google's C++
//! parser (github.com/Folyd/robotstxt). Claims profile `google`.
//!
//! Takes the body as `&str` (invalid UTF-8 replaced) and a URL it expects
//! percent-encoded; re-parses the body on every call. Known deviations:
//! no `/robots.txt` special case; its matcher is exponential on runs of
//! `*` (the probe's H2 hangs), hence the isolation deadline.
//!
//! Like every file in `rust/`, it only translates (never the oracle).

use robotstxt::DefaultMatcher;

use super::{absolute, decide_parts, info, text};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct Robotstxt;

impl Parser for Robotstxt {
    fn info(&self) -> Info {
        let caps = Capabilities {
            raw_non_ascii_urls: false,
            ..Capabilities::decide_only()
        };
        info("rust-robotstxt", "robotstxt 0.3.0", "google", caps)
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let (robots, agent, url) = match decide_parts(request) {
            Ok(parts) => parts,
            Err(reply) => return reply,
        };
        let mut m = DefaultMatcher::default();
        Reply::verdict(m.one_agent_allowed_by_robots(
            &text(robots),
            agent,
            &absolute(url),
        ))
    }
}
