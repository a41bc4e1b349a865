//! Bugs, upstream-ready: the checks a parser's fitted reading does not
//! explain, each minimised, grouped by cause, one report per cause.
//!
//! A residual check (see [`crate::fit::Fit::residual`]) of the `decide`
//! operation is shrunk (lines, bytes, URL) while the parser keeps its
//! answer and the oracle under the fitted reading keeps its other one;
//! the shrunk check is then classified: the single switch that would make
//! the fitted reading give the parser's answer (a reading the parser
//! follows here but not elsewhere), else `unexplained`. Checks of other
//! operations are kept as asked. The cause key is the operation, that
//! classification, the two answers and the case's first clause: checks
//! with one key are one bug.
//!
//! The one module of this crate that asks the parser again, and only to
//! minimise: at most [`MINIMISE_BUDGET`] questions per residual check, at
//! most [`MAX_MINIMISED`] checks. It re-decides with the oracle only
//! through the reference adapter, and judges by the fitted reading, never
//! by a case's expectation alone (that is shown beside it).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Reply, Request, Verdict};
use robots_diff::minimise::{Subject, minimise};
use robots_oracle::{Profile, switches};
use robots_runner::case::fetch::encode_codings;
use robots_runner::case::{Case, Check};
use robots_runner::output::{OutDir, OutputError, atomic_write};
use robots_runner::suite::Clause;
use serde::Serialize;

use crate::answers::{Answers, Selection, agree, is_answer, oracle_replies};
use crate::fit::Fit;
use crate::reading::Reading;

/// Questions to the parser (and as many to the oracle) per minimised
/// check.
pub const MINIMISE_BUDGET: usize = 160;

/// Residual checks minimised at most; the rest are classified as asked.
pub const MAX_MINIMISED: usize = 400;

/// A robots.txt body shown in a report at most this long (longer ones are
/// cut, saying so).
const SHOWN_BODY_BYTES: usize = 4_000;

/// One distinct residual disagreement: a bug of the parser.
#[derive(Clone, Debug, Serialize)]
pub struct Bug {
    /// The cause key the checks were grouped by.
    pub key: String,
    /// A one-line title.
    pub title: String,
    /// The operation (`decide`, `sitemaps`, `fetch-policy`, ...).
    pub op: &'static str,
    /// Under the fitted reading: the switch that gives the parser's
    /// answer, or `unexplained`.
    pub cause: String,
    /// The case that reproduces it (`folder::stem::id`) and its file.
    pub case: String,
    /// The case's file and line.
    pub case_file: String,
    /// The check shown (the first of the class).
    pub check: String,
    /// Every residual check of the class.
    pub checks: Vec<String>,
    /// The robots.txt body shown (minimised when `minimised`).
    #[serde(skip)]
    pub robots: Vec<u8>,
    /// The crawler's product token(s).
    pub agent: String,
    /// The URL (or what else the check asks about).
    pub url: String,
    /// Whether the body and URL are minimised.
    pub minimised: bool,
    /// For a fetch check whose site `check --status` and
    /// `--content-encoding` can serve (the file alone, at the default
    /// robots.txt URL: [`servable`]), its status and content codings.
    pub served: Option<Served>,
    /// What the parser answered.
    pub actual: String,
    /// What the oracle answers under the fitted reading.
    pub fitted: String,
    /// What the oracle answers under the claimed built-in profile.
    pub claimed_oracle: String,
    /// The case's expectation under the claimed profile (for the check
    /// as written, before minimising).
    pub claimed_expected: String,
    /// The clauses the case cites, quoted.
    pub clauses: Vec<Quote>,
}

/// How the file of a fetch check is served: what `check --status CODE
/// --content-encoding CODINGS` serves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Served {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Encoding` value, if the body is coded.
    pub content_encoding: Option<String>,
}

