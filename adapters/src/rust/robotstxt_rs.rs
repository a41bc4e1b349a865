//! `rust-robotstxt-rs`: `robotstxt-rs` 0.1.4. Claims profile `rfc9309`.
//!
//! Takes the body as `&str` (invalid UTF-8 replaced) and a path; a body
//! is parsed once for all the URLs asked about it in a row. Known
//! deviation (probe): a group with allow rules but no match disallows.
//!
//! Like every file in `rust/`, it only translates (never the oracle).

use robotstxt_rs::RobotsTxt;

use super::{LastParse, info, path_and_query, text};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct RobotstxtRs {
    last: LastParse<RobotsTxt>,
}

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
        let Request::Decide { robots, agent, url } = request else {
            return Reply::not_applicable(format!("no {} API", request.op()));
        };
        let r =
            self.last.get(robots, agent, || RobotsTxt::parse(&text(robots)));
        Reply::verdict(r.can_fetch(agent, &path_and_query(url)))
    }
}
