//! `rust-robotxt`: `robotxt` 0.7.0 (github.com/spire-rs/robotxt). Claims
//! profile `rfc9309`.
//!
//! Takes the body as bytes and the crawler's token, and a path. Stops
//! parsing at 500 KiB (`BYTE_LIMIT`).
//!
//! `fetch` (model only, `access_result`): the crate does no I/O, but
//! `Robots::from_access(AccessResult, agent)` is its mapping of an access
//! result (RFC 9309 §2.3.1) to rules. The adapter classifies the
//! scenario's fetch outcome as the crate's `AccessResult` documents it:
//! 2xx is `Successful(body)`; no file within five consecutive redirects
//! is `TooManyRedirects`; 4xx is `Unavailable`; 5xx, any other status and
//! network errors are `Unreachable`. The crate has no cache and no clock,
//! so scenarios with a cached copy or a past outage are not applicable.
//! Following the redirects is the crawler's HTTP client's job, which the
//! crate leaves to its user; the adapter plays it on the scenario's route
//! table (five redirects, as `AccessResult::TooManyRedirects` documents),
//! not with the oracle's fetch model.

use robotxt::{AccessResult, Robots};

use crate::scenario::{Answer, Scenario, resolve};

use super::{LastParse, info, path_and_query};
use crate::isolate::Parser;
use crate::{Capabilities, Info, Reply, Request};

/// The adapter.
#[derive(Clone, Default)]
pub struct Robotxt {
    last: LastParse<Robots>,
}

impl Parser for Robotxt {
    fn info(&self) -> Info {
        let caps = Capabilities {
            sitemaps: true,
            crawl_delay: true,
            access_result: true,
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
            Request::Fetch { scenario, agent, url, .. } => {
                from_access(scenario, agent, url)
            }
            Request::Decide { robots, agent, url } => {
                let r = self
                    .last
                    .get(robots, agent, || Robots::parse(robots, agent));
                Reply::verdict(r.is_allowed(&path_and_query(url)))
            }
            other => Reply::not_applicable(format!("no {} API", other.op())),
        }
    }
}

/// `Robots::from_access` on the scenario's fetch outcome.
fn from_access(scenario: &Scenario, agent: &str, url: &str) -> Reply {
    if scenario.cached.is_some() || scenario.unreachable_for > 0 {
        return Reply::not_applicable("no cache or outage clock in robotxt");
    }
    let last = follow(scenario, MAX_REDIRECTS);
    let access = match &last {
        None => AccessResult::TooManyRedirects,
        Some(Answer::Response(r)) if (200..300).contains(&r.status) => {
            AccessResult::Successful(&r.body)
        }
        Some(Answer::Response(r)) if (400..500).contains(&r.status) => {
            AccessResult::Unavailable
        }
        Some(_) => AccessResult::Unreachable,
    };
    let r = Robots::from_access(access, agent);
    Reply::verdict(r.is_allowed(&path_and_query(url)))
}

/// Redirects followed before `TooManyRedirects` (RFC 9309 §2.3.1.2).
const MAX_REDIRECTS: usize = 5;

/// The answer after following at most `max` redirects from the start;
/// `None` when one more redirect would be needed.
fn follow(scenario: &Scenario, max: usize) -> Option<Answer> {
    let mut url = scenario.start.clone();
    for _ in 0..=max {
        let answer = scenario.answer(&url);
        match answer.location() {
            Some(l) => url = resolve(&url, l),
            None => return Some(answer),
        }
    }
    None
}