/// How `check` can serve the site of `request` with `body` as the file,
/// if it can: a fetch of the file alone at the default robots.txt URL
/// (no other route, no cached copy, no earlier outage), answered at once
/// with a status that is no redirect, a `text/plain` body that is `body`
/// (coded with its `Content-Encoding`, if any) and no other header.
pub fn servable(request: &Request, body: &[u8]) -> Option<Served> {
    use robots_adapters::scenario::{Answer, DEFAULT_START};
    let Request::Fetch { scenario, .. } = request else { return None };
    let [route] = scenario.routes.as_slice() else { return None };
    let Answer::Response(r) = &route.answer else { return None };
    let alone = scenario.start == DEFAULT_START
        && route.url == DEFAULT_START
        && scenario.cached.is_none()
        && scenario.unreachable_for == 0
        && scenario.site_available
        && r.delay_ms == 0
        && crate::register::servable_status(r.status);
    let plain = r.headers.iter().all(|(k, v)| {
        k.eq_ignore_ascii_case("content-encoding")
            || (k.eq_ignore_ascii_case("content-type")
                && v.to_ascii_lowercase().starts_with("text/plain"))
    });
    if !alone || !plain {
        return None;
    }
    let content_encoding = r.header("content-encoding").map(str::to_string);
    let same = match &content_encoding {
        None => *r.body == *body,
        Some(c) => encode_codings(c, body).is_ok_and(|b| *b == *r.body),
    };
    same.then_some(Served { status: r.status, content_encoding })
}

/// A clause as quoted in a report.
#[derive(Clone, Debug, Serialize)]
pub struct Quote {
    /// Its id (`R2.2.2-5`, `G-PREC-2`).
    pub id: String,
    /// Where it is from (`RFC 9309 §2.2.2`, Google's documentation).
    pub from: String,
    /// Its level (MUST, SHOULD, ...).
    pub level: String,
    /// The text.
    pub text: String,
}

/// The bugs of one parser: its residual checks, minimised and grouped.
///
/// `parser` is asked again only to minimise; `answers` are its answers to
/// `selection` and `fit` the fit of them; `clauses` the clause index.
pub fn find_bugs(
    parser: &mut dyn Adapter,
    answers: &Answers,
    selection: &Selection,
    fit: &Fit,
    clauses: &[Clause],
) -> Vec<Bug> {
    let Some(reading) = fit.reading.clone() else { return Vec::new() };
    let claimed = Reading::built_in(&fit.claimed)
        .or_else(|| Reading::built_in("rfc9309"))
        .map_or_else(Profile::rfc9309, |r| r.profile);
    let fitted_replies = oracle_replies(&reading, selection);
    let flat =
        selection.iter().flat_map(|(c, ks)| ks.iter().map(|k| (*c, *k)));
    let mut classes: BTreeMap<String, Bug> = BTreeMap::new();
    let mut minimised = 0;
    for (((case, check), (_, reply)), fitted) in
        flat.zip(&answers.replies).zip(&fitted_replies)
    {
        if !is_answer(reply) || agree(reply, fitted) {
            continue;
        }
        let may_minimise = minimised < MAX_MINIMISED;
        let bug = match (&check.request, reply, fitted) {
            (
                Request::Decide { robots, agent, url },
                Reply::Verdict { verdict: theirs, .. },
                Reply::Verdict { verdict: ours, .. },
            ) => {
                let s = Subject {
                    robots: robots.to_vec(),
                    agent: agent.clone(),
                    url: url.clone(),
                };
                let s = match may_minimise {
                    true => {
                        minimised += 1;
                        shrink(parser, &reading, s, *theirs, *ours)
                    }
                    false => s,
                };
                decide_bug(
                    case,
                    check,
                    &reading,
                    &claimed,
                    s,
                    *theirs,
                    *ours,
                    may_minimise,
                )
            }
            _ => other_bug(case, check, &claimed, reply, fitted),
        };
        let bug = Bug { clauses: quotes(case, clauses), ..bug };
        classes
            .entry(bug.key.clone())
            .and_modify(|b| b.checks.push(check.name.clone()))
            .or_insert(bug);
    }
    let mut bugs: Vec<Bug> = classes.into_values().collect();
    // Most checks first: the widest bug leads.
    bugs.sort_by_key(|b| std::cmp::Reverse(b.checks.len()));
    bugs
}

