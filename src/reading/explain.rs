//! Decisions that explain themselves: the verdict, the reason, the groups
//! selected, every rule that matched and the one that won, each with its
//! line number, and the clause that settles it.
//!
//! Data and its `Display` only; the decision is made in `decide`.

use std::fmt;

use crate::parse::RuleKind;

/// Allowed or disallowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Verdict {
    /// The crawler may access the URL.
    Allowed,
    /// The crawler must not access the URL.
    Disallowed,
}

impl Verdict {
    /// `allowed` or `disallowed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Disallowed => "disallowed",
        }
    }
}

/// The other verdict (what a parser that disagrees answers).
///
/// ```
/// use robots_oracle::Verdict;
/// assert_eq!(!Verdict::Allowed, Verdict::Disallowed);
/// assert_eq!(!Verdict::Disallowed, Verdict::Allowed);
/// ```
impl std::ops::Not for Verdict {
    type Output = Verdict;

    fn not(self) -> Verdict {
        match self {
            Verdict::Allowed => Verdict::Disallowed,
            Verdict::Disallowed => Verdict::Allowed,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the verdict is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Reason {
    /// No group names the crawler and there is no `*` group (R2.2.1-9).
    NoGroup,
    /// A group applies but none of its rules matched (R2.2.2-9).
    NoMatchingRule,
    /// `/robots.txt` is implicitly allowed (R2.2.2-10).
    RobotsTxtPath,
    /// The most specific matching rule decided (R2.2.2-5).
    LongestMatch,
    /// An allow and a disallow of equal specificity matched (R2.2.2-8).
    TieGoesToAllow,
    /// The first matching rule in file order decided (profile
    /// `precedence = FirstMatch`; not RFC 9309).
    FirstMatch,
}

impl Reason {
    /// The kebab-case name used in cases and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NoGroup => "no-group",
            Reason::NoMatchingRule => "no-matching-rule",
            Reason::RobotsTxtPath => "robots-txt-path",
            Reason::LongestMatch => "longest-match",
            Reason::TieGoesToAllow => "tie-goes-to-allow",
            Reason::FirstMatch => "first-match",
        }
    }

    /// The clause id that settles a decision for this reason.
    pub fn clause(self) -> &'static str {
        match self {
            Reason::NoGroup => "R2.2.1-9",
            Reason::NoMatchingRule => "R2.2.2-9",
            Reason::RobotsTxtPath => "R2.2.2-10",
            Reason::LongestMatch => "R2.2.2-5",
            Reason::TieGoesToAllow => "R2.2.2-8",
            Reason::FirstMatch => "R2.2.2-5",
        }
    }
}

/// A rule that matched the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuleMatch {
    /// The rule's 1-based line number.
    pub line: u32,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as written.
    pub pattern: String,
    /// The pattern that matched, normalised (for Google's `index.html`
    /// extension, the derived `/dir/$`).
    pub normalized: String,
    /// Its specificity under the profile (R2.2.2-6).
    pub priority: usize,
}

/// A decision for one crawler and one URL, with its evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Decision {
    /// Allowed or disallowed.
    pub verdict: Verdict,
    /// Why.
    pub reason: Reason,
    /// The octets the rules were matched against (path and query,
    /// normalised), lossy UTF-8.
    pub target: String,
    /// The line of the first user-agent line of each group obeyed.
    pub groups: Vec<u32>,
    /// The obeyed groups are the `*` fallback.
    pub global: bool,
    /// Every rule of those groups that matched, in file order.
    pub candidates: Vec<RuleMatch>,
    /// The rule that decided, if one did.
    pub winner: Option<RuleMatch>,
    /// The crawler's token is a valid product token (R2.2.1-1).
    pub agent_is_valid: bool,
}

impl Decision {
    /// `true` when allowed.
    pub fn is_allowed(&self) -> bool {
        self.verdict == Verdict::Allowed
    }
}

fn kind_str(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::Allow => "allow",
        RuleKind::Disallow => "disallow",
    }
}

impl fmt::Display for RuleMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}: {} (normalised {}, priority {})",
            self.line,
            kind_str(self.kind),
            self.pattern,
            self.normalized,
            self.priority
        )
    }
}

/// The multi-line explanation printed by `check --explain`.
impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "  reason: {} ({})",
            self.reason.as_str(),
            self.reason.clause()
        )?;
        writeln!(f, "  matched against: {}", self.target)?;
        if !self.agent_is_valid {
            writeln!(
                f,
                "  note: the agent is not a valid product token (R2.2.1-1)"
            )?;
        }
        match (self.groups.as_slice(), self.global) {
            (_, _) if self.reason == Reason::RobotsTxtPath => {}
            ([], _) => writeln!(f, "  groups: none apply")?,
            (g, global) => {
                let lines: Vec<String> =
                    g.iter().map(|l| l.to_string()).collect();
                let which = if global { "`*` group" } else { "group" };
                writeln!(f, "  {which}(s) at line(s) {}", lines.join(", "))?;
            }
        }
        for c in &self.candidates {
            writeln!(f, "  matched {c}")?;
        }
        if let Some(w) = &self.winner {
            writeln!(f, "  winner: line {}", w.line)?;
        }
        Ok(())
    }
}
