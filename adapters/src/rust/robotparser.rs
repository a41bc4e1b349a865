//! `rust-robotparser`: `robotparser` 0.11.0 (github.com/messense/
//! robotparser-rs). Claims profile `google`.
//!
//! Takes the body as `&str` (invalid UTF-8 replaced) and absolute URLs on
//! the robots.txt file's origin (`https://example.com`); it answers
//! "disallowed" for any other origin, so paths are joined onto it.
//!
//! `fetch`: the crate's own fetch, `RobotsTxtClient::fetch_robots_txt`
//! on a `reqwest::blocking::Client` (no proxy, the harness's timeout),
//! for the fixture's origin; then `can_fetch` on the fixture URL. The
//! crate maps 401/403 to "disallow all", 200 to the rules and every other
//! status (2xx, 4xx, 5xx alike) to "allow all"; a transport error is its
//! `Err`, reported as an error.
//!
//! Like every file in `rust/`, it only translates (never the oracle).

use robotparser::http::RobotsTxtClient;
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
            fetch: true,
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
            Request::Fetch { agent, live: Some(live), .. } => {
                fetch(&live.robots_url, agent, &live.url, live.timeout)
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

/// The crate's own fetch of `robots_url`'s origin, then `can_fetch`.
fn fetch(
    robots_url: &str,
    agent: &str,
    url: &str,
    timeout: std::time::Duration,
) -> Reply {
    let error = |message: String| Reply::Error { message };
    let (Ok(robots), Ok(target)) = (Url::parse(robots_url), Url::parse(url))
    else {
        return error(format!("url crate rejects {robots_url} or {url}"));
    };
    let client = match reqwest::blocking::Client::builder()
        .no_proxy()
        .timeout(timeout)
        .build()
    {
        Ok(c) => c,
        Err(e) => return error(format!("cannot build the client: {e}")),
    };
    match client.fetch_robots_txt(robots.origin()) {
        Ok(r) => Reply::verdict(r.get_result().can_fetch(agent, &target)),
        Err(e) => error(format!("fetch failed: {e}")),
    }
}
