//! `rust-robotstxt-rs`: `robotstxt-rs` 0.1.4. Claims profile `rfc9309`.
//!
//! Takes the body as `&str` (invalid UTF-8 replaced) and a path. Known
//! deviation (probe): a group with allow rules but no match disallows.
//!
//! Like every file in `rust/`, it only translates (never the oracle).

use robotstxt_rs::RobotsTxt;

use super::{decide_parts, info, path_and_query, text};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct RobotstxtRs;

impl Parser for RobotstxtRs {
    fn info(&self) -> Info {
        info(
            "rust-robotstxt-rs",
            "robotstxt-rs 0.1.4",
            "rfc9309",
            Capabilities::decide_only(),
        )
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let (robots, agent, url) = match decide_parts(request) {
            Ok(parts) => parts,
            Err(reply) => return reply,
        };
        let r = RobotsTxt::parse(&text(robots));
        Reply::verdict(r.can_fetch(agent, &path_and_query(url)))
    }
}
