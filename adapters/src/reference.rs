//! The reference oracle (`robots-oracle`) as an adapter, one instance per
//! profile: `reference` (rfc9309) and `reference-google`.
//!
//! The one place that converts the protocol's vocabulary
//! ([`crate::scenario`]) into the oracle's (`robots_oracle::fetch`). It
//! translates and explains; it never adjusts what the oracle decides.

use std::sync::Arc;

use robots_oracle::fetch::{self as model, Access, FetchProfile, access};
use robots_oracle::{Profile, RobotsTxt};

use crate::scenario::{
    Answer, Cached, NetworkError, Response, Route, Scenario,
};
use crate::{Adapter, Capabilities, Explanation, Info, Reply, Request};

/// The oracle under one profile. Keeps the last parsed body, so a batch
/// of requests about one file parses it once.
pub struct Reference {
    profile: Profile,
    fetch_profile: FetchProfile,
    /// Verdicts carry their explanation (see [`Reference::verdicts_only`]).
    explain: bool,
    last: Option<(Arc<[u8]>, RobotsTxt)>,
    last_fetch: Option<(Arc<Scenario>, Access, Option<RobotsTxt>)>,
}

impl Reference {
    /// The oracle under `profile`.
    pub fn new(profile: Profile) -> Reference {
        let fetch_profile =
            FetchProfile::by_name(profile.name).unwrap_or_default();
        let (last, last_fetch) = (None, None);
        Reference { profile, fetch_profile, explain: true, last, last_fetch }
    }

    /// This oracle, answering decisions without their explanation (the
    /// same verdicts and errors): for callers that compare verdicts only,
    /// such as `diff`, where writing the explanation was most of the
    /// oracle's time.
    pub fn verdicts_only(self) -> Reference {
        Reference { explain: false, ..self }
    }

