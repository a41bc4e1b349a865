//! The JSON lines of the adapter protocol (`adapters/PROTOCOL.md`):
//! encoding and decoding request and answer lines, with every operation
//! name spelled once ([`Op`]).
//!
//! Both sides use it: the harness's [`Process`](crate::process::Process)
//! (encodes [`Call`]s, decodes answers into [`Reply`]s) and the `serve`
//! command (decodes calls, encodes answers). This module only
//! translates between lines and values; it never starts processes, keeps
//! deadlines or decides anything.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use serde_json::{Map, Value, json};

use crate::{Reply, Verdict};

/// The protocol version spoken in `hello`.
pub const PROTOCOL: u64 = 1;

/// Longest answer excerpt quoted in an error.
const QUOTE: usize = 120;

/// An operation of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `hello`, always first.
    Hello,
    /// `decide`.
    Decide,
    /// `decide-tokens`: a request of the harness that is not on the wire
    /// (yet): only in-process adapters answer it.
    DecideTokens,
    /// `sitemaps`.
    Sitemaps,
    /// `crawl-delay`.
    CrawlDelay,
    /// `usage`: AI usage preferences (attach-05 §3.1).
    Usage,
    /// `content-signal`: Cloudflare's Content Signals.
    ContentSignal,
    /// `valid-token`.
    ValidToken,
    /// `robots-url`.
    RobotsUrl,
    /// `fetch` (live).
    Fetch,
    /// `fetch-policy`: a request of the harness that never goes on the
    /// wire (only a model can answer it).
    FetchPolicy,
    /// `governs`.
    Governs,
}

impl Op {
    /// Every operation.
    pub const ALL: [Op; 12] = [
        Op::Hello,
        Op::Decide,
        Op::DecideTokens,
        Op::Sitemaps,
        Op::CrawlDelay,
        Op::Usage,
        Op::ContentSignal,
        Op::ValidToken,
        Op::RobotsUrl,
        Op::Fetch,
        Op::FetchPolicy,
        Op::Governs,
    ];

    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Hello => "hello",
            Op::Decide => "decide",
            Op::DecideTokens => "decide-tokens",
            Op::Sitemaps => "sitemaps",
            Op::CrawlDelay => "crawl-delay",
            Op::Usage => "usage",
            Op::ContentSignal => "content-signal",
            Op::ValidToken => "valid-token",
            Op::RobotsUrl => "robots-url",
            Op::Fetch => "fetch",
            Op::FetchPolicy => "fetch-policy",
            Op::Governs => "governs",
        }
    }

    /// The operation with this wire name.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.as_str() == name)
    }

    /// Answered with `results`, one per URL (else with one `value`).
    pub fn has_results(self) -> bool {
        matches!(self, Op::Decide | Op::Fetch)
    }
}

/// What was wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Not a JSON object.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// The answer carries another id than the one due.
    #[error("answer for id {got} where {due} was due: {line}")]
    WrongId {
        /// The id in the line.
        got: String,
        /// The id expected.
        due: u64,
        /// The line, cut short.
        line: String,
    },
    /// A value answer without `value`.
    #[error("no value: {0}")]
    NoValue(String),
    /// A results answer without `results`.
    #[error("no results")]
    NoResults,
    /// As many results as URLs were due, and this many came.
    #[error("{got} results for {due} URLs")]
    ResultCount {
        /// Results received.
        got: usize,
        /// URLs asked.
        due: usize,
    },
    /// A result that is neither a verdict nor an error.
    #[error("bad result {0}")]
    BadResult(String),
    /// A request naming no known operation.
    #[error("unsupported op {0}")]
    UnknownOp(String),
    /// A `robots` field that is not base64.
    #[error("robots is not base64: {0}")]
    BadBase64(String),
    /// A `urls` field that is not a list of strings.
    #[error("urls must be a list of strings, not {0}")]
    BadUrls(String),
    /// A request line that is not UTF-8.
    #[error("the request line is not UTF-8")]
    NotUtf8,
    /// A request line longer than the reader's limit.
    #[error("the request line is longer than {0} bytes")]
    TooLong(usize),
}