fn decide(s: &Subject) -> Request {
    Request::Decide {
        robots: Arc::from(s.robots.as_slice()),
        agent: s.agent.clone(),
        url: s.url.clone(),
    }
}

fn verdict_of(r: &Reply) -> Option<Verdict> {
    match r {
        Reply::Verdict { verdict, .. } => Some(*verdict),
        _ => None,
    }
}

/// Bodies up to this size keep their cause while they are minimised
/// (classifying re-decides once per switch); larger ones keep only the
/// two answers.
const CAUSE_KEPT_BYTES: usize = 64 * 1024;

/// `s` shrunk while the parser says `theirs`, the fitted reading `ours`,
/// and (for bodies up to [`CAUSE_KEPT_BYTES`]) the cause stays the one
/// of the check as asked, so that shrinking never turns one bug into
/// another.
fn shrink(
    parser: &mut dyn Adapter,
    reading: &Reading,
    s: Subject,
    theirs: Verdict,
    ours: Verdict,
) -> Subject {
    let mut oracle = Reference::with_fetch_profile(
        reading.profile.clone(),
        reading.fetch.clone(),
    );
    let kept = (s.robots.len() <= CAUSE_KEPT_BYTES)
        .then(|| cause(reading, &s, theirs));
    minimise(s, MINIMISE_BUDGET, &mut |s: &Subject| {
        let req = decide(s);
        verdict_of(&oracle.answer(&req)) == Some(ours)
            && verdict_of(&parser.answer(&req)) == Some(theirs)
            && kept.as_ref().is_none_or(|c| *c == cause(reading, s, theirs))
    })
}

/// The first rule switch that makes the fitted reading say `theirs` on
/// `s`, else `unexplained`.
fn cause(reading: &Reading, s: &Subject, theirs: Verdict) -> String {
    let req = decide(s);
    switches()
        .iter()
        .filter(|sw| sw.changes(&reading.profile))
        .find(|sw| {
            let mut r = Reference::with_fetch_profile(
                sw.applied_to(&reading.profile),
                reading.fetch.clone(),
            );
            verdict_of(&r.answer(&req)) == Some(theirs)
        })
        .map_or_else(|| "unexplained".to_string(), |sw| sw.name.to_string())
}

#[allow(clippy::too_many_arguments)]
fn decide_bug(
    case: &Case,
    check: &Check,
    reading: &Reading,
    claimed: &Profile,
    s: Subject,
    theirs: Verdict,
    ours: Verdict,
    minimised: bool,
) -> Bug {
    let why = cause(reading, &s, theirs);
    let mut under_claim = Reference::new(claimed.clone());
    let claimed_oracle = verdict_of(&under_claim.answer(&decide(&s)))
        .map_or_else(|| "error".to_string(), |v| v.as_str().to_string());
    let first = case.clauses.first().map_or("-", String::as_str);
    let key = format!(
        "decide|{why}|{}-not-{}|{first}",
        theirs.as_str(),
        ours.as_str()
    );
    let title = format!(
        "`{}` is {} for `{}` where {first} gives {} (fitted reading){}",
        s.url,
        theirs.as_str(),
        s.agent,
        ours.as_str(),
        match why.as_str() {
            "unexplained" => String::new(),
            w => format!(" (as if `{w}`)"),
        }
    );
    Bug {
        key,
        title,
        op: "decide",
        cause: why,
        case: case.name.clone(),
        case_file: format!("{}:{}", case.file.display(), case.line),
        check: check.name.clone(),
        checks: vec![check.name.clone()],
        robots: s.robots,
        agent: s.agent,
        url: s.url,
        minimised,
        served: None,
        actual: theirs.as_str().to_string(),
        fitted: ours.as_str().to_string(),
        claimed_oracle,
        claimed_expected: check.expected(claimed.name).describe(),
        clauses: Vec::new(),
    }
}

