//! The questions the harness asks and the answers adapters give.
//!
//! Data and the capability check only: nothing here decides a request
//! or knows robots.txt semantics, and nothing here names the oracle.

use std::sync::Arc;
use std::time::Duration;

use crate::scenario::Scenario;
use crate::wire::Op;
use robots_oracle::FIVE_HUNDRED_KIB;
use serde::Serialize;

use crate::Verdict;

/// Where a fetch scenario is served live (by the harness's fixture
/// server, on loopback), for adapters that fetch robots.txt by themselves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Live {
    /// The robots.txt URL to fetch (`http://127.0.0.1:PORT/robots.txt`).
    pub robots_url: String,
    /// The URL to decide, moved onto the fixture's authority.
    pub url: String,
    /// How long the adapter's HTTP client may wait for one response.
    pub timeout: Duration,
}

/// One question about a robots.txt body (or a URL).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Request {
    /// May the crawler with product token `agent` access `url`?
    Decide {
        /// The robots.txt body, raw bytes.
        #[serde(skip)]
        robots: Arc<[u8]>,
        /// The crawler's product token.
        agent: String,
        /// An absolute URL or a path with optional query.
        url: String,
    },
    /// May a crawler with several product tokens, most specific first
    /// (`Googlebot-Image`, `Googlebot`), access `url`? Asked only of
    /// parsers with [`Capabilities::several_tokens`]; not on the wire.
    DecideTokens {
        /// The robots.txt body, raw bytes.
        #[serde(skip)]
        robots: Arc<[u8]>,
        /// The crawler's product tokens, most specific first.
        agents: Vec<String>,
        /// An absolute URL or a path with optional query.
        url: String,
    },
    /// The file-wide sitemap URLs, in order.
    Sitemaps {
        /// The robots.txt body.
        #[serde(skip)]
        robots: Arc<[u8]>,
    },
    /// The crawl-delay value of the agent's group, as written.
    CrawlDelay {
        /// The robots.txt body.
        #[serde(skip)]
        robots: Arc<[u8]>,
        /// The crawler's product token.
        agent: String,
    },
    /// The AI usage preferences `agent` finds for `url`
    /// (draft-ietf-aipref-attach-05 §3.1): whether the URL may be crawled
    /// and, if it may, the preference per category. Answered with a
    /// value: `{"crawlable": false, "usage": null}` or `{"crawlable":
    /// true, "usage": {"train-ai": "y"|"n"|"unknown", "search": …}}`.
    Usage {
        /// The robots.txt body.
        #[serde(skip)]
        robots: Arc<[u8]>,
        /// The crawler's product token.
        agent: String,
        /// An absolute URL or a path with optional query.
        url: String,
    },
    /// The Content-Signal values (Cloudflare's Content Signals) that
    /// apply to `agent`, as the parser reads them. Answered with a value:
    /// `{"search": "yes"|"no"|null, "ai-input": …, "ai-train": …, "use":
    /// "immediate"|"reference"|"full"|null}`.
    ContentSignal {
        /// The robots.txt body.
        #[serde(skip)]
        robots: Arc<[u8]>,
        /// The crawler's product token.
        agent: String,
    },
    /// Is `token` a valid product token (R2.2.1-1)?
    ValidToken {
        /// The token.
        token: String,
    },
    /// The URL of the robots.txt file governing `url` (§2.3).
    RobotsUrl {
        /// An absolute URL.
        url: String,
    },
    /// After fetching robots.txt as `scenario` describes, may `agent`
    /// access `url` (§2.3.1, §2.4)? A model answers from the scenario; an
    /// adapter that fetches by itself needs `live`, set by the harness
    /// while its fixture server serves the scenario.
    Fetch {
        /// How the site answers, and the crawler's cache and clock.
        #[serde(skip)]
        scenario: Arc<Scenario>,
        /// The crawler's product token.
        agent: String,
        /// A path, or an absolute URL on the initial authority.
        url: String,
        /// The live copy of the scenario, when one is served.
        #[serde(skip)]
        live: Option<Live>,
    },
    /// The access policy after fetching as `scenario` describes:
    /// `parse-body`, `allow-all`, `disallow-all` or `use-cache`. Only a
    /// model can say (`access_result`).
    FetchPolicy {
        /// How the site answers, and the crawler's cache and clock.
        #[serde(skip)]
        scenario: Arc<Scenario>,
    },
    /// Does the robots.txt file at `robots_url` govern `url` (§2.3,
    /// G-LOC)?
    Governs {
        /// A robots.txt URL.
        robots_url: String,
        /// An absolute URL.
        url: String,
    },
}

