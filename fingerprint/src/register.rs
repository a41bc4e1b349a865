//! The register of parser bugs: `bugs/<adapter>.toml` at the project
//! root, one `[[bug]]` per distinct bug (one root cause), each reviewed
//! against the parser's code or documentation so that its title names
//! the cause; and `bugs/index.md`, rendered from them.
//!
//! It loads, checks and renders the register; it never asks a parser
//! (the replay test in `cli/tests/bug_register.rs` does, through the
//! command line) and never decides an expectation (each entry's expected
//! answers are the oracle's, which the replay test confirms).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use robots_runner::case::fetch::encode_codings;
use serde::{Deserialize, Serialize};

/// One file of the register: a parser's bugs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// The adapter that reaches the parser (`python-protego`).
    pub adapter: String,
    /// Its bugs.
    #[serde(default)]
    pub bug: Vec<Entry>,
}

/// Whether a bug breaks a requirement or departs from Google.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// It breaks an RFC 9309 MUST.
    MustViolation,
    /// It breaks an RFC 9309 SHOULD (or a definition the RFC gives).
    ShouldViolation,
    /// It departs from what Google documents or its parser does.
    GoogleDeviation,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::MustViolation => "MUST violation",
            Kind::ShouldViolation => "SHOULD violation",
            Kind::GoogleDeviation => "deviation from Google",
        }
    }
}

/// The expected answer under one profile, with the reason.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// `allowed` or `disallowed`.
    pub answer: String,
    /// Why, citing the clause.
    pub why: String,
}

/// One distinct bug.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// `<adapter>-<n>`, stable forever.
    pub id: String,
    /// The cause, in one line.
    pub title: String,
    /// The parser's releases it was seen in.
    pub seen_in: Vec<String>,
    /// The release that fixed it, if one did.
    pub fixed_in: Option<String>,
    /// The clauses it breaks.
    pub clauses: Vec<String>,
    /// The level of the strictest of them (`MUST`, `SHOULD`, `GOOGLE`).
    pub level: String,
    /// MUST violation, SHOULD violation, or deviation from Google.
    pub kind: Kind,
    /// The minimised robots.txt (TOML string escapes).
    pub robots: String,
    /// The crawler's product token.
    pub agent: String,
    /// The URL (a path, or absolute).
    pub url: String,
    /// The HTTP status the file is served with, for a bug of the fetch
    /// layer (replayed with `check --status`: a crawler that fetches the
    /// file from a loopback server); none for a bug of the parse, asked
    /// of the body alone.
    #[serde(default)]
    pub status: Option<u16>,
    /// The `Content-Encoding` the file is served with (`gzip`, `deflate`,
    /// or a list in the order applied), for a bug of the fetch layer
    /// (replayed with `check --content-encoding`; the status is `status`,
    /// else 200).
    #[serde(default)]
    pub content_encoding: Option<String>,
    /// The expected answer under `rfc9309` and `google`.
    pub expected: BTreeMap<String, Expected>,
    /// The parser's answer.
    pub actual: String,
    /// The suite's checks that catch it.
    pub cases: Vec<String>,
    /// What was read to name the cause (upstream file and function, or
    /// documentation).
    pub reviewed: String,
}

/// Why the register cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// A file cannot be read.
    #[error("{}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file does not follow the format.
    #[error("{}: {source}", file.display())]
    Format {
        /// The file.
        file: PathBuf,
        /// What is wrong, with its line.
        source: Box<toml::de::Error>,
    },
    /// An entry breaks a rule of the register.
    #[error("{}: bug `{id}`: {why}", file.display())]
    Entry {
        /// The file.
        file: PathBuf,
        /// The entry's id.
        id: String,
        /// What is wrong.
        why: String,
    },
}

/// The register's folder: `bugs/` at the project root.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("bugs")
}

/// Every `<adapter>.toml` in `dir`, sorted by adapter, each checked.
///
/// # Errors
///
/// When a file cannot be read, does not parse, or an entry breaks a rule
/// (id not `<adapter>-<n>` or repeated, file name not the adapter, an
/// expected answer that is not a verdict or equals the actual one, no
/// profile, no case, no review, a status no crawler can be served by
/// `check --status`, a coding `check --content-encoding` cannot apply).
pub fn load(dir: &Path) -> Result<Vec<(PathBuf, File)>, RegisterError> {
    let read = |p: &Path| RegisterError::Read {
        file: p.to_path_buf(),
        source: std::io::Error::other("unreadable"),
    };
    let entries = std::fs::read_dir(dir).map_err(|_| read(dir))?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).map_err(|source| {
            RegisterError::Read { file: p.clone(), source }
        })?;
        let f: File = toml::from_str(&text).map_err(|source| {
            RegisterError::Format { file: p.clone(), source: Box::new(source) }
        })?;
        check(&p, &f)?;
        out.push((p, f));
    }
    Ok(out)
}