fn other_bug(
    case: &Case,
    check: &Check,
    claimed: &Profile,
    reply: &Reply,
    fitted: &Reply,
) -> Bug {
    let op = check.request.op();
    let first = case.clauses.first().map_or("-", String::as_str);
    let mut under_claim = Reference::new(claimed.clone());
    let (agent, url) = subject_words(&check.request);
    Bug {
        key: format!("{op}|value|{first}"),
        title: format!(
            "`{op}` answers {} where {first} gives {} (fitted reading)",
            words(reply),
            words(fitted)
        ),
        op,
        cause: "unexplained".into(),
        case: case.name.clone(),
        case_file: format!("{}:{}", case.file.display(), case.line),
        check: check.name.clone(),
        checks: vec![check.name.clone()],
        robots: case.robots.to_vec(),
        agent,
        url,
        minimised: false,
        served: servable(&check.request, &case.robots),
        actual: words(reply),
        fitted: words(fitted),
        claimed_oracle: words(&under_claim.answer(&check.request)),
        claimed_expected: check.expected(claimed.name).describe(),
        clauses: Vec::new(),
    }
}

/// The agent and URL (or other subject) a non-decide request names.
fn subject_words(r: &Request) -> (String, String) {
    let v = serde_json::to_value(r).unwrap_or_default();
    let get = |k: &str| {
        v.get(k).map_or_else(String::new, |x| match x.as_str() {
            Some(s) => s.to_string(),
            None => x.to_string(),
        })
    };
    let agent = match get("agent") {
        a if a.is_empty() => get("agents"),
        a => a,
    };
    let url = match get("url") {
        u if u.is_empty() => get("token"),
        u => u,
    };
    (agent, url)
}

/// A reply in a few words.
fn words(r: &Reply) -> String {
    match r {
        Reply::Verdict { verdict, .. } => verdict.as_str().to_string(),
        Reply::Value { value } => value.to_string(),
        other => other.word().to_string(),
    }
}

fn quotes(case: &Case, clauses: &[Clause]) -> Vec<Quote> {
    case.clauses
        .iter()
        .filter_map(|id| clauses.iter().find(|c| &c.id == id))
        .map(|c| Quote {
            id: c.id.clone(),
            from: match c.source.as_str() {
                "rfc9309" => format!("RFC 9309 §{}", c.section),
                "google-doc" => format!(
                    "Google's robots.txt documentation ({})",
                    c.section
                ),
                _ => format!("Google's open-source parser ({})", c.section),
            },
            level: c.level.clone(),
            text: c.text.trim().to_string(),
        })
        .collect()
}

/// The parser a report is about.
#[derive(Clone, Debug)]
pub struct About {
    /// The adapter's name.
    pub adapter: String,
    /// Its language.
    pub language: String,
    /// The parser package and version.
    pub version: String,
}

