//! `rust-robotparser`: `robotparser` 0.11.0 (github.com/messense/
//! robotparser-rs). Claims profile `google`.
//!
//! Takes the body as `&str` (invalid UTF-8 replaced) and absolute URLs on
//! the robots.txt file's origin (`https://example.com`); it answers
//! "disallowed" for any other origin, so paths are joined onto it.

use robotparser::parser::parse_robots_txt;
use robotparser::service::RobotsTxtService;
use url::Url;

use super::{BASE, absolute, decide_parts, info, text};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct Robotparser;

impl Parser for Robotparser {
    fn info(&self) -> Info {
        let caps = Capabilities {
            sitemaps: true,
            crawl_delay: true,
            ..Capabilities::decide_only()
        };
        info("rust-robotparser", "robotparser 0.11.0", "google", caps)
    }

    fn answer(&mut self, request: &Request) -> Reply {
        // OK: BASE is a valid absolute URL.
        let origin = Url::parse(&format!("{BASE}/robots.txt"))
            .expect("valid base")
            .origin();
        let value = |v: serde_json::Value| Reply::Value { value: v };
        match request {
            Request::Sitemaps { robots } => {
                let r = parse_robots_txt(origin, &text(robots)).get_result();
                value(
                    r.get_sitemaps()
                        .iter()
                        .map(|u| u.to_string())
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
            Request::CrawlDelay { robots, agent } => {
                let r = parse_robots_txt(origin, &text(robots)).get_result();
                value(
                    r.get_crawl_delay(agent)
                        .map(|d| d.as_secs_f64().to_string())
                        .into(),
                )
            }
            other => {
                let (robots, agent, url) = match decide_parts(other) {
                    Ok(parts) => parts,
                    Err(reply) => return reply,
                };
                let Ok(target) = Url::parse(&absolute(url)) else {
                    return Reply::Error {
                        message: format!("url crate rejects {url}"),
                    };
                };
                let r = parse_robots_txt(origin, &text(robots)).get_result();
                Reply::verdict(r.can_fetch(agent, &target))
            }
        }
    }
}
