//! Human-readable renderings: a failing check as labelled blocks
//! (robots.txt line-numbered, query, got, want, why, clauses).
//!
//! Pure text from values already computed: it never asks an adapter, and
//! it numbers body lines with the oracle's own splitter, never its own.

use std::fmt::Write;

use robots_adapters::scenario::{Answer, Scenario};
// The oracle's line splitter, so lines are numbered as its explanations
// number them.
use robots_adapters::line_ranges;
use robots_adapters::{Reply, Request};

use crate::case::{Case, Check};
use crate::suite::Suite;

/// The body with line numbers, as the oracle counts lines (CR, LF, CRLF
/// each end one line), control bytes escaped, a line's CR shown as `\r`
/// (its LF is not shown); long bodies are cut.
pub fn numbered_body(body: &[u8]) -> String {
    const MAX_LINES: usize = 40;
    let mut out = String::new();
    let mut count = 0;
    for (i, range) in line_ranges(body).enumerate() {
        if i == MAX_LINES {
            let _ = writeln!(out, "   … ({} bytes in all)", body.len());
            return out;
        }
        let ends_with_cr = body.get(range.end) == Some(&b'\r');
        let text = String::from_utf8_lossy(&body[range]);
        let mut shown: String = text
            .chars()
            .flat_map(|c| match c {
                '\t' => "\\t".chars().collect::<Vec<_>>(),
                '\u{feff}' => "\\uFEFF".chars().collect(),
                c if c.is_control() => c.escape_default().collect(),
                c => vec![c],
            })
            .take(160)
            .collect();
        if ends_with_cr {
            shown.push_str("\\r");
        }
        let _ = writeln!(out, "{:>4} | {shown}", i + 1);
        count += 1;
    }
    if count == 0 {
        out.push_str("     (empty)\n");
    }
    out
}

/// A request in one line.
pub fn describe_question(q: &Request) -> String {
    match q {
        Request::Decide { agent, url, .. } => {
            format!("decide agent={agent:?} url={url:?}")
        }
        Request::DecideTokens { agents, url, .. } => {
            format!(
                "decide agents={agents:?} (most specific first) url={url:?}"
            )
        }
        Request::Sitemaps { .. } => "sitemaps".into(),
        Request::CrawlDelay { agent, .. } => {
            format!("crawl-delay agent={agent:?}")
        }
        Request::ContentSignal { agent, .. } => {
            format!("content-signal agent={agent:?}")
        }
        Request::Usage { agent, url, .. } => {
            format!("usage agent={agent:?} url={url:?}")
        }
        Request::ValidToken { token } => {
            format!("valid-token token={token:?}")
        }
        Request::RobotsUrl { url } => format!("robots-url url={url:?}"),
        Request::Fetch { agent, url, .. } => {
            format!("fetch, then decide agent={agent:?} url={url:?}")
        }
        Request::FetchPolicy { .. } => "fetch, then the access policy".into(),
        Request::Governs { robots_url, url } => {
            format!("governs robots={robots_url:?} url={url:?}")
        }
    }
}

/// A fetch scenario as a few lines: the routes, the cache, the clock;
/// then each distinct served body, line-numbered.
pub fn describe_scenario(s: &Scenario) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "fetch: GET {}", s.start);
    for r in &s.routes {
        let delay = match &r.answer {
            Answer::Response(resp) if resp.delay_ms > 0 => {
                format!(" (after {} ms)", resp.delay_ms)
            }
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  {} answers {}{delay}",
            r.url,
            r.answer.describe()
        );
    }
    if let Some(c) = &s.cached {
        let _ = writeln!(
            out,
            "  cached copy: {} s old, {} bytes{}",
            c.age,
            c.body.len(),
            c.cache_control
                .as_ref()
                .map(|v| format!(", Cache-Control: {v}"))
                .unwrap_or_default()
        );
    }
    if s.unreachable_for > 0 {
        let _ =
            writeln!(out, "  unreachable for {} s before", s.unreachable_for);
    }
    if !s.site_available {
        let _ = writeln!(out, "  the rest of the site is down");
    }
    let mut shown: Vec<&[u8]> = Vec::new();
    for r in &s.routes {
        if let Answer::Response(resp) = &r.answer
            && !resp.body.is_empty()
            && !shown.contains(&&resp.body[..])
        {
            shown.push(&resp.body);
            let _ = writeln!(out, "body of {}:", r.url);
            out.push_str(&numbered_body(&resp.body));
        }
    }
    if let Some(c) = &s.cached
        && !c.body.is_empty()
    {
        let _ = writeln!(out, "body of the cached copy:");
        out.push_str(&numbered_body(&c.body));
    }
    out
}

