//! Strategies and views the oracle's own property tests share (compiled
//! for tests only): bodies rich in what the lexer acts on, built-in
//! profiles with switches applied and small limits, and a parse as one
//! comparable text.

use proptest::prelude::*;

use crate::parse::RobotsTxt;
use crate::profile::{Profile, switches};

/// Everything a parse is: what `decide` reads and what it reports.
pub(crate) fn parsed(r: &RobotsTxt) -> String {
    let sitemaps: Vec<&str> = r.sitemaps().collect();
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}",
        r.groups(),
        r.records(),
        sitemaps,
        r.diagnostics()
    )
}

/// Bodies of up to 40 pieces, rich in what the lexer acts on: line ends
/// of each kind, NUL, whole and partial BOMs, comments, colons missing,
/// misspelt keys, non-ASCII.
pub(crate) fn body() -> impl Strategy<Value = Vec<u8>> {
    let atoms: Vec<&'static [u8]> = vec![
        b"User-agent: a\n",
        b"user-agent:*\r\n",
        b"useragent *\r\n",
        b"Disallow: /x",
        b"Allow:/",
        b"disallow /y",
        b"Disalowed: /p",
        b"sitemap: /s",
        b"crawl-delay: 1",
        b"Content-Usage: train-ai=n\n",
        b"content-usage:/x search=y, train-ai=y",
        b"Content-Signal: ai-train=no",
        b"\n",
        b"\r",
        b"\r\n",
        b"\0",
        b"\xEF",
        b"\xEF\xBB",
        b"\xEF\xBB\xBF",
        b"#c",
        b" ",
        b"\t",
        b":",
        b"x y",
        b"\xC3\xA9",
    ];
    prop::collection::vec(prop::sample::select(atoms), 0..40)
        .prop_map(|parts| parts.concat())
}

/// A built-in profile with up to seven switches applied, and sometimes a
/// small line cap and parse limit, so that short bodies reach them.
pub(crate) fn profile() -> impl Strategy<Value = Profile> {
    let n = switches().len();
    (
        any::<bool>(),
        prop::collection::vec(0..n, 0..8),
        prop::option::of((prop::option::of(0usize..40), 0usize..300)),
    )
        .prop_map(|(google, picks, limits)| {
            let mut p =
                if google { Profile::google() } else { Profile::aipref() };
            for i in picks {
                p = switches()[i].applied_to(&p);
            }
            if let Some((max, limit)) = limits {
                p.max_line_bytes = max;
                p.parse_limit = limit;
            }
            p
        })
}