impl Request {
    /// A `fetch` request known only by its live copy, as it arrives on
    /// the wire (`serve`): the scenario names just the robots.txt URL, so
    /// only an adapter that fetches by itself can answer it.
    pub fn live_fetch(live: Live, agent: String) -> Request {
        let scenario = Scenario {
            start: live.robots_url.clone(),
            routes: Vec::new(),
            cached: None,
            unreachable_for: 0,
            site_available: true,
        };
        Request::Fetch {
            scenario: Arc::new(scenario),
            agent,
            url: live.url.clone(),
            live: Some(live),
        }
    }

    /// The operation's name, as in the wire protocol.
    pub fn op(&self) -> &'static str {
        self.operation().as_str()
    }

    /// The operation.
    pub fn operation(&self) -> Op {
        match self {
            Request::Decide { .. } => Op::Decide,
            Request::DecideTokens { .. } => Op::DecideTokens,
            Request::Sitemaps { .. } => Op::Sitemaps,
            Request::CrawlDelay { .. } => Op::CrawlDelay,
            Request::Usage { .. } => Op::Usage,
            Request::ContentSignal { .. } => Op::ContentSignal,
            Request::ValidToken { .. } => Op::ValidToken,
            Request::RobotsUrl { .. } => Op::RobotsUrl,
            Request::Fetch { .. } => Op::Fetch,
            Request::FetchPolicy { .. } => Op::FetchPolicy,
            Request::Governs { .. } => Op::Governs,
        }
    }

    /// The robots.txt body the request is about, if any.
    pub fn robots(&self) -> Option<&[u8]> {
        match self {
            Request::Decide { robots, .. }
            | Request::DecideTokens { robots, .. }
            | Request::Sitemaps { robots }
            | Request::CrawlDelay { robots, .. }
            | Request::Usage { robots, .. }
            | Request::ContentSignal { robots, .. } => Some(robots),
            Request::ValidToken { .. }
            | Request::RobotsUrl { .. }
            | Request::Fetch { .. }
            | Request::FetchPolicy { .. }
            | Request::Governs { .. } => None,
        }
    }
}

/// Why a parser answered as it did, when it can say (the oracle can).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// A short reason name (`longest-match`, `no-group`, ...).
    pub reason: String,
    /// The line of the rule that decided, if one did.
    pub rule_line: Option<u32>,
    /// A human-readable account, several lines.
    pub text: String,
    /// The same, structured.
    pub json: serde_json::Value,
}

/// An adapter's answer to one request.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Reply {
    /// A verdict for a `decide` request.
    Verdict {
        /// Allowed or disallowed.
        verdict: Verdict,
        /// Why, if the parser can say.
        #[serde(skip_serializing_if = "Option::is_none")]
        explanation: Option<Box<Explanation>>,
    },
    /// The answer to any other request: a list of strings (sitemaps), a
    /// string or null (crawl-delay, robots-url), a boolean (valid-token).
    Value {
        /// The value.
        value: serde_json::Value,
    },
    /// The parser cannot express this request; says why.
    NotApplicable {
        /// Why.
        why: String,
    },
    /// The parser reported an error for this input.
    Error {
        /// Its message.
        message: String,
    },
    /// The parser panicked or its process died.
    Crashed {
        /// What is known.
        message: String,
    },
    /// No answer within the deadline.
    TimedOut,
    /// The adapter spoke something other than the protocol.
    ProtocolError {
        /// What was wrong.
        message: String,
    },
}

impl Reply {
    /// A verdict without explanation.
    pub fn verdict(allowed: bool) -> Reply {
        let verdict =
            if allowed { Verdict::Allowed } else { Verdict::Disallowed };
        Reply::Verdict { verdict, explanation: None }
    }

    /// Not applicable, with a reason.
    pub fn not_applicable(why: impl Into<String>) -> Reply {
        Reply::NotApplicable { why: why.into() }
    }

    /// One word for the outcome: `allowed`, `disallowed`, `value`,
    /// `not-applicable`, `error`, `crashed`, `timeout`, `protocol-error`.
    pub fn word(&self) -> &'static str {
        match self {
            Reply::Verdict { verdict, .. } => verdict.as_str(),
            Reply::Value { .. } => "value",
            Reply::NotApplicable { .. } => "not-applicable",
            Reply::Error { .. } => "error",
            Reply::Crashed { .. } => "crashed",
            Reply::TimedOut => "timeout",
            Reply::ProtocolError { .. } => "protocol-error",
        }
    }
}

/// Why a parser cannot be asked a request: a capability it lacks
/// ([`Capabilities::admits`]). Becomes a [`Reply::NotApplicable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotAdmitted(pub &'static str);

impl From<NotAdmitted> for Reply {
    fn from(n: NotAdmitted) -> Reply {
        Reply::not_applicable(n.0)
    }
}

