//! The per-input and per-host rows an audit writes as JSON lines
//! (`rows.jsonl`, or standard output). Every aggregate of `audit.json`
//! is a sum over these rows, so shards merge by concatenation and the
//! Spark job can aggregate them with the same arithmetic. Rows are
//! ordered by input path, then record number.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One line of `rows.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Row {
    /// What one input held (first of its rows).
    Input(InputRow),
    /// One host's fetch outcome and verdicts.
    Host(Box<HostRow>),
    /// A record (or the input) that could not be used.
    Error(ErrorRow),
}

impl Row {
    /// The input the row is about.
    pub fn input(&self) -> &str {
        match self {
            Row::Input(r) => &r.input,
            Row::Host(r) => &r.input,
            Row::Error(r) => &r.input,
        }
    }

    /// The sort key: input path, then the input row, then records in
    /// order, then the error that stopped the input.
    pub fn key(&self) -> (String, u8, usize) {
        match self {
            Row::Input(r) => (r.input.clone(), 0, 0),
            Row::Host(r) => (r.input.clone(), 1, r.n),
            Row::Error(r) => match r.n {
                Some(n) => (r.input.clone(), 1, n),
                None => (r.input.clone(), 2, 0),
            },
        }
    }
}

/// The counts of one input. `records = hosts + routes + skipped + bad`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputRow {
    /// The path as given.
    pub input: String,
    /// `warc`, `warc.gz`, `tar.gz`, `folder`, `jsonl`, `unknown`.
    pub format: String,
    /// Records read.
    pub records: usize,
    /// Records that start a host (a fetch of `/robots.txt`).
    pub hosts: usize,
    /// Captures of other URLs (redirect targets), used only as routes.
    pub routes: usize,
    /// Records skipped, by kind (WARC type, `duplicate`).
    pub skipped: BTreeMap<String, usize>,
    /// Bad records.
    pub bad: usize,
    /// The kind of error that stopped the input early, if one did.
    pub stopped: Option<String>,
    /// Response records marked `WARC-Truncated`, by reason (their bodies
    /// are used as captured; a record may also be a host, a route or a
    /// bad record, so this is not part of `records`' sum).
    #[serde(default)]
    pub truncated: BTreeMap<String, usize>,
}

/// A record, or an input, that could not be used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorRow {
    /// The input.
    pub input: String,
    /// The record number; `None` when the input as a whole stopped.
    pub n: Option<usize>,
    /// A stable kebab-case kind: `unreadable`, `unknown-format`,
    /// `truncated-gzip`, `truncated-record`, `read-error`, `bad-warc`,
    /// `bad-warc-header`, `not-http`, `body-over-limit`,
    /// `bad-json-line`.
    pub error: String,
    /// What exactly.
    pub detail: String,
}

/// The fetch outcome under one profile's fetch model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FetchRow {
    /// `parse-body`, `allow-all`, `disallow-all` (`use-cache` never
    /// arises: an archive holds no crawler cache).
    pub policy: String,
    /// The clause that decided it.
    pub clause: String,
}

/// Where one parser departs from the oracle on one host.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Departure {
    /// Verdicts compared (both answered).
    pub compared: usize,
    /// Verdicts that differ from the oracle's.
    pub departing: usize,
    /// Requests the parser did not answer (error, not applicable).
    pub unanswered: usize,
    /// Departing verdicts by axis (the profile switch that explains
    /// them; `unexplained`; `not-classified` past the cap).
    pub axes: BTreeMap<String, usize>,
}

/// The AI preference lines of a host's file (the body the rfc9309 fetch
/// model kept; all zero and `false` when it kept none), counted and read
/// by the oracle (`crate::ai_lines`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiLines {
    /// `Content-Usage` lines (draft-ietf-aipref-attach-05), anywhere.
    pub content_usage: usize,
    /// `Content-Signal` lines (Cloudflare), anywhere.
    pub content_signal: usize,
    /// `Content-Signals` lines: the misspelling seen in the wild, which
    /// the oracle does not read (spec-cases/PROFILES.md).
    pub content_signals: usize,
    /// Some line of the file states training allowed: a Content-Usage
    /// rule whose statement reads `train-ai=y` (aipref reading), or a
    /// Content-Signal line reading `ai-train=yes`.
    pub train_y: bool,
    /// Some line states training refused (`train-ai=n`, `ai-train=no`).
    pub train_n: bool,
}

/// One host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostRow {
    /// The input.
    pub input: String,
    /// The record number of its `/robots.txt` fetch.
    pub n: usize,
    /// The robots.txt URL fetched.
    pub url: String,
    /// The first answer: `200`, `301 → /x`, `network error: truncated`.
    pub answer: String,
    /// The final status after redirects (`None` for a network error).
    pub status: Option<u16>,
    /// Redirects followed (rfc9309 fetch model).
    pub redirects: usize,
    /// Bytes of the final body.
    pub size: usize,
    /// The body was cut at the parse limit (500 KiB).
    pub cut: bool,
    /// A redirect target this input does not hold: the host is not
    /// audited (no verdicts), only counted.
    pub unresolved: Option<String>,
    /// The fetch outcome per oracle profile.
    pub fetch: BTreeMap<String, FetchRow>,
    /// The URLs asked about: `/` and paths drawn from the file's rules.
    pub probes: Vec<String>,
    /// Per oracle profile, the agents a group names explicitly.
    pub named: BTreeMap<String, Vec<String>>,
    /// Per parser (`rfc9309`, `google`, then adapters), per agent, one
    /// letter per probe: `a` allowed, `d` disallowed, `?` unanswered.
    pub verdicts: BTreeMap<String, BTreeMap<String, String>>,
    /// Per adapter, where it departs from the oracle under its profile.
    pub departures: BTreeMap<String, Departure>,
    /// The AI preference lines of the body the `aipref` (= rfc9309) fetch
    /// model kept.
    pub ai: AiLines,
    /// Per agent, the Content-Usage preferences under `aipref` (the
    /// reference adapter's `usage` op), two letters per probe: `train-ai`
    /// then `search`, each `y`, `n` or `u` (unknown); `--` where the agent
    /// may not crawl the probe (no preference, attach-05 §3.1); `??`
    /// unanswered. Empty for an unresolved host.
    pub usage: BTreeMap<String, String>,
    /// Per agent, the Content-Signal values that apply to it (the
    /// oracle's default scope, `group`, under `aipref`), as
    /// `search=yes, ai-input=yes, ai-train=no` (empty when none applies).
    /// Empty when the file has no Content-Signal line.
    pub signals: BTreeMap<String, String>,
}

/// Serialises rows as JSON lines.
pub fn to_jsonl(rows: &[Row]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in rows {
        // OK: rows hold only strings, numbers and maps with string keys.
        serde_json::to_writer(&mut out, r).expect("rows serialise");
        out.push(b'\n');
    }
    out
}