/// A reply in one line.
pub fn describe_reply(r: &Reply) -> String {
    match r {
        Reply::Verdict { verdict, .. } => verdict.as_str().to_string(),
        Reply::Value { value } => value.to_string(),
        Reply::NotApplicable { why } => format!("not-applicable ({why})"),
        Reply::Error { message } => format!("error: {message}"),
        Reply::Crashed { message } => format!("crashed: {message}"),
        Reply::TimedOut => "timeout".into(),
        Reply::ProtocolError { message } => {
            format!("protocol error: {message}")
        }
    }
}

/// The labelled account of a failed check (toml-test style).
pub fn failure(
    suite: &Suite,
    case: &Case,
    check: &Check,
    adapter: &str,
    profile: &str,
    reply: &Reply,
    detail: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{detail}");
    match &case.fetch {
        Some(s) => {
            let _ = writeln!(
                out,
                "scenario ({}:{}):",
                case.file.display(),
                case.line
            );
            out.push_str(&describe_scenario(s));
        }
        None => {
            let _ = writeln!(
                out,
                "robots.txt ({}:{}):",
                case.file.display(),
                case.line
            );
            out.push_str(&numbered_body(&case.robots));
        }
    }
    let _ = writeln!(out, "query: {}", describe_question(&check.request));
    let _ = writeln!(
        out,
        "want ({profile}): {}",
        check.expected(profile).describe()
    );
    let _ = writeln!(out, "got ({adapter}): {}", describe_reply(reply));
    if let Reply::Verdict { explanation: Some(ex), .. } = reply {
        let _ = write!(out, "why ({adapter}):\n{}", ex.text);
    }
    if let Some(why) = &check.why {
        let _ = writeln!(out, "implementation-defined because: {why}");
    }
    let _ = writeln!(out, "clauses:");
    for id in &case.clauses {
        let text = suite.clause(id).map_or("(unknown)", |c| c.text.as_str());
        let short: String =
            text.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(
            out,
            "  {id}: {}",
            short.chars().take(200).collect::<String>()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use robots_adapters::reference::Reference;
    use robots_adapters::{Adapter, Reply, Request};

    use super::numbered_body;

    #[test]
    fn a_crlf_body_is_numbered_like_the_oracles_explanation() {
        let body: Arc<[u8]> =
            Arc::from(&b"User-agent: *\r\nAllow: /a\r\n\rDisallow: /\r\n"[..]);
        let mut oracle = Reference::for_profile("rfc9309").unwrap();
        let request = Request::Decide {
            robots: body.clone(),
            agent: "bot".into(),
            url: "/x".into(),
        };
        let reply = oracle.answer(&request);
        let Reply::Verdict { explanation: Some(ex), .. } = reply else {
            panic!("no explanation: {reply:?}")
        };
        let line = ex.rule_line.expect("a rule decided");
        assert_eq!(line, 4, "{}", ex.text);
        let numbered = numbered_body(&body);
        let shown = format!("{line:>4} | Disallow: /\\r\n");
        assert!(numbered.contains(&shown), "{numbered}");
        assert_eq!(numbered.lines().count(), 4, "{numbered}");
        assert!(numbered.contains("   3 | \\r\n"), "{numbered}");
    }
}