/// One bug as Markdown, pasteable into the parser's issue tracker.
pub fn render_bug(about: &About, fit: &Fit, bug: &Bug) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", bug.title);
    let _ = writeln!(
        md,
        "- Parser: {} ({}; adapter `{}`), claiming `{}`",
        about.version, about.language, about.adapter, fit.claimed
    );
    let _ = writeln!(md, "- Fitted reading: `{}`", fit.line());
    let _ = writeln!(
        md,
        "- Reproduced by the robots-conformance case `{}` ({}), check `{}`",
        bug.case, bug.case_file, bug.check
    );
    let _ = writeln!(
        md,
        "- Cause under the fitted reading: `{}`{}",
        bug.cause,
        match bug.cause.as_str() {
            "unexplained" => " (no reading of the oracle gives this answer)",
            _ => {
                " (a reading the parser follows here, though not on the \
                 other checks)"
            }
        }
    );
    let _ = writeln!(md, "- Checks of this class: {}\n", bug.checks.len());
    let _ = writeln!(md, "## Reproduce\n");
    let _ = writeln!(
        md,
        "robots.txt ({}{} bytes):\n",
        if bug.minimised { "minimised, " } else { "" },
        bug.robots.len()
    );
    let _ = writeln!(md, "```text\n{}\n```\n", shown(&bug.robots));
    let _ = writeln!(md, "- Agent: `{}`", bug.agent);
    let _ = writeln!(md, "- URL: `{}`", bug.url);
    let _ = writeln!(md, "- Operation: `{}`", bug.op);
    if let Some(served) = &bug.served {
        let (header, flag) = served.content_encoding.as_ref().map_or_else(
            Default::default,
            |c| {
                (
                    format!(", Content-Encoding: {c}"),
                    format!(" --content-encoding '{c}'"),
                )
            },
        );
        let _ = writeln!(
            md,
            "- Served: status {}{header}; replay: `robots-conformance check \
             --robots robots.txt --agent '{}' --status {}{flag} --adapter {} \
             '{}'`",
            served.status, bug.agent, served.status, about.adapter, bug.url
        );
    }
    let _ = writeln!(md);
    let _ = writeln!(md, "## Expected vs actual\n");
    let _ = writeln!(md, "| | answer |\n|---|---|");
    let _ = writeln!(md, "| actual ({}) | {} |", about.adapter, bug.actual);
    let _ =
        writeln!(md, "| expected under the fitted reading | {} |", bug.fitted);
    let _ = writeln!(
        md,
        "| expected under the claimed profile `{}` (oracle) | {} |",
        fit.claimed, bug.claimed_oracle
    );
    let _ = writeln!(
        md,
        "| the case's expectation under `{}` (check as written) | {} |\n",
        fit.claimed, bug.claimed_expected
    );
    let _ = writeln!(md, "## What the specification says\n");
    if bug.clauses.is_empty() {
        let _ = writeln!(md, "(the case cites no clause of the index)\n");
    }
    for q in &bug.clauses {
        for line in q.text.lines() {
            let _ = writeln!(md, "> {line}");
        }
        let _ = writeln!(md, "\n— {}, {} ({})\n", q.from, q.id, q.level);
    }
    if bug.checks.len() > 1 {
        let _ = writeln!(md, "## Every check of this class\n");
        for c in &bug.checks {
            let _ = writeln!(md, "- `{c}`");
        }
    }
    md
}

/// The body as text: printable UTF-8 as is; other octets as `\xHH`; cut
/// after [`SHOWN_BODY_BYTES`].
fn shown(body: &[u8]) -> String {
    let cut = &body[..body.len().min(SHOWN_BODY_BYTES)];
    let mut out = String::new();
    for chunk in cut.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' | '\t' => out.push(c),
                '\r' => out.push_str("\\r"),
                c if c.is_control() || c == '\u{feff}' => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        let _ = write!(out, "\\x{b:02X}");
                    }
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    if body.len() > cut.len() {
        let _ = write!(out, "\n… ({} more bytes)", body.len() - cut.len());
    }
    out.trim_end_matches('\n').to_string()
}

/// The index of a parser's bugs, Markdown.
pub fn render_index(
    about: &About,
    fit: &Fit,
    bugs: &[Bug],
    files: &[String],
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Bugs of {} ({})\n", about.adapter, about.version);
    let _ = writeln!(md, "{}\n", fit.line());
    let _ = writeln!(
        md,
        "{} residual checks after the fit, in {} distinct classes.\n",
        fit.residual.len(),
        bugs.len()
    );
    let _ = writeln!(
        md,
        "| # | bug | cause | checks | case |\n|---|---|---|---|---|"
    );
    for (i, (b, f)) in bugs.iter().zip(files).enumerate() {
        let _ = writeln!(
            md,
            "| {} | [{}]({f}) | `{}` | {} | `{}` |",
            i + 1,
            b.title.replace('|', "\\|"),
            b.cause,
            b.checks.len(),
            b.case
        );
    }
    md
}