/// Why `url` is not a URL the protocol carries (an absolute URL
/// `scheme://authority…`, or a path starting with exactly one `/`, each
/// with an optional query), or `None` if it is.
pub fn url_error(url: &str) -> Option<String> {
    let absolute = url.find("://").is_some_and(|colon| {
        let scheme = &url[..colon];
        let mut chars = scheme.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    let path = url.starts_with('/') && !url.starts_with("//");
    (!absolute && !path).then(|| {
        format!(
            "url '{}' is neither an absolute URL nor a path starting with \
             exactly one '/'",
            cut(url)
        )
    })
}

/// One of the URL shapes only Google's library takes besides absolute
/// URLs and paths: empty, query-only (`?q`) or fragment-only (`#f`).
/// [`url_error`] refuses them; an adapter whose capabilities say
/// `library_urls` is asked them all the same.
pub fn is_library_url(url: &str) -> bool {
    url.is_empty() || url.starts_with(['?', '#'])
}

/// [`url_error`], except for a library-shaped URL ([`is_library_url`])
/// when the parser asked takes those (`library_urls`).
pub fn url_error_for(url: &str, library_urls: bool) -> Option<String> {
    if library_urls && is_library_url(url) {
        return None;
    }
    url_error(url).map(|e| {
        if is_library_url(url) {
            format!(
                "{e} (an empty, query-only or fragment-only URL is taken \
                 only under a profile or by a parser that takes Google's \
                 library inputs: `--profile google`, or an adapter whose \
                 manifest says `library_urls = true`)"
            )
        } else {
            e
        }
    })
}

fn cut(line: &str) -> String {
    line.chars().take(QUOTE).collect()
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// One request line's content (without its id).
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// `hello`.
    Hello,
    /// `decide`: one body, one agent, several URLs.
    Decide {
        /// The body.
        robots: Arc<[u8]>,
        /// The agent.
        agent: String,
        /// The URLs, answered in order.
        urls: Vec<String>,
    },
    /// `fetch`: fetch `robots_url` live, then decide the URLs.
    Fetch {
        /// The robots.txt URL on the fixture.
        robots_url: String,
        /// The agent.
        agent: String,
        /// The URLs, answered in order.
        urls: Vec<String>,
        /// The adapter's HTTP timeout per response.
        timeout: Duration,
    },
    /// `sitemaps`.
    Sitemaps {
        /// The body.
        robots: Arc<[u8]>,
    },
    /// `crawl-delay`.
    CrawlDelay {
        /// The body.
        robots: Arc<[u8]>,
        /// The agent.
        agent: String,
    },
    /// `usage`.
    Usage {
        /// The body.
        robots: Arc<[u8]>,
        /// The agent.
        agent: String,
        /// The URL.
        url: String,
    },
    /// `content-signal`.
    ContentSignal {
        /// The body.
        robots: Arc<[u8]>,
        /// The agent.
        agent: String,
    },
    /// `valid-token`.
    ValidToken {
        /// The token.
        token: String,
    },
    /// `robots-url`.
    RobotsUrl {
        /// The URL.
        url: String,
    },
    /// `governs`.
    Governs {
        /// The robots.txt URL.
        robots_url: String,
        /// The URL.
        url: String,
    },
}

impl Call {
    /// The operation.
    pub fn op(&self) -> Op {
        match self {
            Call::Hello => Op::Hello,
            Call::Decide { .. } => Op::Decide,
            Call::Fetch { .. } => Op::Fetch,
            Call::Sitemaps { .. } => Op::Sitemaps,
            Call::CrawlDelay { .. } => Op::CrawlDelay,
            Call::Usage { .. } => Op::Usage,
            Call::ContentSignal { .. } => Op::ContentSignal,
            Call::ValidToken { .. } => Op::ValidToken,
            Call::RobotsUrl { .. } => Op::RobotsUrl,
            Call::Governs { .. } => Op::Governs,
        }
    }

    /// The URLs a results answer must cover (empty for value calls).
    pub fn urls(&self) -> &[String] {
        match self {
            Call::Decide { urls, .. } | Call::Fetch { urls, .. } => urls,
            _ => &[],
        }
    }

    /// The same call for the `i`-th URL alone (for isolating a failed
    /// batch); a value call is returned unchanged.
    pub fn only(&self, i: usize) -> Call {
        let mut one = self.clone();
        if let Call::Decide { urls, .. } | Call::Fetch { urls, .. } = &mut one
        {
            *urls = urls.get(i).cloned().into_iter().collect();
        }
        one
    }

    /// The line for request `id`, with its newline.
    pub fn encode(&self, id: u64) -> String {
        let op = self.op().as_str();
        let v = match self {
            Call::Hello => json!({"id": id, "op": op, "protocol": PROTOCOL}),
            Call::Decide { robots, agent, urls } => json!({"id": id, "op": op,
                "robots": b64(robots), "agent": agent, "urls": urls}),
            Call::Fetch { robots_url, agent, urls, timeout } => {
                json!({"id": id, "op": op, "robots_url": robots_url,
                "agent": agent, "urls": urls, "timeout": timeout.as_secs_f64()})
            }
            Call::Sitemaps { robots } => {
                json!({"id": id, "op": op, "robots": b64(robots)})
            }
            Call::CrawlDelay { robots, agent } => {
                json!({"id": id, "op": op, "robots": b64(robots), "agent": agent})
            }
            Call::ContentSignal { robots, agent } => {
                json!({"id": id, "op": op, "robots": b64(robots), "agent": agent})
            }
            Call::Usage { robots, agent, url } => {
                json!({"id": id, "op": op, "robots": b64(robots), "agent": agent,
                "url": url})
            }
            Call::ValidToken { token } => {
                json!({"id": id, "op": op, "token": token})
            }
            Call::RobotsUrl { url } => json!({"id": id, "op": op, "url": url}),
            Call::Governs { robots_url, url } => {
                json!({"id": id, "op": op, "robots_url": robots_url, "url": url})
            }
        };
        format!("{v}\n")
    }

    /// Reads a request line: its id (`null` when it has none) and the
    /// call, or why it cannot be answered. Missing text fields read as
    /// empty, as a lenient peer expects.
    pub fn decode(line: &str) -> (Value, Result<Call, WireError>) {
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return (Value::Null, Err(WireError::NotJson(e.to_string())));
            }
        };
        let id = v.get("id").cloned().unwrap_or(Value::Null);
        (id, Call::from_value(&v))
    }

    fn from_value(v: &Value) -> Result<Call, WireError> {
        let text = |k: &str| {
            v.get(k).and_then(Value::as_str).unwrap_or_default().to_string()
        };
        let robots = || -> Result<Arc<[u8]>, WireError> {
            base64::engine::general_purpose::STANDARD
                .decode(text("robots"))
                .map(Into::into)
                .map_err(|e| WireError::BadBase64(e.to_string()))
        };
        // A missing list is empty; anything but a list of strings is
        // refused, never read as something else.
        let urls = || -> Result<Vec<String>, WireError> {
            let bad = |u: &Value| WireError::BadUrls(cut(&u.to_string()));
            match v.get("urls") {
                None => Ok(Vec::new()),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|u| {
                        u.as_str().map(str::to_string).ok_or_else(|| bad(u))
                    })
                    .collect(),
                Some(other) => Err(bad(other)),
            }
        };
        let name = text("op");
        let op = Op::from_name(&name).ok_or(WireError::UnknownOp(name))?;
        Ok(match op {
            Op::Hello => Call::Hello,
            Op::Decide => Call::Decide {
                robots: robots()?,
                agent: text("agent"),
                urls: urls()?,
            },
            Op::Fetch => {
                let timeout =
                    v.get("timeout").and_then(Value::as_f64).unwrap_or(5.0);
                Call::Fetch {
                    robots_url: text("robots_url"),
                    agent: text("agent"),
                    urls: urls()?,
                    timeout: Duration::try_from_secs_f64(timeout.max(0.0))
                        .unwrap_or(Duration::from_secs(5)),
                }
            }
            Op::Sitemaps => Call::Sitemaps { robots: robots()? },
            Op::CrawlDelay => {
                Call::CrawlDelay { robots: robots()?, agent: text("agent") }
            }
            Op::ContentSignal => {
                Call::ContentSignal { robots: robots()?, agent: text("agent") }
            }
            Op::Usage => Call::Usage {
                robots: robots()?,
                agent: text("agent"),
                url: text("url"),
            },
            Op::ValidToken => Call::ValidToken { token: text("token") },
            Op::RobotsUrl => Call::RobotsUrl { url: text("url") },
            Op::Governs => Call::Governs {
                robots_url: text("robots_url"),
                url: text("url"),
            },
            Op::FetchPolicy | Op::DecideTokens => {
                return Err(WireError::UnknownOp(op.as_str().into()));
            }
        })
    }
}

