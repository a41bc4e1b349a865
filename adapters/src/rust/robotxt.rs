//! `rust-robotxt`: `robotxt` 0.7.0 (github.com/spire-rs/robotxt). Claims
//! profile `rfc9309`.
//!
//! Takes the body as bytes and the crawler's token, and a path. Stops
//! parsing at 500 KiB (`BYTE_LIMIT`).

use robotxt::Robots;

use super::{decide_parts, info, path_and_query};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct Robotxt;

impl Parser for Robotxt {
    fn info(&self) -> Info {
        let caps = Capabilities {
            sitemaps: true,
            crawl_delay: true,
            ..Capabilities::decide_only()
        };
        info("rust-robotxt", "robotxt 0.7.0", "rfc9309", caps)
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let value = |v: serde_json::Value| Reply::Value { value: v };
        match request {
            Request::Sitemaps { robots } => {
                let r = Robots::parse(robots, "*");
                value(
                    r.sitemaps()
                        .iter()
                        .map(|u| u.to_string())
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
            Request::CrawlDelay { robots, agent } => {
                let r = Robots::parse(robots, agent);
                value(
                    r.crawl_delay()
                        .map(|d| d.as_secs_f64().to_string())
                        .into(),
                )
            }
            other => {
                let (robots, agent, url) = match decide_parts(other) {
                    Ok(parts) => parts,
                    Err(reply) => return reply,
                };
                let r = Robots::parse(robots, agent);
                Reply::verdict(r.is_allowed(&path_and_query(url)))
            }
        }
    }
}