fn check(path: &Path, f: &File) -> Result<(), RegisterError> {
    let bad = |id: &str, why: String| RegisterError::Entry {
        file: path.to_path_buf(),
        id: id.to_string(),
        why,
    };
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    if stem.as_deref() != Some(f.adapter.as_str()) {
        return Err(bad(
            "-",
            format!("the file must be named {}.toml", f.adapter),
        ));
    }
    let mut seen = Vec::new();
    for b in &f.bug {
        let n = b.id.strip_prefix(&format!("{}-", f.adapter));
        if n.is_none_or(|n| n.parse::<u32>().is_err()) {
            return Err(bad(
                &b.id,
                format!("the id must be {}-<n>", f.adapter),
            ));
        }
        if seen.contains(&b.id) {
            return Err(bad(&b.id, "the id is used twice".into()));
        }
        seen.push(b.id.clone());
        let verdict = |s: &str| s == "allowed" || s == "disallowed";
        if b.expected.is_empty()
            || b.expected.keys().any(|k| k != "rfc9309" && k != "google")
        {
            return Err(bad(
                &b.id,
                "expected must give rfc9309 and/or google".into(),
            ));
        }
        for (p, e) in &b.expected {
            if !verdict(&e.answer) || e.why.trim().is_empty() {
                return Err(bad(
                    &b.id,
                    format!("expected.{p}: a verdict and its reason"),
                ));
            }
        }
        if !b.expected.values().any(|e| e.answer != b.actual) {
            return Err(bad(
                &b.id,
                "the actual answer is what every profile expects".into(),
            ));
        }
        if let Some(code) = b.status
            && !servable_status(code)
        {
            return Err(bad(
                &b.id,
                format!(
                    "status {code}: 200-299 or 400-599 (a redirect needs a \
                     target: write a fetch case)"
                ),
            ));
        }
        if let Some(c) = &b.content_encoding
            && let Err(e) = encode_codings(c, b"")
        {
            return Err(bad(&b.id, format!("content_encoding: {e}")));
        }
        if b.title.trim().is_empty()
            || b.cases.is_empty()
            || b.clauses.is_empty()
            || b.seen_in.is_empty()
            || b.reviewed.trim().is_empty()
        {
            return Err(bad(
                &b.id,
                "title, clauses, seen_in, cases and reviewed are required"
                    .into(),
            ));
        }
    }
    Ok(())
}

/// Whether `check --status` can serve a file with status `code`: a 2xx,
/// 4xx or 5xx (a redirect needs a target, which a fetch case gives).
pub fn servable_status(code: u16) -> bool {
    (200..300).contains(&code) || (400..600).contains(&code)
}

/// `bugs/index.md`: every entry, by adapter, with counts.
pub fn render_index(files: &[(PathBuf, File)]) -> String {
    let mut s = String::new();
    let total: usize = files.iter().map(|(_, f)| f.bug.len()).sum();
    let _ = writeln!(s, "# The register of parser bugs\n");
    let _ = writeln!(
        s,
        "Generated from `bugs/<adapter>.toml` by `cargo test -p robots-conformance --test bug_register` \
         (set `UPDATE_BUGS_INDEX=1` to rewrite it). One entry per distinct bug (one root cause), each \
         reviewed against the parser's code or documentation; the test replays every entry against \
         its adapter when it is set up.\n"
    );
    let _ = writeln!(
        s,
        "{total} bugs in {} parsers.\n",
        files.iter().filter(|(_, f)| !f.bug.is_empty()).count()
    );
    let _ = writeln!(
        s,
        "| adapter | bugs | MUST violations | SHOULD violations | deviations from Google |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for (_, f) in files {
        let n = |k: Kind| f.bug.iter().filter(|b| b.kind == k).count();
        let _ = writeln!(
            s,
            "| [{a}]({a}.toml) | {} | {} | {} | {} |",
            f.bug.len(),
            n(Kind::MustViolation),
            n(Kind::ShouldViolation),
            n(Kind::GoogleDeviation),
            a = f.adapter
        );
    }
    for (_, f) in files {
        let _ = writeln!(s, "\n## {}\n", f.adapter);
        let _ =
            writeln!(s, "| id | bug | clauses | kind | seen in | fixed in |");
        let _ = writeln!(s, "|---|---|---|---|---|---|");
        for b in &f.bug {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                b.id,
                b.title.replace('|', "\\|"),
                b.clauses.join(" "),
                b.kind.word(),
                b.seen_in.join(", "),
                b.fixed_in.as_deref().unwrap_or("–")
            );
        }
    }
    s
}