/// What a parser can be asked. In a manifest (`[capabilities]`), missing
/// keys take their [`Capabilities::decide_only`] value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Capabilities {
    /// Takes absolute URLs (`https://example.com/a`).
    pub absolute_urls: bool,
    /// Takes paths with query (`/a?b`).
    pub paths: bool,
    /// Takes URLs with raw (not percent-encoded) non-ASCII characters.
    pub raw_non_ascii_urls: bool,
    /// Takes the URL shapes Google's library takes besides absolute URLs
    /// and paths ([`crate::wire::is_library_url`]: the empty URL, read as
    /// `/`; a query-only `?q`, read as `/?q`; a fragment-only `#f`, read
    /// as `/`). Off by default: the protocol's URLs are absolute or start
    /// with one `/`, and other readers read these differently.
    pub library_urls: bool,
    /// Takes robots.txt bodies that are not valid UTF-8.
    pub non_utf8_bodies: bool,
    /// Enforces a parsing limit itself (R2.5-2: at least 500 KiB). False
    /// for a library that leaves the limit to its fetcher (Google's C++
    /// library: the 500 KiB cut happens in Google's crawler, G-FMT-7); a
    /// body longer than 500 KiB is then not applicable to it, so that the
    /// library is not failed for its fetcher's job.
    pub cuts_body: bool,
    /// Answers `decide-tokens`: a crawler with several product tokens,
    /// most specific first (Google's `AllowedByRobotsTuple`). Not on the
    /// wire yet, so only in-process adapters can set it.
    pub several_tokens: bool,
    /// Answers `sitemaps`.
    pub sitemaps: bool,
    /// Answers `crawl-delay`.
    pub crawl_delay: bool,
    /// Answers `usage` (AI usage preferences, attach-05 §3.1).
    pub usage: bool,
    /// Answers `content-signal` (Cloudflare's Content Signals).
    pub content_signal: bool,
    /// Answers `valid-token`.
    pub valid_token: bool,
    /// Answers `robots-url`.
    pub robots_url: bool,
    /// Answers `fetch` by fetching the robots.txt URL over HTTP itself
    /// (needs the harness's fixture server).
    pub fetch: bool,
    /// Answers `fetch` and `fetch-policy` from a described fetch outcome,
    /// without I/O (the oracle; a crate's access-result mapping).
    pub access_result: bool,
    /// Answers `governs`.
    pub governs: bool,
}

impl Default for Capabilities {
    fn default() -> Capabilities {
        Capabilities::decide_only()
    }
}

impl Capabilities {
    /// Decisions only, on absolute URLs and paths, any bytes.
    pub fn decide_only() -> Capabilities {
        Capabilities {
            absolute_urls: true,
            paths: true,
            raw_non_ascii_urls: true,
            library_urls: false,
            non_utf8_bodies: true,
            cuts_body: true,
            several_tokens: false,
            sitemaps: false,
            crawl_delay: false,
            usage: false,
            content_signal: false,
            valid_token: false,
            robots_url: false,
            fetch: false,
            access_result: false,
            governs: false,
        }
    }

    /// Everything a model answers (all but a live `fetch`).
    pub fn all() -> Capabilities {
        Capabilities {
            several_tokens: true,
            sitemaps: true,
            crawl_delay: true,
            usage: true,
            content_signal: true,
            valid_token: true,
            robots_url: true,
            access_result: true,
            governs: true,
            ..Capabilities::decide_only()
        }
    }

