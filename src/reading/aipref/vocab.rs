//! Statements of preference: bytes to a preference per category
//! (draft-ietf-aipref-vocab-07 §4, §5, §6; the older hierarchy of
//! vocab-06 §5 as a switch).
//!
//! The statement is parsed as an RFC 9651 Dictionary by the `sfv` crate,
//! never by hand (vocab-07 §6.5 "those bytes are parsed into a Dictionary
//! (Section 4.2.2 of FIELDS)"). Only the Tokens `y` and `n` count; any
//! other value, an absent key, a parameter and an unknown label leave or
//! make a category unknown (§6.5, §6.4); the last of duplicate keys wins
//! (§6.5.1, RFC 9651 §4.2.2); a statement that fails to parse (an
//! uppercase key, trailing garbage, a non-ASCII byte) makes every category
//! unknown (§6.5.1).
//!
//! Never panics; linear in the statement (RFC 9651 parsing is one pass).

use std::fmt;

use sfv::{BareItem, Dictionary, ListEntry, Parser};

/// A category of use of the vocabulary (vocab-07 §4, labels §6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Category {
    /// AI Model Training, label `train-ai` (vocab-07 §4.1).
    TrainAi,
    /// Search, label `search` (vocab-07 §4.2).
    Search,
}

impl Category {
    /// Every category of vocab-07, in the order of its label table.
    pub const ALL: [Category; 2] = [Category::TrainAi, Category::Search];

    /// The label of vocab-07 §6.1 (case-sensitive).
    pub fn label(self) -> &'static str {
        match self {
            Category::TrainAi => "train-ai",
            Category::Search => "search",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One of the three preference values (vocab-07 §3: "allowed",
/// "disallowed", or "unknown").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Preference {
    /// The Token `y` (§6.2).
    Allowed,
    /// The Token `n` (§6.2).
    Disallowed,
    /// Anything else, or nothing (§5, §6.5).
    #[default]
    Unknown,
}

impl Preference {
    /// `y`, `n` or `unknown`: the wire and case spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Preference::Allowed => "y",
            Preference::Disallowed => "n",
            Preference::Unknown => "unknown",
        }
    }

    /// Combining (vocab-07 §5.1): any disallow wins, else any allow, else
    /// unknown.
    pub fn combine(self, other: Preference) -> Preference {
        use Preference::*;
        match (self, other) {
            (Disallowed, _) | (_, Disallowed) => Disallowed,
            (Allowed, _) | (_, Allowed) => Allowed,
            (Unknown, Unknown) => Unknown,
        }
    }
}

impl fmt::Display for Preference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which draft of the vocabulary reads a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Vocabulary {
    /// draft-ietf-aipref-vocab-07: each category on its own (§5).
    Vocab07,
    /// draft-ietf-aipref-vocab-06 §5 step 2: a category whose preference
    /// is unknown takes the preference of a category it is a proper
    /// subset of, recursively. vocab-06's own two labels are not nested,
    /// so the step acts only on the labels of the earlier drafts it was
    /// written for: `all` (and its first name `tdm`), which
    /// draft-ietf-aipref-vocab-02 defines as the category containing
    /// every other (as the TDM·AI protocol's vocabulary page documents
    /// it; those drafts are not in this repository).
    Vocab06,
}

/// The preference for each category, after one statement or after
/// combining several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Preferences {
    /// `train-ai`.
    pub train_ai: Preference,
    /// `search`.
    pub search: Preference,
}

impl Preferences {
    /// The preference for `c`.
    pub fn get(&self, c: Category) -> Preference {
        match c {
            Category::TrainAi => self.train_ai,
            Category::Search => self.search,
        }
    }

    fn set(&mut self, c: Category, p: Preference) {
        match c {
            Category::TrainAi => self.train_ai = p,
            Category::Search => self.search = p,
        }
    }

    /// Every category combined with `other`'s (vocab-07 §5.1).
    pub fn combine(self, other: Preferences) -> Preferences {
        let mut out = Preferences::default();
        for c in Category::ALL {
            out.set(c, self.get(c).combine(other.get(c)));
        }
        out
    }

    /// Whether every category is unknown.
    pub fn is_unknown(&self) -> bool {
        Category::ALL.iter().all(|&c| self.get(c) == Preference::Unknown)
    }
}

impl fmt::Display for Preferences {
    /// `train-ai=n, search=unknown`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in Category::ALL.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{c}={}", self.get(c))?;
        }
        Ok(())
    }
}

/// A statement of preference as read: the preferences, or why none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Statement {
    /// The preference per category (all unknown when `error` is set).
    pub preferences: Preferences,
    /// Why the Dictionary did not parse (vocab-07 §6.5.1: "If the
    /// parsing of the Dictionary fails, preferences are unknown").
    pub error: Option<String>,
}

