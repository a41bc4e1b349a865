//! What an input holds once read: an ordered list of events, one per
//! record (a captured fetch, a skipped record, a bad record), and the
//! error that cut the input short, if one did. Knows nothing of
//! robots.txt rules; never panics on any bytes.

use robots_oracle::fetch::Answer;

/// One record of an input, numbered from 0 in input order.
#[derive(Clone, Debug)]
pub enum Event {
    /// A fetch: the URL requested and how it was answered.
    Capture {
        /// Record number.
        n: usize,
        /// The absolute URL fetched (`WARC-Target-URI`).
        url: String,
        /// The answer: a response, or a network error the record shows
        /// (a body shorter than its `Content-Length`, bad chunking).
        answer: Answer,
    },
    /// A record that is not a fetch (`warcinfo`, `request`, ...).
    Skipped {
        /// Record number.
        n: usize,
        /// Why: the WARC record type, or `duplicate`.
        kind: String,
    },
    /// A record that could not be used.
    Bad {
        /// Record number.
        n: usize,
        /// A stable kebab-case kind (`not-http`, `body-over-limit`, ...).
        kind: &'static str,
        /// What exactly.
        detail: String,
    },
}

/// An input, read.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// `warc`, `warc.gz`, `tar.gz`, `folder`, `jsonl`, or `unknown`.
    pub format: &'static str,
    /// Its records in order.
    pub events: Vec<Event>,
    /// What stopped the reading early (a truncated gzip stream, a cut
    /// record, an unreadable file): kind and detail. Records read before
    /// it are kept.
    pub stopped: Option<(&'static str, String)>,
    /// Response records the archiver marked `WARC-Truncated`, by the
    /// header's reason (`length`, `time`, `disconnect`, `unspecified`).
    /// Their bodies are used as captured.
    pub truncated: std::collections::BTreeMap<String, usize>,
}

impl Input {
    pub(crate) fn new(format: &'static str) -> Input {
        Input { format, ..Input::default() }
    }

    pub(crate) fn stop(
        mut self,
        kind: &'static str,
        detail: impl Into<String>,
    ) -> Input {
        self.stopped = Some((kind, detail.into()));
        self
    }

    pub(crate) fn bad(
        &mut self,
        kind: &'static str,
        detail: impl Into<String>,
    ) {
        let n = self.events.len();
        self.events.push(Event::Bad { n, kind, detail: detail.into() });
    }

    pub(crate) fn skip(&mut self, kind: impl Into<String>) {
        let n = self.events.len();
        self.events.push(Event::Skipped { n, kind: kind.into() });
    }

    pub(crate) fn mark_truncated(&mut self, reason: &str) {
        let reason = match reason.trim() {
            "" => "unspecified".to_string(),
            r => r.to_ascii_lowercase(),
        };
        *self.truncated.entry(reason).or_default() += 1;
    }

    pub(crate) fn capture(&mut self, url: String, answer: Answer) {
        let n = self.events.len();
        self.events.push(Event::Capture { n, url, answer });
    }
}
