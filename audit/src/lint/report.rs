//! What `lint` found, as data: the JSON document `lint --json` prints
//! (its schema is these types; `FORMAT` names its version) and the
//! terminal report made from it. Holds no judgement: the findings are
//! made in `lint::mod`, `lint::mistakes` and `lint::rewrite`.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// The `format` field of the JSON document.
pub const FORMAT: &str = "robots-conformance-lint/1";

/// Everything `lint` found about one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`FORMAT`].
    pub format: String,
    /// The file as named on the command line.
    pub file: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// The oracle's profile the parsers are compared with.
    pub profile: String,
    /// No mistake and no disagreement: the exit status is 0.
    pub portable: bool,
    /// The product tokens asked about.
    pub agents: Vec<String>,
    /// The URL paths asked about (drawn from the file's own rules).
    pub probes: Vec<String>,
    /// Every parser asked, in the order given.
    pub parsers: Vec<ParserRun>,
    /// The disagreements with the oracle, one finding per switch of the
    /// oracle's profile that explains them (most parsers first).
    pub findings: Vec<Finding>,
    /// What every reading agrees is a mistake.
    pub mistakes: Vec<Mistake>,
}

/// How one parser fared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParserRun {
    /// Its adapter's name.
    pub name: String,
    /// Verdicts compared with the oracle's (both answered).
    pub compared: usize,
    /// Of those, verdicts that differ.
    pub departing: usize,
    /// Requests it did not answer (error, not applicable, timeout,
    /// crash): they cost only its own checks.
    pub unanswered: usize,
    /// The first failure's message, when it did not answer some.
    pub failure: Option<String>,
}

/// The disagreements one switch of the oracle explains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The switch (`precedence=first-match`), a `+`-joined pair,
    /// `unexplained` (no switch or pair does) or `not-classified` (past
    /// the classification cap).
    pub switch: String,
    /// Its axis (`precedence`, `grouping`, ...).
    pub axis: String,
    /// The clauses the switch concerns.
    pub clauses: Vec<String>,
    /// The parsers that read the file so, by name.
    pub parsers: Vec<String>,
    /// Verdicts it explains, over all those parsers.
    pub disagreements: usize,
    /// One of them.
    pub example: Example,
    /// What the parsers do, in one or two sentences.
    pub why: String,
    /// How to make the file read the same by every parser.
    pub rewrite: Rewrite,
}

/// One disagreement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Example {
    /// The parser.
    pub parser: String,
    /// The product token.
    pub agent: String,
    /// The URL path.
    pub url: String,
    /// The oracle's verdict: `allowed` or `disallowed`.
    pub oracle: String,
    /// The parser's.
    pub theirs: String,
    /// The line of the rule that decided for the oracle, if one did.
    pub line: Option<u32>,
}

/// A concrete change to the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rewrite {
    /// What to do.
    pub advice: String,
    /// The lines concerned (1-based).
    pub lines: Vec<u32>,
    /// Those lines as written (empty when the advice names no lines).
    pub before: Vec<String>,
    /// The same lines rewritten (empty when no text is portable: the
    /// advice says what to decide instead).
    pub after: Vec<String>,
}

/// Something every reading agrees is a mistake.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mistake {
    /// `rule-before-user-agent`, `record-before-user-agent`,
    /// `path-without-slash`, `no-colon`, `typo`, `over-500-kib`, `html`.
    pub kind: String,
    /// The line, when one line is concerned.
    pub line: Option<u32>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub fix: String,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Report {
    /// The terminal report: a verdict line, the mistakes, the findings
    /// with their rewrites, then the parsers that failed.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let answered = self.parsers.iter().filter(|p| p.compared > 0).count();
        let _ = writeln!(
            s,
            "{}: {} bytes; {} × {} asked of {} against the oracle ({})",
            self.file,
            self.bytes,
            plural(self.agents.len(), "agent", "agents"),
            plural(self.probes.len(), "URL", "URLs"),
            plural(self.parsers.len(), "parser", "parsers"),
            self.profile,
        );
        if self.portable {
            let _ = writeln!(
                s,
                "portable: every parser that answered ({answered}) reads it as the oracle does, and no mistake"
            );
        } else {
            let _ = writeln!(
                s,
                "NOT PORTABLE: {}, {}",
                plural(self.mistakes.len(), "mistake", "mistakes"),
                plural(
                    self.findings.len(),
                    "reading that differs",
                    "readings that differ"
                ),
            );
        }
        if !self.mistakes.is_empty() {
            let _ = writeln!(s, "\nMistakes (every reading agrees):");
            for m in &self.mistakes {
                let at =
                    m.line.map(|l| format!("line {l}: ")).unwrap_or_default();
                let _ = writeln!(s, "  {at}{} [{}]", m.message, m.kind);
                let _ = writeln!(s, "    fix: {}", m.fix);
            }
        }
        for (i, f) in self.findings.iter().enumerate() {
            let _ = writeln!(
                s,
                "\n{}. {} ({}{}): {} in {}",
                i + 1,
                f.switch,
                f.axis,
                if f.clauses.is_empty() {
                    String::new()
                } else {
                    format!("; {}", f.clauses.join(", "))
                },
                plural(f.disagreements, "verdict", "verdicts"),
                plural(f.parsers.len(), "parser", "parsers"),
            );
            let _ = writeln!(s, "   parsers: {}", f.parsers.join(", "));
            let e = &f.example;
            let _ = writeln!(
                s,
                "   example: {} {}: oracle {}{}, {} {}",
                e.agent,
                e.url,
                e.oracle,
                e.line.map(|l| format!(" (line {l})")).unwrap_or_default(),
                e.parser,
                e.theirs
            );
            let _ = writeln!(s, "   why: {}", f.why);
            let _ = writeln!(s, "   rewrite: {}", f.rewrite.advice);
            if !f.rewrite.before.is_empty() {
                for l in &f.rewrite.before {
                    let _ = writeln!(s, "     - {l}");
                }
                for l in &f.rewrite.after {
                    let _ = writeln!(s, "     + {l}");
                }
            }
        }
        let failed: Vec<&ParserRun> =
            self.parsers.iter().filter(|p| p.failure.is_some()).collect();
        if !failed.is_empty() {
            let _ = writeln!(
                s,
                "\nParsers that did not answer every check (only their own checks are missing):"
            );
            for p in failed {
                let _ = writeln!(
                    s,
                    "  {}: {} of {} unanswered: {}",
                    p.name,
                    p.unanswered,
                    p.unanswered + p.compared,
                    p.failure.as_deref().unwrap_or_default()
                );
            }
        }
        s
    }
}
