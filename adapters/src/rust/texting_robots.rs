//! `rust-texting_robots`: `texting_robots` 0.2.2 (github.com/Smerity/
//! texting_robots). Claims profile `google`.
//!
//! Takes the body as bytes and the crawler's token; `allowed` takes a
//! path or an absolute URL. A body it rejects is an error reply.

use texting_robots::Robot;

use super::{decide_parts, info};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct TextingRobots;

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
            other => {
                let (robots, agent, url) = match decide_parts(other) {
                    Ok(parts) => parts,
                    Err(reply) => return reply,
                };
                match Robot::new(agent, robots) {
                    Ok(r) => Reply::verdict(r.allowed(url)),
                    Err(e) => Reply::Error { message: e.to_string() },
                }
            }
        }
    }
}
