//! Findings as ready-to-promote cases in the spec-cases format, and
//! their promotion into `spec-cases/findings/`.

use std::path::{Path, PathBuf};

use super::Finding;
use crate::case::CaseError;
use crate::case::schema::{DecideCase, DecideCheck, write_cases};
use crate::suite::{Suite, load_clauses};

/// The spec-cases category a finding's axis belongs to.
pub fn category(axis: &str) -> &'static str {
    match axis.split('+').next().unwrap_or_default() {
        "precedence" => "precedence",
        "encoding" => "encoding",
        "grouping" => "grouping",
        "ua-matching" => "ua-matching",
        "wildcards" => "wildcards",
        "line-syntax" => "syntax",
        "limits" => "limits",
        "special-cases" => "special-cases",
        _ => "findings",
    }
}

/// A short stable hash (FNV-1a) of the minimised input.
fn hash(f: &Finding) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in f.robots.iter().chain(f.agent.as_bytes()).chain(f.url.as_bytes())
    {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:08x}", h as u32)
}

fn slug(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    out.trim_matches('-').to_string()
}

/// The case id of a finding: stable for the same minimised input.
pub fn id(f: &Finding) -> String {
    format!("fuzz-{}-{}-{}", slug(&f.adapter), slug(&f.explanation), hash(f))
}

/// The finding as a TOML case file (with a header comment).
pub fn to_toml(f: &Finding) -> String {
    let mut clauses = f.clauses.clone();
    if clauses.is_empty() {
        clauses.push("R2.2.2-2".into());
    }
    let mut shared = f.shared_with.clone();
    shared.insert(0, f.adapter.clone());
    let note = format!(
        "Found by `robots-conformance diff` ({}). {} answered {} where the oracle ({}) says {}; \
         explained by {} (axis {}). Review the expectations before promoting: they are the \
         oracle's verdicts, and a reading the RFC leaves open should become implementation-defined.",
        f.origin,
        shared.join(", "),
        f.answer,
        f.profile,
        f.oracle.get(&f.profile).map_or("?", String::as_str),
        f.explanation,
        f.axis
    );
    let case = DecideCase {
        id: id(f),
        clauses,
        source: "fuzz-finding",
        categories: vec![category(&f.axis).to_string()],
        note,
        robots: &f.robots,
        checks: vec![DecideCheck {
            agent: &f.agent,
            url: &f.url,
            expect: &f.oracle,
        }],
    };
    let body = write_cases(&[case]).unwrap_or_else(|e| format!("# {e}\n"));
    format!(
        "# Finding: {} disagrees with the oracle; {} ({}).\n# Shape: {}\n\n{body}",
        f.adapter, f.explanation, f.axis, f.shape
    )
}

/// Why a finding was not promoted.
#[derive(Debug, thiserror::Error)]
pub enum PromoteError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The finding is not a valid case file.
    #[error("{} does not validate: {}", .finding.display(), .error.message())]
    DoesNotValidate {
        /// The finding file.
        finding: PathBuf,
        /// The first mistake in it.
        error: Box<CaseError>,
    },
    /// The project's clause index does not load.
    #[error(transparent)]
    ClauseIndex(Box<CaseError>),
    /// The finding holds no case.
    #[error("no case in the finding")]
    NoCase,
    /// The target already has a case with this id.
    #[error("{} already has case {id}", .target.display())]
    AlreadyThere {
        /// The target file.
        target: PathBuf,
        /// The case id.
        id: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PromoteError + '_ {
    move |source| PromoteError::Io { path: path.to_path_buf(), source }
}

