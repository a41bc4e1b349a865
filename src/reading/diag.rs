//! Diagnostics: what was odd about a robots.txt file, line by line.
//!
//! Robots.txt content is never an error (R2.3.1.5: "Crawlers MUST try to
//! parse each line"); each odd line becomes a [`Diagnostic`] naming the
//! line and the clause it departs from. This module holds data only.

use std::fmt;

/// One odd thing about one line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostic {
    /// The 1-based line number.
    pub line: u32,
    /// What was odd.
    pub kind: DiagnosticKind,
}

/// What was odd about a line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// A byte order mark was skipped at the start of the file.
    BomSkipped,
    /// The line has no colon (and was not accepted without one).
    MissingColon,
    /// The line was accepted without a colon (profile `missing_colon`).
    AcceptedWithoutColon,
    /// The key is a misspelling or extension of a known key, accepted by
    /// the profile; holds the key as written.
    LenientKey(String),
    /// A user-agent value that is not a product token; holds what was kept
    /// (`None`: the line was ignored).
    InvalidProductToken(Option<String>),
    /// A rule value that is not a path pattern; the line was ignored.
    InvalidPattern,
    /// A rule value that is not UTF-8; the line was ignored.
    InvalidUtf8,
    /// An allow or disallow line before any user-agent line; ignored.
    RuleOutsideGroup,
    /// A group record (such as crawl-delay) outside any group.
    RecordOutsideGroup,
    /// The line was longer than the profile's line limit and was cut.
    LineTruncated,
    /// The file was longer than the parse limit; the rest was ignored.
    ParseLimitReached,
    /// An unknown key; the line is kept as an other record.
    UnknownKey(String),
}

impl DiagnosticKind {
    /// The clause id (see `spec-cases/clauses.toml`) the oddity concerns.
    pub fn clause(&self) -> &'static str {
        use DiagnosticKind::*;
        match self {
            BomSkipped => "G-FMT-3",
            MissingColon | AcceptedWithoutColon => "R2.2-4",
            LenientKey(_) => "R2.2-4",
            InvalidProductToken(_) => "R2.2-9",
            InvalidPattern => "R2.2-7",
            InvalidUtf8 => "R2.2-15",
            RuleOutsideGroup => "R2.2.2-15",
            RecordOutsideGroup => "R2.2.4-3",
            LineTruncated => "GRT-8",
            ParseLimitReached => "R2.5-2",
            UnknownKey(_) => "R2.2.4-1",
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DiagnosticKind::*;
        match self {
            BomSkipped => write!(f, "byte order mark skipped"),
            MissingColon => write!(f, "no colon: line ignored"),
            AcceptedWithoutColon => write!(f, "no colon: read as `key value`"),
            LenientKey(k) => write!(f, "key `{k}` accepted leniently"),
            InvalidProductToken(None) => {
                write!(
                    f,
                    "user-agent value is not a product token: \
                     it ends the group above but names no crawler"
                )
            }
            InvalidProductToken(Some(t)) => {
                write!(f, "user-agent value cut to product token `{t}`")
            }
            InvalidPattern => {
                write!(f, "rule value does not start with `/`: ignored")
            }
            InvalidUtf8 => write!(f, "rule value is not UTF-8: ignored"),
            RuleOutsideGroup => {
                write!(f, "rule before any user-agent line: ignored")
            }
            RecordOutsideGroup => write!(f, "group record outside any group"),
            LineTruncated => write!(f, "line cut at the line length limit"),
            ParseLimitReached => {
                write!(f, "parse limit reached: the rest is ignored")
            }
            UnknownKey(k) => write!(f, "unknown key `{k}`: other record"),
        }
    }
}

/// The most notes an explanation lists ([`notes_text`]); the rest are
/// counted.
pub const MAX_NOTES: usize = 8;

/// What a parse noted about its file, as an explanation ends with it: one
/// `  note: line N: … (clause)` line per diagnostic, at most
/// [`MAX_NOTES`] of them, then `  note: and K more`. Empty when nothing
/// was noted. The reference adapter, `check --explain` and the bindings
/// all end a decision's explanation with it, so they read alike.
pub fn notes_text(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics.iter().take(MAX_NOTES) {
        out.push_str(&format!("  note: {d}\n"));
    }
    if diagnostics.len() > MAX_NOTES {
        out.push_str(&format!(
            "  note: and {} more\n",
            diagnostics.len() - MAX_NOTES
        ));
    }
    out
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {} ({})", self.line, self.kind, self.kind.clause())
    }
}
