//! The reference oracle (`robots-oracle`) as an adapter, one instance per
//! profile: `reference` (rfc9309) and `reference-google`.

use std::sync::Arc;

use robots_oracle::{Profile, RobotsTxt};

use crate::{
    Adapter, Capabilities, Explanation, Info, Reply, Request, Verdict,
};

/// The oracle under one profile. Keeps the last parsed body, so a batch
/// of requests about one file parses it once.
pub struct Reference {
    profile: Profile,
    last: Option<(Arc<[u8]>, RobotsTxt)>,
}

impl Reference {
    /// The oracle under `profile`.
    pub fn new(profile: Profile) -> Reference {
        Reference { profile, last: None }
    }

    /// The oracle under the built-in profile named `profile` (`rfc9309`
    /// or `google`).
    pub fn for_profile(profile: &str) -> Option<Reference> {
        Profile::by_name(profile).map(Reference::new)
    }

    /// The adapter name for a profile: `reference` or `reference-google`.
    pub fn name_for(profile: &str) -> String {
        match profile {
            "rfc9309" => "reference".to_string(),
            other => format!("reference-{other}"),
        }
    }

    fn parsed(&mut self, body: &Arc<[u8]>) -> &RobotsTxt {
        let fresh = !matches!(&self.last, Some((b, _)) if Arc::ptr_eq(b, body) || **b == **body);
        if fresh {
            let robots = RobotsTxt::parse(body, &self.profile);
            self.last = Some((body.clone(), robots));
        }
        // OK: `last` was set just above when it was not already.
        &self.last.as_ref().expect("parsed body cached").1
    }
}

fn explanation(d: &robots_oracle::Decision) -> Explanation {
    Explanation {
        reason: d.reason.as_str().to_string(),
        rule_line: d.winner.as_ref().map(|w| w.line),
        text: d.to_string(),
        json: serde_json::to_value(d).unwrap_or_default(),
    }
}

impl Adapter for Reference {
    fn info(&self) -> Info {
        Info {
            name: Reference::name_for(self.profile.name),
            language: "rust".into(),
            version: format!("robots-oracle {}", env!("CARGO_PKG_VERSION")),
            profile: self.profile.name.into(),
            capabilities: Capabilities::all(),
        }
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let value = |v: serde_json::Value| Reply::Value { value: v };
        match request {
            Request::Decide { robots, agent, url } => {
                match self.parsed(robots).decide(agent, url) {
                    Ok(d) => Reply::Verdict {
                        verdict: if d.is_allowed() {
                            Verdict::Allowed
                        } else {
                            Verdict::Disallowed
                        },
                        explanation: Some(Box::new(explanation(&d))),
                    },
                    Err(e) => Reply::Error { message: e.to_string() },
                }
            }
            Request::Sitemaps { robots } => value(
                self.parsed(robots).sitemaps().collect::<Vec<_>>().into(),
            ),
            Request::CrawlDelay { robots, agent } => {
                value(self.parsed(robots).crawl_delay(agent).into())
            }
            Request::ValidToken { token } => {
                value(robots_oracle::is_valid_product_token(token).into())
            }
            Request::RobotsUrl { url } => {
                match robots_oracle::robots_txt_url(url) {
                    Ok(u) => value(u.into()),
                    Err(e) => Reply::Error { message: e.to_string() },
                }
            }
        }
    }
}
