//! Cloudflare's Content Signals: `Content-Signal: search=yes, ai-train=no`
//! (the labels of draft-romm-aipref-contentsignals-00 §3–4: `search`,
//! `ai-input`, `ai-train`; `use` as served in Cloudflare's managed
//! robots.txt). The draft defines categories only, no line syntax and no
//! scope, so every rule here beyond the labels is this oracle's reading,
//! argued in `spec-cases/PROFILES.md` and marked implementation-defined
//! in the cases:
//!
//! - the value is a comma-separated list of `key=value` pairs, spaces
//!   and tabs around each ignored; keys and values compared
//!   case-insensitively (robots.txt keys are; Cloudflare writes them in
//!   lowercase);
//! - `yes` / `no` for the three categories; `immediate`, `reference` or
//!   `full` for `use`; any other value, and an unknown key, ignored;
//! - a repeated key: the last one wins (as in the RFC 9651 Dictionary
//!   that the IETF vocabulary uses);
//! - several Content-Signal lines that apply: each category combined as
//!   vocab-07 §5.1 combines statements (any `no`, else any `yes`);
//!   `use`: the last one;
//! - which lines apply to a crawler: [`SignalScope`];
//! - `Content-Signals` (plural), seen in the wild, is not read: it is not
//!   the published key (a diagnostic names it).
//!
//! Never panics; linear in the value.

use std::fmt;

/// Where a Content-Signal line applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum SignalScope {
    /// To the crawlers of the group it stands in, selected as Allow and
    /// Disallow rules are (R2.2.1-7, R2.2.1-8): a crawler that a group
    /// names does not get the `*` group's signals. A line before the
    /// first group applies to no crawler.
    Group,
    /// As `Group`, but a crawler whose own groups carry no Content-Signal
    /// line gets the `*` groups' lines. Evidence: fast-robotstxt 1.1.0
    /// (a fork of Google's parser: `RobotsMatcher::GetContentSignal`
    /// keeps a specific and a global signal and falls back to the
    /// global one).
    GroupOrStar,
    /// Only lines in `*` groups count, and they apply to every crawler
    /// (read as a site-wide policy written where Cloudflare writes it).
    StarGroups,
    /// Every line applies to every crawler, wherever it stands (before
    /// any group, or in any group).
    File,
}

/// A `yes` / `no` signal value.
pub type Signal = Option<bool>;

/// `use=`: how far content may be used (Cloudflare's managed file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum SignalUse {
    /// `use=immediate`.
    Immediate,
    /// `use=reference`.
    Reference,
    /// `use=full`.
    Full,
}

impl SignalUse {
    /// The value as written in the file (lowercase).
    pub fn as_str(self) -> &'static str {
        match self {
            SignalUse::Immediate => "immediate",
            SignalUse::Reference => "reference",
            SignalUse::Full => "full",
        }
    }
}

/// The signals one line, or the combined lines that apply, carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ContentSignals {
    /// `search=yes|no`.
    pub search: Signal,
    /// `ai-input=yes|no`.
    pub ai_input: Signal,
    /// `ai-train=yes|no`.
    pub ai_train: Signal,
    /// `use=immediate|reference|full`.
    pub use_: Option<SignalUse>,
}

fn yes_no(v: &str) -> Signal {
    match v {
        v if v.eq_ignore_ascii_case("yes") => Some(true),
        v if v.eq_ignore_ascii_case("no") => Some(false),
        _ => None,
    }
}

fn trim(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

/// `no` wins over `yes`, and either over nothing (vocab-07 §5.1).
fn combine(a: Signal, b: Signal) -> Signal {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), _) | (_, Some(true)) => Some(true),
        (None, None) => None,
    }
}

impl ContentSignals {
    /// Reads one Content-Signal value.
    ///
    /// ```
    /// use robots_oracle::ContentSignals;
    /// let s = ContentSignals::read("search=yes, ai-train=no");
    /// assert_eq!((s.search, s.ai_train, s.ai_input), (Some(true), Some(false), None));
    /// ```
    pub fn read(value: &str) -> ContentSignals {
        let mut s = ContentSignals::default();
        for pair in value.split(',') {
            let Some((k, v)) = pair.split_once('=') else { continue };
            let (k, v) = (trim(k), trim(v));
            let slot = match k {
                k if k.eq_ignore_ascii_case("search") => &mut s.search,
                k if k.eq_ignore_ascii_case("ai-input") => &mut s.ai_input,
                k if k.eq_ignore_ascii_case("ai-train") => &mut s.ai_train,
                k if k.eq_ignore_ascii_case("use") => {
                    let u = [
                        SignalUse::Immediate,
                        SignalUse::Reference,
                        SignalUse::Full,
                    ]
                    .into_iter()
                    .find(|u| v.eq_ignore_ascii_case(u.as_str()));
                    if u.is_some() {
                        s.use_ = u;
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(b) = yes_no(v) {
                *slot = Some(b);
            }
        }
        s
    }

    /// Two lines' signals together (see the module docs).
    pub fn combine(self, later: ContentSignals) -> ContentSignals {
        ContentSignals {
            search: combine(self.search, later.search),
            ai_input: combine(self.ai_input, later.ai_input),
            ai_train: combine(self.ai_train, later.ai_train),
            use_: later.use_.or(self.use_),
        }
    }

    /// Whether no signal is set.
    pub fn is_empty(&self) -> bool {
        *self == ContentSignals::default()
    }

    /// The signals as `key=value` pairs, in the order the module names
    /// them, the unset ones left out.
    pub fn pairs(&self) -> Vec<(&'static str, &'static str)> {
        let yn = |b: bool| if b { "yes" } else { "no" };
        let mut out = Vec::new();
        for (k, v) in [
            ("search", self.search),
            ("ai-input", self.ai_input),
            ("ai-train", self.ai_train),
        ] {
            if let Some(b) = v {
                out.push((k, yn(b)));
            }
        }
        if let Some(u) = self.use_ {
            out.push(("use", u.as_str()));
        }
        out
    }
}

impl fmt::Display for ContentSignals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> =
            self.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&pairs.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cloudflare_s_forms() {
        let s = ContentSignals::read("search=yes, ai-input=yes, ai-train=no");
        assert_eq!(s.to_string(), "search=yes, ai-input=yes, ai-train=no");
        let s = ContentSignals::read("search=yes,ai-train=no, use=reference");
        assert_eq!(s.use_, Some(SignalUse::Reference));
        assert_eq!(s.ai_input, None);
    }

    #[test]
    fn case_spaces_unknown_keys_and_repeats() {
        let s = ContentSignals::read(
            " SEARCH = Yes ,\tfoo=no, ai-train=maybe, search=no",
        );
        assert_eq!(s.search, Some(false), "last wins, case-insensitive");
        assert_eq!(s.ai_train, None, "a value other than yes/no is ignored");
        assert!(ContentSignals::read("nonsense").is_empty());
        assert!(ContentSignals::read("").is_empty());
    }

    #[test]
    fn lines_combine_no_first() {
        let a = ContentSignals::read("ai-train=yes, search=yes");
        let b = ContentSignals::read("ai-train=no, use=full");
        let c = a.combine(b);
        assert_eq!(
            (c.ai_train, c.search, c.use_),
            (Some(false), Some(true), Some(SignalUse::Full))
        );
    }
}
