//! A census of a file's AI preference lines, for the audit's rows: how
//! many `Content-Usage`, `Content-Signal` and `Content-Signals` (the
//! misspelling) lines the file holds, whether any of them states
//! training allowed or refused, and per agent the Content-Signal values
//! that apply to it. The lines are read by the oracle (its rfc9309 parse
//! keeps every such line as a record; its aipref parse reads the
//! Content-Usage statements and selects the Content-Signal lines an
//! agent obeys under the default scope), never by hand.
//!
//! This module counts and reads lines; it never decides whether a URL
//! may be crawled nor what a Content-Usage preference is for a URL: those
//! verdicts come from the reference adapters (`judge`).

use std::collections::BTreeMap;

use robots_oracle::{ContentSignals, Preference, Profile, Record, RobotsTxt};

use crate::row::AiLines;

/// Whether `body` may hold an AI preference line at all: every key the
/// census looks for starts with `content-`. Files without it (most of
/// the web) are not parsed again.
fn may_hold(body: &[u8]) -> bool {
    body.windows(8).any(|w| w.eq_ignore_ascii_case(b"content-"))
}

fn is(r: &Record, key: &str) -> bool {
    r.key.trim().eq_ignore_ascii_case(key)
}

/// What one file says: the census and, per agent of `agents`, the
/// Content-Signal values that apply (empty map when the file has no
/// Content-Signal line). `None`: no body was kept.
pub fn read(
    body: Option<&[u8]>,
    agents: &[String],
) -> (AiLines, BTreeMap<String, String>) {
    let mut lines = AiLines::default();
    let mut signals = BTreeMap::new();
    let Some(body) = body.filter(|b| may_hold(b)) else {
        return (lines, signals);
    };
    let plain = RobotsTxt::parse(body, &Profile::rfc9309());
    let records = plain
        .records()
        .iter()
        .chain(plain.groups().iter().flat_map(|g| g.records.iter()));
    for r in records {
        if is(r, "content-usage") {
            lines.content_usage += 1;
        } else if is(r, "content-signal") {
            lines.content_signal += 1;
            match ContentSignals::read(&r.value).ai_train {
                Some(true) => lines.train_y = true,
                Some(false) => lines.train_n = true,
                None => {}
            }
        } else if is(r, "content-signals") {
            lines.content_signals += 1;
        }
    }
    if lines.content_usage == 0 && lines.content_signal == 0 {
        return (lines, signals);
    }
    let ai = RobotsTxt::parse(body, &Profile::aipref());
    for rule in ai.groups().iter().flat_map(|g| g.usage.iter()) {
        match rule.read.preferences.train_ai {
            Preference::Allowed => lines.train_y = true,
            Preference::Disallowed => lines.train_n = true,
            Preference::Unknown => {}
        }
    }
    if lines.content_signal > 0 {
        for agent in agents {
            let (s, _) = ai.content_signals(agent);
            signals.insert(agent.clone(), s.to_string());
        }
    }
    (lines, signals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agents() -> Vec<String> {
        vec!["GPTBot".into(), "Googlebot".into()]
    }

    #[test]
    fn counts_each_kind_and_reads_training_statements() {
        let body = b"Content-Signal: ai-train=yes\n\
            User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\
            Content-Usage: train-ai=y\nContent-Signals: ai-train=no\n\n\
            User-agent: GPTBot\nContent-Usage : /x train-ai=n\nDisallow: /\n";
        let (lines, signals) = read(Some(body), &agents());
        assert_eq!(
            lines,
            AiLines {
                content_usage: 2,
                content_signal: 2,
                content_signals: 1,
                train_y: true,
                train_n: true,
            }
        );
        // Group scope: GPTBot is named, so the `*` group's line is not
        // its; the preamble line applies to no one.
        assert_eq!(signals["GPTBot"], "");
        assert_eq!(signals["Googlebot"], "search=yes, ai-train=no");
    }

    #[test]
    fn files_without_ai_lines_and_missing_bodies_say_nothing() {
        let (lines, signals) =
            read(Some(b"User-agent: *\nDisallow: /content-x\n"), &agents());
        assert_eq!((lines, signals.len()), (AiLines::default(), 0));
        assert_eq!(read(None, &agents()).0, AiLines::default());
        // A Content-Usage line whose statement does not parse states
        // nothing; no Content-Signal line: no signals map.
        let (lines, signals) = read(
            Some(b"User-agent: *\nContent-Usage: Train-AI=y\n"),
            &agents(),
        );
        assert_eq!(lines.content_usage, 1);
        assert!(!lines.train_y && !lines.train_n && signals.is_empty());
    }
}
