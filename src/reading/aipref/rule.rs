//! The Content-Usage rule of draft-ietf-aipref-attach-05 §3: one line of a
//! group to a path (or none) and a statement of preference.
//!
//! attach-05 §3.2: the label is matched case-insensitively with SP and
//! HTAB ignored around it and the colon (the lexer does this for every
//! key); the value runs to the first CR, LF or `#` (the lexer cuts
//! comments). A value starting with `/` holds a path up to the first SP
//! or HTAB, and the rest is the statement; any other value is all
//! statement (the path is absent). Between path and statement the ABNF
//! of §3 has `1*WS`, which is not part of `usage-pref`, so all of it is
//! skipped (the prose's "the remainder" would hand a leading HTAB to the
//! Dictionary parser, which refuses it: a silence the cases mark).
//!
//! Never panics; linear in the value.

use crate::aipref::vocab::{Statement, Vocabulary, read_statement};
use crate::octets::Octets;
use crate::pattern::{Pattern, Shape};
use crate::profile::Profile;

/// A Content-Usage rule (attach-05 §3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageRule {
    /// The 1-based line number.
    pub line: u32,
    /// The path as written, `None` when absent (then the rule applies to
    /// every path, with the least specificity).
    pub path: Option<Octets>,
    pub(crate) pattern: Option<Pattern>,
    /// The statement of preference as written.
    pub statement: Octets,
    /// The statement as read (vocab-07 §6.5).
    pub read: Statement,
}

/// The path and statement parts of a rule value.
pub(crate) fn split_value(value: &[u8]) -> (Option<&[u8]>, &[u8]) {
    if value.first() != Some(&b'/') {
        return (None, value);
    }
    let end = value.iter().position(|&b| b == b' ' || b == b'\t');
    let Some(end) = end else { return (Some(value), &[]) };
    let rest = &value[end..];
    let skip = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    (Some(&value[..end]), &rest[skip..])
}

impl UsageRule {
    /// The rule of one Content-Usage line whose value is `value`, a part
    /// of `file` when a file is kept.
    pub(crate) fn read(
        line: u32,
        value: &[u8],
        file: Option<&std::sync::Arc<[u8]>>,
        p: &Profile,
        vocabulary: Vocabulary,
    ) -> UsageRule {
        let (path, statement) = split_value(value);
        let keep = |part: &[u8]| match file {
            Some(f) => Octets::within(f, part),
            None => Octets::from(part),
        };
        UsageRule {
            line,
            pattern: path.map(|v| Pattern::compile(v, p)),
            path: path.map(keep),
            read: read_statement(statement, vocabulary),
            statement: keep(statement),
        }
    }

    /// The path's pattern, if the rule has a path.
    pub(crate) fn shape(&self) -> Option<Shape<'_>> {
        let (pattern, path) = (self.pattern.as_ref()?, self.path.as_ref()?);
        Some(pattern.shape(path))
    }

    /// The path after percent-encoding normalisation (empty when absent).
    pub fn normalized(&self) -> &[u8] {
        self.shape().map(|s| s.normalized()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_as_attach_05_says() {
        assert_eq!(split_value(b"train-ai=n"), (None, &b"train-ai=n"[..]));
        assert_eq!(
            split_value(b"/ai-ok/ train-ai=y"),
            (Some(&b"/ai-ok/"[..]), &b"train-ai=y"[..])
        );
        assert_eq!(
            split_value(b"/a\t \ttrain-ai=y, search=n"),
            (Some(&b"/a"[..]), &b"train-ai=y, search=n"[..])
        );
        assert_eq!(split_value(b"/only"), (Some(&b"/only"[..]), &b""[..]));
        assert_eq!(
            split_value(b"*.pdf train-ai=n"),
            (None, &b"*.pdf train-ai=n"[..])
        );
        assert_eq!(split_value(b""), (None, &b""[..]));
    }
}
