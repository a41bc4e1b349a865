//! AI usage preferences carried in robots.txt.
//!
//! | text | module |
//! |---|---|
//! | draft-ietf-aipref-attach-05 §3, §3.2: the Content-Usage rule and its value | `rule` |
//! | attach-05 §3.1: which rules apply to a URL; only crawlable URLs | `usage` |
//! | draft-ietf-aipref-vocab-07 §3–§6 (and vocab-06 §5): statements of preference | `vocab` |
//! | Cloudflare's Content-Signal (draft-romm-aipref-contentsignals-00 labels) | `signal` |
//!
//! The drafts are drafts: every clause id (`AIPREF-ATTACH-…`,
//! `AIPREF-VOCAB-…`, `CS-…`) names the draft version it quotes, in
//! `spec-cases/clauses.toml`. Never does I/O; never panics.

pub(crate) mod rule;
pub(crate) mod signal;
pub(crate) mod usage;
pub(crate) mod vocab;