/// The file name of bug `i` (0-based).
pub fn file_name(i: usize) -> String {
    format!("bug-{:03}.md", i + 1)
}

/// Writes one file per bug and `index.md` into `dir` (claimed and locked;
/// every file written atomically). Files `bug-NNN.md` of an earlier run
/// beyond the new count are removed, so the folder holds this run only.
///
/// # Errors
///
/// When the folder cannot be claimed or a file cannot be written.
pub fn write_bugs(
    dir: &Path,
    about: &About,
    fit: &Fit,
    bugs: &[Bug],
) -> Result<Vec<PathBuf>, OutputError> {
    let out = OutDir::claim(dir)?;
    let files: Vec<String> = (0..bugs.len()).map(file_name).collect();
    let mut written = Vec::new();
    for (b, f) in bugs.iter().zip(&files) {
        let path = out.path().join(f);
        atomic_write(&path, render_bug(about, fit, b).as_bytes())?;
        written.push(path);
    }
    let index = out.path().join("index.md");
    atomic_write(&index, render_index(about, fit, bugs, &files).as_bytes())?;
    written.push(index);
    let json = out.path().join("bugs.json");
    let body = serde_json::to_vec_pretty(bugs).unwrap_or_default();
    atomic_write(&json, &body)?;
    written.push(json);
    let mut stale = bugs.len();
    loop {
        let old = out.path().join(file_name(stale));
        if std::fs::remove_file(&old).is_err() {
            break;
        }
        stale += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use robots_adapters::scenario::{Answer, Response, Route, Scenario};

    use super::*;

    fn fetch(scenario: Scenario) -> Request {
        Request::Fetch {
            scenario: Arc::new(scenario),
            agent: "FooBot".into(),
            url: "/private".into(),
            live: None,
        }
    }

    fn served_with(
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Scenario {
        Scenario::single(Answer::Response(Response {
            status,
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body: Arc::from(body),
            delay_ms: 0,
        }))
    }

    #[test]
    fn a_fetch_of_the_file_alone_is_servable_with_its_status_and_codings() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let plain = [("Content-Type", "text/plain; charset=utf-8")];
        assert_eq!(
            servable(&fetch(served_with(503, &plain, body)), body),
            Some(Served { status: 503, content_encoding: None })
        );
        let coded = encode_codings("gzip, deflate", body).unwrap();
        let gz = [
            ("Content-Type", "text/plain"),
            ("Content-Encoding", "gzip, deflate"),
        ];
        assert_eq!(
            servable(&fetch(served_with(200, &gz, &coded)), body),
            Some(Served {
                status: 200,
                content_encoding: Some("gzip, deflate".into())
            })
        );
        // What `check` cannot serve: a redirect, another route, a cached
        // copy, an earlier outage, a delay, another header or content
        // type, a body other than the file, a decide request.
        let not = |s: Scenario| assert_eq!(servable(&fetch(s), body), None);
        not(served_with(301, &[("Location", "/x")], b""));
        not(served_with(200, &[("Cache-Control", "max-age=60")], body));
        not(served_with(200, &[("Content-Type", "text/html")], body));
        not(served_with(200, &plain, b"User-agent: *\n"));
        not(served_with(200, &[("Content-Encoding", "gzip")], body));
        let mut two = served_with(200, &plain, body);
        two.routes.push(Route {
            url: "http://example.com/other".into(),
            answer: Answer::status(404),
        });
        not(two);
        let mut down = served_with(503, &plain, body);
        down.unreachable_for = 3600;
        not(down);
        let mut slow = served_with(200, &plain, body);
        if let Answer::Response(r) = &mut slow.routes[0].answer {
            r.delay_ms = 10;
        }
        not(slow);
        let decide = Request::Decide {
            robots: Arc::from(&body[..]),
            agent: "FooBot".into(),
            url: "/".into(),
        };
        assert_eq!(servable(&decide, body), None);
    }
}