    /// `Err(why)` when a parser with these capabilities cannot be asked
    /// `request`; the harness then records not-applicable without asking.
    pub fn admits(&self, request: &Request) -> Result<(), NotAdmitted> {
        let refuse = |ok: bool, why: &'static str| {
            if ok { Ok(()) } else { Err(NotAdmitted(why)) }
        };
        if let Some(body) = request.robots() {
            refuse(
                self.non_utf8_bodies || std::str::from_utf8(body).is_ok(),
                "the parser takes text; this body is not UTF-8",
            )?;
            refuse(
                self.cuts_body || body.len() <= FIVE_HUNDRED_KIB,
                "the parser leaves the 500 KiB limit to its fetcher; \
                 this body is longer",
            )?;
        }
        match request {
            Request::Decide { url, .. } => {
                let absolute = url.contains("://");
                refuse(
                    !absolute || self.absolute_urls,
                    "needs a path, got an absolute URL",
                )?;
                refuse(
                    absolute || self.paths,
                    "needs an absolute URL, got a path",
                )?;
                refuse(
                    url.is_ascii() || self.raw_non_ascii_urls,
                    "needs a percent-encoded URL; this one has raw non-ASCII",
                )?;
                refuse(
                    !crate::wire::is_library_url(url) || self.library_urls,
                    "takes absolute URLs and paths from `/` only; this one is \
                     empty, query-only or fragment-only",
                )
            }
            Request::DecideTokens { .. } => refuse(
                self.several_tokens,
                "no API for a crawler with several product tokens",
            ),
            Request::Sitemaps { .. } => {
                refuse(self.sitemaps, "no sitemap API")
            }
            Request::CrawlDelay { .. } => {
                refuse(self.crawl_delay, "no crawl-delay API")
            }
            Request::ContentSignal { .. } => {
                refuse(self.content_signal, "no Content-Signal API")
            }
            Request::Usage { url, .. } => {
                refuse(self.usage, "no AI usage preference API")?;
                let absolute = url.contains("://");
                refuse(
                    !absolute || self.absolute_urls,
                    "needs a path, got an absolute URL",
                )?;
                refuse(
                    absolute || self.paths,
                    "needs an absolute URL, got a path",
                )?;
                refuse(
                    url.is_ascii() || self.raw_non_ascii_urls,
                    "needs a percent-encoded URL; this one has raw non-ASCII",
                )?;
                refuse(
                    !crate::wire::is_library_url(url) || self.library_urls,
                    "takes absolute URLs and paths from `/` only; this one is \
                     empty, query-only or fragment-only",
                )
            }
            Request::ValidToken { .. } => {
                refuse(self.valid_token, "no token validation API")
            }
            Request::RobotsUrl { .. } => {
                refuse(self.robots_url, "no robots.txt URL API")
            }
            Request::Fetch { live, .. } => refuse(
                self.access_result || (self.fetch && live.is_some()),
                if self.fetch {
                    "fetches over HTTP by itself; no fixture serves this scenario"
                } else {
                    "no fetch API"
                },
            ),
            Request::FetchPolicy { .. } => refuse(
                self.access_result,
                "the access policy is observable only through a model API",
            ),
            Request::Governs { .. } => {
                refuse(self.governs, "no robots.txt scope API")
            }
        }
    }
}

/// Who an adapter is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Info {
    /// `<language>-<package>`, e.g. `rust-texting_robots`; `reference`.
    pub name: String,
    /// The language the parser is written in.
    pub language: String,
    /// The parser package and its version.
    pub version: String,
    /// The profile whose expectations the parser claims (`rfc9309` or
    /// `google`), used to pick expectations in reports.
    pub profile: String,
    /// What it can be asked.
    pub capabilities: Capabilities,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(len: usize) -> Request {
        Request::Decide {
            robots: Arc::from(vec![b'#'; len]),
            agent: "FooBot".into(),
            url: "/x".into(),
        }
    }

    #[test]
    fn a_parser_that_does_not_cut_is_spared_bodies_over_500_kib() {
        let lib =
            Capabilities { cuts_body: false, ..Capabilities::decide_only() };
        assert!(lib.admits(&decide(FIVE_HUNDRED_KIB)).is_ok());
        let why = lib.admits(&decide(FIVE_HUNDRED_KIB + 1)).unwrap_err();
        assert!(why.0.contains("500 KiB"), "{}", why.0);
        let cutting = Capabilities::decide_only();
        assert!(cutting.admits(&decide(FIVE_HUNDRED_KIB + 1)).is_ok());
    }

    #[test]
    fn library_shaped_urls_are_asked_only_of_parsers_that_take_them() {
        let ask = |url: &str| Request::Decide {
            robots: Arc::from(&b"User-agent: *\nDisallow: /\n"[..]),
            agent: "FooBot".into(),
            url: url.into(),
        };
        let plain = Capabilities::decide_only();
        let library =
            Capabilities { library_urls: true, ..Capabilities::decide_only() };
        for url in ["", "?q=1", "#top"] {
            let why = plain.admits(&ask(url)).unwrap_err();
            assert!(why.0.contains("query-only"), "{url:?}: {}", why.0);
            assert!(library.admits(&ask(url)).is_ok(), "{url:?}");
        }
        assert!(plain.admits(&ask("/?q=1")).is_ok());
    }

    #[test]
    fn several_tokens_are_asked_only_of_parsers_that_take_them() {
        let q = Request::DecideTokens {
            robots: Arc::from(&b"User-agent: *\n"[..]),
            agents: vec!["Googlebot-Image".into(), "Googlebot".into()],
            url: "/x".into(),
        };
        assert_eq!(q.op(), "decide-tokens");
        assert_eq!(q.robots(), Some(&b"User-agent: *\n"[..]));
        let why = Capabilities::decide_only().admits(&q).unwrap_err();
        assert!(why.0.contains("several product tokens"), "{}", why.0);
        assert!(Capabilities::all().admits(&q).is_ok());
        // Not on the wire: a request line naming it is refused.
        let line =
            r#"{"id":1,"op":"decide-tokens","agents":["a"],"urls":["/"]}"#;
        assert!(crate::wire::Call::decode(line).1.is_err());
    }
}