/// What `hello` answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hello {
    /// `<language>-<package>`.
    pub name: Option<String>,
    /// The parser package and its version.
    pub version: Option<String>,
    /// The language.
    pub language: Option<String>,
    /// The claimed profile.
    pub profile: Option<String>,
}

impl Hello {
    /// Reads a `hello` answer line (every field optional).
    pub fn decode(line: &str) -> Result<Hello, WireError> {
        let v: Value = serde_json::from_str(line)
            .map_err(|_| WireError::NotJson(cut(line)))?;
        let field =
            |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        Ok(Hello {
            name: field("name"),
            version: field("version"),
            language: field("language"),
            profile: field("profile"),
        })
    }

    /// The answer line for request `id`, with its newline.
    pub fn encode(&self, id: &Value) -> String {
        let mut m = Map::new();
        m.insert("id".into(), id.clone());
        for (k, f) in [
            ("name", &self.name),
            ("version", &self.version),
            ("language", &self.language),
            ("profile", &self.profile),
        ] {
            if let Some(f) = f {
                m.insert(k.into(), f.clone().into());
            }
        }
        format!("{}\n", Value::Object(m))
    }
}

/// The answer line to request `id`, with its newline, for `replies` to
/// a call of `op` (one per URL for `decide`/`fetch`, else one).
/// Non-answers (not applicable, crashes, ...) are sent as errors, except
/// that a value call no one could express is `unsupported`.
pub fn encode_answer(id: &Value, op: Op, replies: &[Reply]) -> String {
    let v = if op.has_results() {
        let results: Vec<Value> = replies.iter().map(result).collect();
        json!({"id": id, "results": results})
    } else {
        match replies.first() {
            Some(Reply::Value { value }) => json!({"id": id, "value": value}),
            Some(other) => json!({"id": id, "error": other.word()}),
            None => json!({"id": id, "error": "no answer"}),
        }
    };
    format!("{v}\n")
}

