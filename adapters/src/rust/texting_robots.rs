//! `rust-texting_robots`: `texting_robots` 0.2.2 (github.com/Smerity/
//! texting_robots). Claims profile `google`.
//!
//! Takes the body as bytes and the crawler's token; `allowed` takes a
//! path or an absolute URL. A body it rejects is an error reply.
//!
//! Like every file in `rust/`, it only translates (never the oracle).

use texting_robots::Robot;

use super::{LastParse, info};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct TextingRobots {
    last: LastParse<Result<Robot, String>>,
}

impl Parser for TextingRobots {
    fn info(&self) -> Info {
        let caps = Capabilities {
            sitemaps: true,
            crawl_delay: true,
            ..Capabilities::decide_only()
        };
        info("rust-texting_robots", "texting_robots 0.2.2", "google", caps)
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let value = |v: serde_json::Value| Reply::Value { value: v };
        match request {
            Request::Sitemaps { robots } => match Robot::new("*", robots) {
                Ok(r) => value(r.sitemaps.into()),
                Err(e) => Reply::Error { message: e.to_string() },
            },
            Request::CrawlDelay { robots, agent } => {
                match Robot::new(agent, robots) {
                    Ok(r) => value(r.delay.map(|d| d.to_string()).into()),
                    Err(e) => Reply::Error { message: e.to_string() },
                }
            }
            Request::Decide { robots, agent, url } => {
                let parsed = self.last.get(robots, agent, || {
                    Robot::new(agent, robots).map_err(|e| e.to_string())
                });
                match parsed {
                    Ok(r) => Reply::verdict(r.allowed(url)),
                    Err(e) => Reply::Error { message: e.clone() },
                }
            }
            other => Reply::not_applicable(format!("no {} API", other.op())),
        }
    }
}