/// The preference a Dictionary member states: the Tokens `y` and `n`;
/// anything else is unknown (§6.5), parameters disregarded (§6.4).
fn member(entry: Option<&ListEntry>) -> Preference {
    match entry {
        Some(ListEntry::Item(item)) => match &item.bare_item {
            BareItem::Token(t) if t.as_str() == "y" => Preference::Allowed,
            BareItem::Token(t) if t.as_str() == "n" => Preference::Disallowed,
            _ => Preference::Unknown,
        },
        _ => Preference::Unknown,
    }
}

/// The labels of the earlier drafts that contain every category, for
/// [`Vocabulary::Vocab06`].
const CONTAINING_ALL: [&str; 2] = ["all", "tdm"];

/// Reads a statement of preference (vocab-07 §6.5) from its bytes.
///
/// ```
/// use robots_oracle::{Preference, Vocabulary, read_statement};
/// let s = read_statement(b"train-ai=y, search=n", Vocabulary::Vocab07);
/// assert_eq!(s.preferences.train_ai, Preference::Allowed);
/// assert_eq!(s.preferences.search, Preference::Disallowed);
/// let bad = read_statement(b"Train-AI=n", Vocabulary::Vocab07);
/// assert!(bad.error.is_some() && bad.preferences.is_unknown());
/// ```
pub fn read_statement(bytes: &[u8], vocabulary: Vocabulary) -> Statement {
    let dict = match Parser::new(bytes).parse::<Dictionary>() {
        Ok(d) => d,
        Err(e) => {
            return Statement {
                preferences: Preferences::default(),
                error: Some(e.to_string()),
            };
        }
    };
    let mut preferences = Preferences::default();
    for c in Category::ALL {
        preferences.set(c, member(dict.get(c.label())));
    }
    if vocabulary == Vocabulary::Vocab06 {
        // §5 step 2: an unknown category takes its container's value.
        let all = CONTAINING_ALL
            .iter()
            .map(|k| member(dict.get(*k)))
            .find(|p| *p != Preference::Unknown)
            .unwrap_or_default();
        for c in Category::ALL {
            if preferences.get(c) == Preference::Unknown {
                preferences.set(c, all);
            }
        }
    }
    Statement { preferences, error: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Preference::*;

    fn prefs(s: &str) -> (Preference, Preference) {
        let p = read_statement(s.as_bytes(), Vocabulary::Vocab07).preferences;
        (p.train_ai, p.search)
    }

    #[test]
    fn the_drafts_examples() {
        // vocab-07 §6: allow training, disallow search.
        assert_eq!(prefs("train-ai=y, search=n"), (Allowed, Disallowed));
        // §6.5.1: duplicates, last wins; boolean and string are unknown.
        assert_eq!(
            prefs(r#"train-ai=y, train-ai, search=n, search="n""#),
            (Unknown, Unknown)
        );
        // §6.5.2: the parameters of the selected value only; allow.
        assert_eq!(prefs("train-ai;allow=n, train-ai=y"), (Allowed, Unknown));
        // §6.5.2: parameters on an unknown preference.
        assert_eq!(
            prefs(r#"train-ai;has;parameters="?";"#),
            (Unknown, Unknown)
        );
    }

    #[test]
    fn failed_parses_make_everything_unknown() {
        for s in [
            "Train-AI=n",
            "train-ai=n, SEARCH=n",
            "train-ai=n garbage",
            "train-ai=n,",
            "train-ai=ñ",
            "\ttrain-ai=n",
        ] {
            let st = read_statement(s.as_bytes(), Vocabulary::Vocab07);
            assert!(st.error.is_some(), "{s:?} should not parse");
            assert!(st.preferences.is_unknown(), "{s:?}");
        }
    }

    #[test]
    fn only_the_tokens_y_and_n_count() {
        assert_eq!(prefs("train-ai=yes, search=N"), (Unknown, Unknown));
        assert_eq!(prefs("train-ai=?1, search=1"), (Unknown, Unknown));
        assert_eq!(prefs("train-ai=(y), search=n;q=1"), (Unknown, Disallowed));
        assert_eq!(prefs("unknown-label=n, search=y"), (Unknown, Allowed));
        assert_eq!(prefs(""), (Unknown, Unknown));
        assert_eq!(prefs("  train-ai=n  "), (Disallowed, Unknown));
    }

    #[test]
    fn combining_is_any_n_then_any_y() {
        assert_eq!(Allowed.combine(Disallowed), Disallowed);
        assert_eq!(Unknown.combine(Allowed), Allowed);
        assert_eq!(Unknown.combine(Unknown), Unknown);
    }

    #[test]
    fn vocab06_lets_all_stand_for_unknown_categories() {
        let p = read_statement(b"all=n, search=y", Vocabulary::Vocab06);
        assert_eq!(p.preferences.train_ai, Disallowed);
        assert_eq!(p.preferences.search, Allowed);
        let q = read_statement(b"all=n, search=y", Vocabulary::Vocab07);
        assert_eq!(q.preferences.train_ai, Unknown);
    }
}