/// The answer line for a request that could not be read.
pub fn encode_failure(id: &Value, e: &WireError) -> String {
    let v = match e {
        WireError::UnknownOp(_) => {
            json!({"id": id, "unsupported": e.to_string()})
        }
        _ => json!({"id": id, "error": e.to_string()}),
    };
    format!("{v}\n")
}

fn result(r: &Reply) -> Value {
    match r {
        Reply::Verdict { verdict, .. } => json!({"verdict": verdict.as_str()}),
        Reply::Error { message } => json!({"error": message}),
        other => json!({"error": other.word()}),
    }
}

/// Reads the answer line to request `id`, a call of `op` over `n` URLs
/// (1 for value calls), as `n` replies.
pub fn decode_answer(
    line: &str,
    id: u64,
    op: Op,
    n: usize,
) -> Result<Vec<Reply>, WireError> {
    let v: Value = serde_json::from_str(line)
        .map_err(|_| WireError::NotJson(cut(line)))?;
    if v.get("id").and_then(Value::as_u64) != Some(id) {
        return Err(WireError::WrongId {
            got: v["id"].to_string(),
            due: id,
            line: cut(line),
        });
    }
    if let Some(why) = v.get("unsupported") {
        let why = why.as_str().unwrap_or("unsupported").to_string();
        return Ok(vec![Reply::NotApplicable { why }; n]);
    }
    if let Some(e) = v.get("error") {
        return Ok(vec![Reply::Error { message: message(e) }; n]);
    }
    if !op.has_results() {
        let value = v
            .get("value")
            .cloned()
            .ok_or_else(|| WireError::NoValue(cut(line)))?;
        return Ok(vec![Reply::Value { value }]);
    }
    let results = v
        .get("results")
        .and_then(Value::as_array)
        .ok_or(WireError::NoResults)?;
    if results.len() != n {
        return Err(WireError::ResultCount { got: results.len(), due: n });
    }
    results
        .iter()
        .map(|r| {
            let verdict = match r.get("verdict").and_then(Value::as_str) {
                Some("allowed") => Some(Verdict::Allowed),
                Some("disallowed") => Some(Verdict::Disallowed),
                _ => None,
            };
            match (verdict, r.get("error")) {
                (Some(verdict), _) => {
                    Ok(Reply::Verdict { verdict, explanation: None })
                }
                (None, Some(e)) => Ok(Reply::Error { message: message(e) }),
                (None, None) => Err(WireError::BadResult(r.to_string())),
            }
        })
        .collect()
}