/// Promotes a finding file into `root/findings/<category>.toml`, after
/// it validates; removes the finding file. Returns the target file.
///
/// # Errors
///
/// When the finding does not validate, its id already exists in the
/// target, or on I/O errors (each naming its path).
pub fn promote(root: &Path, finding: &Path) -> Result<PathBuf, PromoteError> {
    let text = std::fs::read_to_string(finding).map_err(io(finding))?;
    // Validate it as a case file in a scratch suite with the real clause
    // index.
    let scratch = std::env::temp_dir()
        .join(format!("robots-promote-{}", std::process::id()));
    let dir = scratch.join("findings");
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let index = root.join("clauses.toml");
    std::fs::copy(&index, scratch.join("clauses.toml")).map_err(io(&index))?;
    let candidate = dir.join("candidate.toml");
    std::fs::write(&candidate, &text).map_err(io(&candidate))?;
    let suite = Suite::load(&scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    if let Some(e) = suite.errors.first() {
        return Err(PromoteError::DoesNotValidate {
            finding: finding.to_path_buf(),
            error: Box::new(e.clone()),
        });
    }
    load_clauses(root).map_err(|e| PromoteError::ClauseIndex(Box::new(e)))?;
    let case = suite.cases.first().ok_or(PromoteError::NoCase)?;
    let category =
        case.categories.first().cloned().unwrap_or_else(|| "findings".into());
    let folder = root.join("findings");
    let target = folder.join(format!("{category}.toml"));
    let existing = std::fs::read_to_string(&target).unwrap_or_default();
    if existing.contains(&format!("id = \"{}\"", case.id)) {
        return Err(PromoteError::AlreadyThere {
            target,
            id: case.id.clone(),
        });
    }
    let mut out = if existing.is_empty() {
        format!(
            "# Findings of differential fuzzing on the `{category}` axis, promoted with\n\
             # `robots-conformance promote`. Each case is a minimised input on which real parsers\n\
             # disagreed; the note says which and why.\n"
        )
    } else {
        existing
    };
    out.push('\n');
    out.push_str(&text);
    std::fs::create_dir_all(&folder).map_err(io(&folder))?;
    std::fs::write(&target, out).map_err(io(&target))?;
    std::fs::remove_file(finding).map_err(io(finding))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(robots: &[u8]) -> Finding {
        Finding {
            adapter: "rust-x".into(),
            profile: "rfc9309".into(),
            explanation: "longest-match".into(),
            axis: "precedence".into(),
            clauses: vec!["R2.2.2-2".into()],
            shape: "s".into(),
            robots: robots.to_vec(),
            agent: "FooBot".into(),
            url: "/a".into(),
            answer: "allowed".into(),
            oracle: [
                ("google".to_string(), "disallowed".to_string()),
                ("rfc9309".to_string(), "disallowed".to_string()),
            ]
            .into(),
            shared_with: vec!["py-y".into()],
            origin: "seed 1 check 2".into(),
            count: 1,
        }
    }

    #[test]
    fn a_finding_is_written_as_a_case_file() {
        let got = to_toml(&finding(b"User-agent: *\nDisallow: /a\n"));
        let want = r#"# Finding: rust-x disagrees with the oracle; longest-match (precedence).
# Shape: s

[[case]]
id = "fuzz-rust-x-longest-match-WANT_HASH"
clauses = ["R2.2.2-2"]
source = "fuzz-finding"
categories = ["precedence"]
note = "Found by `robots-conformance diff` (seed 1 check 2). rust-x, py-y answered allowed where the oracle (rfc9309) says disallowed; explained by longest-match (axis precedence). Review the expectations before promoting: they are the oracle's verdicts, and a reading the RFC leaves open should become implementation-defined."
robots = """
User-agent: *
Disallow: /a
"""

[[case.check]]
agent = "FooBot"
url = "/a"

[case.check.expect]
google = "disallowed"
rfc9309 = "disallowed"
"#;
        let want = want.replace(
            "WANT_HASH",
            &hash(&finding(b"User-agent: *\nDisallow: /a\n")),
        );
        assert_eq!(got, want);
        let binary = to_toml(&finding(b"\xff\x00"));
        assert!(binary.contains("robots_base64 = \"/wA=\""), "{binary}");
    }
}
