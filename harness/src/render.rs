//! Human-readable renderings: a failing check as labelled blocks
//! (robots.txt line-numbered, query, got, want, why, clauses).

use std::fmt::Write;

use robots_adapters::Reply;

use crate::case::{Case, Check, Question};
use crate::suite::Suite;

/// The body with line numbers, as the oracle counts lines (CR, LF, CRLF),
/// control bytes escaped; long bodies are cut.
pub fn numbered_body(body: &[u8]) -> String {
    const MAX_LINES: usize = 40;
    let mut out = String::new();
    let text = String::from_utf8_lossy(body);
    let mut count = 0;
    for (i, line) in text.split_inclusive(['\n', '\r']).enumerate() {
        if i == MAX_LINES {
            let _ = writeln!(out, "   … ({} bytes in all)", body.len());
            return out;
        }
        let shown: String = line
            .chars()
            .flat_map(|c| match c {
                '\r' => "\\r".chars().collect::<Vec<_>>(),
                '\n' => vec![],
                '\t' => "\\t".chars().collect(),
                '\u{feff}' => "\\uFEFF".chars().collect(),
                c if c.is_control() => c.escape_default().collect(),
                c => vec![c],
            })
            .take(160)
            .collect();
        let _ = writeln!(out, "{:>4} | {shown}", i + 1);
        count += 1;
    }
    if count == 0 {
        out.push_str("     (empty)\n");
    }
    out
}

/// A question in one line.
pub fn describe_question(q: &Question) -> String {
    match q {
        Question::Decide { agent, url } => {
            format!("decide agent={agent:?} url={url:?}")
        }
        Question::Sitemaps => "sitemaps".into(),
        Question::CrawlDelay { agent } => {
            format!("crawl-delay agent={agent:?}")
        }
        Question::ValidToken { token } => {
            format!("valid-token token={token:?}")
        }
        Question::RobotsUrl { url } => format!("robots-url url={url:?}"),
    }
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
    let _ =
        writeln!(out, "robots.txt ({}:{}):", case.file.display(), case.line);
    out.push_str(&numbered_body(&case.robots));
    let _ = writeln!(out, "query: {}", describe_question(&check.question));
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