    /// The oracle under `profile`, with fetch-level switches
    /// `fetch_profile`.
    pub fn with_fetch_profile(
        profile: Profile,
        fetch_profile: FetchProfile,
    ) -> Reference {
        Reference { fetch_profile, ..Reference::new(profile) }
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

    /// The access decision for `scenario` and its parsed body, computed
    /// once per scenario.
    fn accessed(
        &mut self,
        scenario: &Arc<Scenario>,
    ) -> &(Arc<Scenario>, Access, Option<RobotsTxt>) {
        let fresh = !matches!(&self.last_fetch, Some((s, ..)) if Arc::ptr_eq(s, scenario) || **s == **scenario);
        if fresh {
            let a = access(&to_model(scenario), &self.fetch_profile);
            let robots =
                a.body.as_ref().map(|b| RobotsTxt::parse(b, &self.profile));
            self.last_fetch = Some((scenario.clone(), a, robots));
        }
        // OK: `last_fetch` was set just above when it was not already.
        self.last_fetch.as_ref().expect("access cached")
    }
}

fn fetch_reply(
    a: &Access,
    robots: Option<&RobotsTxt>,
    agent: &str,
    url: &str,
) -> Reply {
    let empty;
    let robots = match robots {
        Some(r) => r,
        None => {
            empty = RobotsTxt::parse(b"", &Profile::rfc9309());
            &empty
        }
    };
    match a.decide_with(robots, agent, url) {
        Ok(d) => {
            let mut text = a.to_string();
            if let Some(rules) = &d.rules {
                text.push_str(&rules.to_string());
                text.push_str(&notes(robots));
            }
            let json = serde_json::json!({
                "policy": a.policy.as_str(),
                "clause": a.clause,
                "because": a.reason,
                "steps": a.steps.iter().map(|s| serde_json::json!({"url": s.url, "answer": s.answer})).collect::<Vec<_>>(),
                "rules": d.rules.as_ref().and_then(|r| serde_json::to_value(r).ok()),
            });
            Reply::Verdict {
                verdict: d.verdict,
                explanation: Some(Box::new(Explanation {
                    reason: d.rules.as_ref().map_or_else(
                        || a.policy.as_str().to_string(),
                        |r| r.reason.as_str().to_string(),
                    ),
                    rule_line: d
                        .rules
                        .as_ref()
                        .and_then(|r| r.winner.as_ref().map(|w| w.line)),
                    text,
                    json,
                })),
            }
        }
        Err(e) => Reply::Error { message: e.to_string() },
    }
}

/// The protocol's scenario as the oracle's fetch model reads it: field
/// for field, nothing added or dropped.
fn to_model(s: &Scenario) -> model::Scenario {
    model::Scenario {
        start: s.start.clone(),
        routes: s
            .routes
            .iter()
            .map(|r| model::Route {
                url: r.url.clone(),
                answer: answer_to_model(&r.answer),
            })
            .collect(),
        cached: s.cached.as_ref().map(|c| model::Cached {
            body: c.body.clone(),
            age: c.age,
            cache_control: c.cache_control.clone(),
        }),
        unreachable_for: s.unreachable_for,
        site_available: s.site_available,
    }
}

/// The oracle's scenario as the protocol spells it, field for field: the
/// way back for a job that builds its scenarios with the oracle's fetch
/// model (the audit assembles redirect chains from captured records) and
/// then asks adapters about them.
pub fn scenario_from_model(s: &model::Scenario) -> Scenario {
    Scenario {
        start: s.start.clone(),
        routes: s
            .routes
            .iter()
            .map(|r| Route {
                url: r.url.clone(),
                answer: answer_from_model(&r.answer),
            })
            .collect(),
        cached: s.cached.as_ref().map(|c| Cached {
            body: c.body.clone(),
            age: c.age,
            cache_control: c.cache_control.clone(),
        }),
        unreachable_for: s.unreachable_for,
        site_available: s.site_available,
    }
}

fn answer_from_model(a: &model::Answer) -> Answer {
    match a {
        model::Answer::Response(r) => Answer::Response(Response {
            status: r.status,
            headers: r.headers.clone(),
            body: r.body.clone(),
            delay_ms: r.delay_ms,
        }),
        model::Answer::Network(e) => Answer::Network(match e {
            model::NetworkError::Dns => NetworkError::Dns,
            model::NetworkError::Refused => NetworkError::Refused,
            model::NetworkError::Timeout => NetworkError::Timeout,
            model::NetworkError::Dropped => NetworkError::Dropped,
            model::NetworkError::Truncated => NetworkError::Truncated,
            model::NetworkError::BadChunking => NetworkError::BadChunking,
            // The model's error list is non-exhaustive; a failure the
            // protocol cannot name yet is still a failed fetch.
            model::NetworkError::InvalidResponse | _ => {
                NetworkError::InvalidResponse
            }
        }),
    }
}

fn answer_to_model(a: &Answer) -> model::Answer {
    match a {
        Answer::Response(r) => model::Answer::Response(model::Response {
            status: r.status,
            headers: r.headers.clone(),
            body: r.body.clone(),
            delay_ms: r.delay_ms,
        }),
        Answer::Network(e) => model::Answer::Network(match e {
            NetworkError::Dns => model::NetworkError::Dns,
            NetworkError::Refused => model::NetworkError::Refused,
            NetworkError::Timeout => model::NetworkError::Timeout,
            NetworkError::Dropped => model::NetworkError::Dropped,
            NetworkError::Truncated => model::NetworkError::Truncated,
            NetworkError::BadChunking => model::NetworkError::BadChunking,
            NetworkError::InvalidResponse => {
                model::NetworkError::InvalidResponse
            }
        }),
    }
}

/// A decision as a reply, explained when `explain`.
fn verdict(
    d: &robots_oracle::Decision,
    robots: &RobotsTxt,
    explain: bool,
) -> Reply {
    let explanation = explain.then(|| Box::new(explanation(d, robots)));
    Reply::Verdict { verdict: d.verdict, explanation }
}

fn explanation(
    d: &robots_oracle::Decision,
    robots: &RobotsTxt,
) -> Explanation {
    Explanation {
        reason: d.reason.as_str().to_string(),
        rule_line: d.winner.as_ref().map(|w| w.line),
        text: format!("{d}{}", notes(robots)),
        json: serde_json::to_value(d).unwrap_or_default(),
    }
}

/// What the parse noted about the file (a skipped byte order mark, the
/// parse limit reached, lines ignored): an explanation says what of the
/// file was not read as written, since that can decide as much as a rule.
fn notes(robots: &RobotsTxt) -> String {
    robots_oracle::notes_text(robots.diagnostics())
}

impl Adapter for Reference {
    fn info(&self) -> Info {
        Info {
            name: Reference::name_for(self.profile.name),
            language: "rust".into(),
            version: format!("robots-oracle {}", env!("CARGO_PKG_VERSION")),
            profile: self.profile.name.into(),
            capabilities: Capabilities {
                library_urls: self.profile.library_url_shapes,
                ..Capabilities::all()
            },
        }
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let value = |v: serde_json::Value| Reply::Value { value: v };
        match request {
            Request::Decide { robots, agent, url } => {
                let explain = self.explain;
                let robots = self.parsed(robots);
                match robots.decide(agent, url) {
                    Ok(d) => verdict(&d, robots, explain),
                    Err(e) => Reply::Error { message: e.to_string() },
                }
            }
            Request::DecideTokens { robots, agents, url } => {
                let agents: Vec<&str> =
                    agents.iter().map(String::as_str).collect();
                let explain = self.explain;
                let robots = self.parsed(robots);
                match robots.decide_tokens(&agents, url) {
                    Ok(d) => verdict(&d, robots, explain),
                    Err(e) => Reply::Error { message: e.to_string() },
                }
            }
            Request::Sitemaps { robots } => value(
                self.parsed(robots).sitemaps().collect::<Vec<_>>().into(),
            ),
            Request::CrawlDelay { robots, agent } => {
                value(self.parsed(robots).crawl_delay(agent).into())
            }
            Request::ContentSignal { robots, agent } => {
                let (signals, _) = self.parsed(robots).content_signals(agent);
                value(signal_value(&signals))
            }
            Request::Usage { robots, agent, url } => {
                match self.parsed(robots).usage(agent, url) {
                    Ok(u) => value(usage_value(&u)),
                    Err(e) => Reply::Error { message: e.to_string() },
                }
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
            Request::Fetch { scenario, agent, url, .. } => {
                let (_, a, robots) = self.accessed(scenario);
                fetch_reply(a, robots.as_ref(), agent, url)
            }
            Request::FetchPolicy { scenario } => {
                let (_, a, _) = self.accessed(scenario);
                value(a.policy.as_str().into())
            }
            Request::Governs { robots_url, url } => {
                value(robots_oracle::fetch::governs(robots_url, url).into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    #[test]
    fn fetch_answers_explain_the_clause() {
        let scenario = Arc::new(Scenario::single(Answer::status(429)));
        let ask = |r: &mut Reference| {
            r.answer(&Request::Fetch {
                scenario: scenario.clone(),
                agent: "FooBot".into(),
                url: "/x".into(),
                live: None,
            })
        };
        let mut rfc = Reference::for_profile("rfc9309").unwrap();
        let mut google = Reference::for_profile("google").unwrap();
        let Reply::Verdict { verdict, explanation: Some(ex) } = ask(&mut rfc)
        else {
            panic!("no verdict")
        };
        assert_eq!(verdict, Verdict::Allowed);
        assert!(ex.text.contains("allow-all (R2.3.1.3-2)"), "{}", ex.text);
        let Reply::Verdict { verdict, explanation: Some(ex) } =
            ask(&mut google)
        else {
            panic!("no verdict")
        };
        assert_eq!(verdict, Verdict::Disallowed);
        assert!(ex.text.contains("G-STATUS-5"), "{}", ex.text);
        let policy = google.answer(&Request::FetchPolicy { scenario });
        assert_eq!(policy, Reply::Value { value: "disallow-all".into() });
        let governs = rfc.answer(&Request::Governs {
            robots_url: "https://example.com/robots.txt".into(),
            url: "http://example.com/".into(),
        });
        assert_eq!(governs, Reply::Value { value: false.into() });
    }

    #[test]
    fn verdicts_only_answers_alike_without_explaining() {
        let robots: Arc<[u8]> =
            Arc::from(&b"User-agent: *\nDisallow: /a\nAllow: /a/b\n"[..]);
        for profile in ["rfc9309", "google"] {
            let mut full = Reference::for_profile(profile).unwrap();
            let mut bare =
                Reference::for_profile(profile).unwrap().verdicts_only();
            for url in ["/a", "/a/b", "/c", "https://example.com/a", "a", ""] {
                let req = Request::Decide {
                    robots: robots.clone(),
                    agent: "FooBot".into(),
                    url: url.into(),
                };
                match (full.answer(&req), bare.answer(&req)) {
                    (
                        Reply::Verdict { verdict: v, explanation: Some(_) },
                        Reply::Verdict { verdict: w, explanation: None },
                    ) => assert_eq!(v, w, "{url}"),
                    (
                        Reply::Error { message: m },
                        Reply::Error { message: n },
                    ) => {
                        assert_eq!(m, n, "{url}")
                    }
                    (a, b) => panic!("{url}: {a:?} against {b:?}"),
                }
            }
        }
    }
}

/// The `usage` answer: `{"crawlable": false, "usage": null}` or
/// `{"crawlable": true, "usage": {"train-ai": "n", "search": "unknown"}}`
/// (adapters/PROTOCOL.md).
pub fn usage_value(u: &robots_oracle::UsageDecision) -> serde_json::Value {
    let usage = u.preferences.map(|p| {
        robots_oracle::Category::ALL
            .iter()
            .map(|&c| (c.label().to_string(), p.get(c).as_str().into()))
            .collect::<serde_json::Map<String, serde_json::Value>>()
    });
    serde_json::json!({"crawlable": u.crawl.is_allowed(), "usage": usage})
}

/// What `check --usage` shows for one URL beyond the `usage` answer: the
/// explanation and the Content-Signal values.
#[derive(Clone, Debug, PartialEq)]
pub struct UsageReport {
    /// The `usage` answer (as [`usage_value`]).
    pub value: serde_json::Value,
    /// The crawl decision's and the usage decision's explanations.
    pub explanation: String,
    /// The Content-Signal values that apply to the agent (`key` →
    /// `value`, plus `lines`), `None` when the file has no Content-Signal
    /// line at all.
    pub signals: Option<serde_json::Value>,
}

impl Reference {
    /// The usage preferences of `agent` for `url`, explained, with the
    /// Content-Signal values beside them.
    ///
    /// # Errors
    ///
    /// The oracle's message when `url` is not a URL or path.
    pub fn usage_report(
        &mut self,
        robots: &std::sync::Arc<[u8]>,
        agent: &str,
        url: &str,
    ) -> Result<UsageReport, String> {
        let parsed = self.parsed(robots);
        let u = parsed.usage(agent, url).map_err(|e| e.to_string())?;
        let any_signal = |rs: &[robots_oracle::Record]| {
            rs.iter().any(|r| r.key.eq_ignore_ascii_case("content-signal"))
        };
        let has_signals = any_signal(parsed.records())
            || parsed.groups().iter().any(|g| any_signal(&g.records));
        let signals = has_signals.then(|| {
            let (s, lines) = parsed.content_signals(agent);
            let mut m: serde_json::Map<String, serde_json::Value> = s
                .pairs()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.into()))
                .collect();
            m.insert("lines".into(), lines.into());
            serde_json::Value::Object(m)
        });
        Ok(UsageReport {
            value: usage_value(&u),
            explanation: format!("{}{}", u.crawl, u),
            signals,
        })
    }
}

/// The `content-signal` answer: every key, `null` where no line sets it
/// (adapters/PROTOCOL.md).
pub fn signal_value(s: &robots_oracle::ContentSignals) -> serde_json::Value {
    let yn = |b: Option<bool>| b.map(|b| if b { "yes" } else { "no" });
    serde_json::json!({
        "search": yn(s.search),
        "ai-input": yn(s.ai_input),
        "ai-train": yn(s.ai_train),
        "use": s.use_.map(|u| u.as_str()),
    })
}