fn message(e: &Value) -> String {
    e.as_str().map_or_else(|| e.to_string(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_shaped_urls_pass_only_for_parsers_that_take_them() {
        for url in ["", "?q", "#f"] {
            assert!(is_library_url(url), "{url:?}");
            assert_eq!(url_error_for(url, true), None, "{url:?}");
            let e = url_error_for(url, false).unwrap();
            assert!(e.contains("library_urls = true"), "{e}");
        }
        for url in ["/", "/?q", "x", "//h/a"] {
            assert!(!is_library_url(url), "{url:?}");
        }
        assert_eq!(url_error_for("x", true), url_error("x"));
        assert_eq!(url_error_for("/a", false), None);
    }

    #[test]
    fn urls_must_be_a_list_of_strings() {
        for urls in ["\"/x\"", "[null]", "[5]", "{}", "null"] {
            let line = format!(
                r#"{{"id":1,"op":"decide","robots":"","agent":"a","urls":{urls}}}"#
            );
            let (_, call) = Call::decode(&line);
            assert!(matches!(call, Err(WireError::BadUrls(_))), "{urls}");
        }
        let (_, call) =
            Call::decode(r#"{"id":1,"op":"decide","robots":"","agent":"a"}"#);
        assert_eq!(call.unwrap().urls(), &[] as &[String]);
    }

    #[test]
    fn a_url_is_absolute_or_a_path_from_one_slash() {
        for ok in ["/", "/a?b", "https://e.com", "http://h/x#f", "a+b.c-d://x"]
        {
            assert_eq!(url_error(ok), None, "{ok}");
        }
        for bad in
            ["", "#/x", "?q", "x", "//h/x", "1x://h", "://h", "mailto:a"]
        {
            assert!(url_error(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn op_names_round_trip() {
        for op in Op::ALL {
            assert_eq!(Op::from_name(op.as_str()), Some(op));
        }
    }

    #[test]
    fn calls_round_trip_through_a_line() {
        let calls = [
            Call::Hello,
            Call::Decide {
                robots: Arc::from(&b"\xff\r\nDisallow: /\0"[..]),
                agent: "FooBot".into(),
                urls: vec!["/a".into(), "https://e.example/b?c".into()],
            },
            Call::Fetch {
                robots_url: "http://127.0.0.1:1/robots.txt".into(),
                agent: "FooBot".into(),
                urls: vec!["http://127.0.0.1:1/x".into()],
                timeout: Duration::from_millis(1500),
            },
            Call::Sitemaps { robots: Arc::from(&b"Sitemap: /s"[..]) },
            Call::CrawlDelay {
                robots: Arc::from(&b""[..]),
                agent: "a".into(),
            },
            Call::Usage {
                robots: Arc::from(
                    &b"User-agent: *\nContent-Usage: train-ai=n"[..],
                ),
                agent: "a".into(),
                url: "/x".into(),
            },
            Call::ContentSignal {
                robots: Arc::from(
                    &b"User-agent: *\nContent-Signal: search=yes"[..],
                ),
                agent: "a".into(),
            },
            Call::ValidToken { token: "Foo_Bar".into() },
            Call::RobotsUrl { url: "https://a.example/x".into() },
            Call::Governs {
                robots_url: "https://a.example/robots.txt".into(),
                url: "https://a.example/x".into(),
            },
        ];
        for (i, call) in calls.iter().enumerate() {
            let line = call.encode(i as u64);
            assert!(line.ends_with('\n') && !line.trim_end().contains('\n'));
            let (id, back) = Call::decode(&line);
            assert_eq!(id, json!(i));
            assert_eq!(back.as_ref(), Ok(call), "{line}");
        }
    }

    #[test]
    fn answers_round_trip_and_bad_ones_are_named() {
        let replies = [
            Reply::verdict(true),
            Reply::verdict(false),
            Reply::Error { message: "boom".into() },
        ];
        let line = encode_answer(&json!(7), Op::Decide, &replies);
        assert_eq!(
            decode_answer(&line, 7, Op::Decide, 3),
            Ok(replies.to_vec())
        );
        let value = encode_answer(
            &json!(8),
            Op::Sitemaps,
            &[Reply::Value { value: json!(["/s"]) }],
        );
        assert_eq!(
            decode_answer(&value, 8, Op::Sitemaps, 1),
            Ok(vec![Reply::Value { value: json!(["/s"]) }])
        );
        assert!(matches!(
            decode_answer(&line, 8, Op::Decide, 3),
            Err(WireError::WrongId { due: 8, .. })
        ));
        assert_eq!(
            decode_answer(&line, 7, Op::Decide, 2),
            Err(WireError::ResultCount { got: 3, due: 2 })
        );
        assert!(matches!(
            decode_answer("garbage", 7, Op::Decide, 1),
            Err(WireError::NotJson(_))
        ));
        let unsupported = encode_failure(
            &json!(9),
            &Call::decode(r#"{"id":9,"op":"frobnicate"}"#).1.unwrap_err(),
        );
        assert_eq!(
            decode_answer(&unsupported, 9, Op::Sitemaps, 1),
            Ok(vec![Reply::not_applicable("unsupported op frobnicate")])
        );
    }

    #[test]
    fn hello_round_trips() {
        let h = Hello {
            name: Some("reference".into()),
            version: Some("robots-oracle 0.1.0".into()),
            language: Some("rust".into()),
            profile: None,
        };
        assert_eq!(Hello::decode(&h.encode(&json!(0))), Ok(h));
    }
}