/// Proposed register entries for the bugs `bugs` found (`proposed.toml`
/// in its output folder): the reproduction, the answers, the clauses and
/// the catching check filled in, one per decide bug whose body is UTF-8
/// and whose answer is not what the claimed profile expects;
/// the title, the kind (guessed from the strictest clause level), the
/// expected answer's reason and the review are left for a person — an
/// empty `reviewed` keeps the file from loading as a register file until
/// then. `version` is the parser's as it reported it (`protego 0.7.0`).
pub fn propose(
    adapter: &str,
    version: &str,
    profile: &str,
    bugs: &[crate::Bug],
) -> String {
    let release = version.rsplit(' ').next().unwrap_or(version).to_string();
    let rank = |l: &str| match l {
        "MUST" | "MUST NOT" => 0,
        "SHOULD" | "SHOULD NOT" => 1,
        _ => 2,
    };
    let mut entries = Vec::new();
    let mut left_out = 0;
    for b in bugs {
        let Ok(robots) = String::from_utf8(b.robots.clone()) else {
            left_out += 1;
            continue;
        };
        // Neither a decide check nor a fetch whose site `check` can serve
        // (the file alone, with a status and codings), or the parser
        // answers what its claimed profile expects (it departs only from
        // its fitted reading).
        let served = b.served.as_ref().filter(|_| b.op == "fetch");
        if (b.op != "decide" && served.is_none())
            || b.claimed_oracle == b.actual
        {
            left_out += 1;
            continue;
        }
        let level = b
            .clauses
            .iter()
            .map(|q| q.level.as_str())
            .min_by_key(|l| rank(l))
            .unwrap_or("DEF")
            .to_string();
        let kind = match rank(&level) {
            0 => Kind::MustViolation,
            1 => Kind::ShouldViolation,
            _ => Kind::GoogleDeviation,
        };
        let mut expected = BTreeMap::new();
        expected.insert(
            profile.to_string(),
            Expected { answer: b.claimed_oracle.clone(), why: String::new() },
        );
        entries.push(Entry {
            id: format!("{adapter}-{}", entries.len() + 1),
            title: format!("TO REVIEW: {}", b.title),
            seen_in: vec![release.clone()],
            fixed_in: None,
            clauses: b.clauses.iter().map(|q| q.id.clone()).collect(),
            level,
            kind,
            robots,
            agent: b.agent.clone(),
            url: b.url.clone(),
            status: served.map(|s| s.status),
            content_encoding: served.and_then(|s| s.content_encoding.clone()),
            expected,
            actual: b.actual.clone(),
            cases: vec![b.check.clone()],
            reviewed: String::new(),
        });
    }
    let file = File { adapter: adapter.to_string(), bug: entries };
    let mut out = format!(
        "# Proposed entries for bugs/{adapter}.toml, from `robots-conformance bugs` on {version}.\n\
         # Before moving one into the register: read the parser's code so that the title names the\n\
         # cause, merge entries with one root cause, drop the typos the fitted reading accepts from\n\
         # `robots`, give each expected answer its reason, check `kind`, and say in `reviewed` what\n\
         # was read. {left_out} finding(s) left out (neither a decide check nor a fetch of the file alone, a body that is not UTF-8, or an answer the claimed profile expects).\n\n"
    );
    out.push_str(&toml::to_string(&file).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        let mut expected = BTreeMap::new();
        expected.insert(
            "rfc9309".to_string(),
            Expected { answer: "disallowed".into(), why: "R2.2.2-9".into() },
        );
        Entry {
            id: "x-parser-1".into(),
            title: "t".into(),
            seen_in: vec!["1".into()],
            fixed_in: None,
            clauses: vec!["R2.2.2-9".into()],
            level: "MUST".into(),
            kind: Kind::MustViolation,
            robots: "User-agent: *\nDisallow: /\n".into(),
            agent: "FooBot".into(),
            url: "/".into(),
            status: None,
            content_encoding: None,
            expected,
            actual: "allowed".into(),
            cases: vec!["a::b::c::1".into()],
            reviewed: "r".into(),
        }
    }

    #[test]
    fn entries_that_break_the_rules_are_refused_naming_them() {
        let p = Path::new("bugs/x-parser.toml");
        let ok = File { adapter: "x-parser".into(), bug: vec![entry()] };
        assert!(check(p, &ok).is_ok());
        let mut same = ok.clone();
        same.bug[0].actual = "disallowed".into();
        let e = check(p, &same).unwrap_err().to_string();
        assert!(
            e.contains("x-parser-1") && e.contains("every profile expects"),
            "{e}"
        );
        let mut twice = ok.clone();
        twice.bug.push(entry());
        assert!(check(p, &twice).unwrap_err().to_string().contains("twice"));
        let mut id = ok.clone();
        id.bug[0].id = "other-1".into();
        assert!(check(p, &id).is_err());
        assert!(check(Path::new("bugs/y.toml"), &ok).is_err());
        let mut unreviewed = ok.clone();
        unreviewed.bug[0].reviewed = " ".into();
        assert!(check(p, &unreviewed).is_err());
        // A status `check --status` can serve: no redirect, nothing
        // outside 200-599.
        for (code, fine) in
            [(503, true), (404, true), (301, false), (600, false)]
        {
            let mut served = ok.clone();
            served.bug[0].status = Some(code);
            let got = check(p, &served);
            assert_eq!(got.is_ok(), fine, "status {code}: {got:?}");
        }
        // Codings `check --content-encoding` can apply, and no other.
        for (coding, fine) in [
            ("gzip", true),
            ("deflate, gzip", true),
            ("br", false),
            ("", false),
        ] {
            let mut coded = ok.clone();
            coded.bug[0].content_encoding = Some(coding.into());
            let got = check(p, &coded);
            assert_eq!(got.is_ok(), fine, "coding {coding:?}: {got:?}");
        }
    }
}
