//! The sample corpus the repository ships: a few hundred synthetic
//! robots.txt files, one per made-up host under the reserved `.example`
//! top-level domain (RFC 2606), built deterministically from a fixed seed
//! at run time, so nothing is downloaded and no third party's file is
//! redistributed.
//!
//! It is the embedded default of `audit make-warc`, `bench` and
//! `diff --corpus` when no corpus is given: big enough to exercise every
//! code path of those commands (site-wide and AI-crawler blocks, CMS
//! paths, wildcards and `$`, sitemaps, crawl delays, empty files, CRLF and
//! BOMs, typos, rules before the first group) and small enough to run in
//! seconds. Real data at scale is Common Crawl's robots.txt captures (see
//! the README); figures measured on this sample say nothing about the web.
//!
//! It only writes bytes; it never judges a file or a parser.

use crate::{SplitMix, from_seed};

/// Synthetic hand-shaped files in the sample.
pub const SHAPED: usize = 240;

/// Files taken from the hostile generator's stream ([`from_seed`]).
pub const HOSTILE: usize = 40;

/// The seed of both parts: the sample never changes unless this code
/// does.
pub const SEED: u64 = 9309;

/// A hostile body larger than this is left out (the stream has bodies
/// past 500 KiB; the sample stays small).
pub const MAX_HOSTILE_BYTES: usize = 16 * 1024;

/// AI crawlers' product tokens, as sites name them.
const AI_AGENTS: [&str; 10] = [
    "GPTBot",
    "ChatGPT-User",
    "CCBot",
    "ClaudeBot",
    "anthropic-ai",
    "Google-Extended",
    "PerplexityBot",
    "Applebot-Extended",
    "Bytespider",
    "meta-externalagent",
];

/// Paths sites commonly keep crawlers out of.
const DISALLOWED: [&str; 16] = [
    "/wp-admin/",
    "/cgi-bin/",
    "/search",
    "/cart",
    "/checkout/",
    "/account/",
    "/private/",
    "/tmp/",
    "/*?sessionid=",
    "/*.pdf$",
    "/*?*sort=",
    "/admin",
    "/login",
    "/api/",
    "/print/*",
    "/index.php?",
];

/// Paths sites open again inside a blocked one.
const ALLOWED: [&str; 5] = [
    "/wp-admin/admin-ajax.php",
    "/public/",
    "/api/docs",
    "/search/about",
    "/",
];

/// `name` and body of every file, in a fixed order: `SHAPED` synthetic
/// files `site-NNNN.example`, then up to `HOSTILE` bodies of the hostile
/// generator `gen-NNNN.example` (those over [`MAX_HOSTILE_BYTES`] left
/// out).
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::with_capacity(SHAPED + HOSTILE);
    for i in 0..SHAPED {
        let mut rng = SplitMix::new(SEED ^ (i as u64).wrapping_mul(0x9E37));
        let host = format!("site-{i:04}.example");
        out.push((host.clone(), shaped(&host, &mut rng)));
    }
    for i in 0..HOSTILE {
        let body = from_seed(SEED, i as u64).robots;
        if body.len() <= MAX_HOSTILE_BYTES {
            out.push((format!("gen-{i:04}.example"), body));
        }
    }
    out
}

fn pick<'a>(rng: &mut SplitMix, from: &[&'a str]) -> &'a str {
    from[(rng.next_u64() % from.len() as u64) as usize]
}

fn chance(rng: &mut SplitMix, percent: u64) -> bool {
    rng.next_u64() % 100 < percent
}

/// One synthetic file for `host`.
fn shaped(host: &str, rng: &mut SplitMix) -> Vec<u8> {
    let kind = rng.next_u64() % 100;
    let mut lines: Vec<String> = Vec::new();
    if chance(rng, 30) {
        lines.push(format!("# robots.txt for {host}"));
    }
    match kind {
        // An empty file: everything allowed.
        0..=4 => return Vec::new(),
        // The whole site closed.
        5..=9 => lines.extend(["User-agent: *".into(), "Disallow: /".into()]),
        // Everything open, said explicitly.
        10..=17 => lines.extend(["User-agent: *".into(), "Disallow:".into()]),
        _ => {
            // A rule before any user-agent line (ignored by the RFC).
            if chance(rng, 4) {
                lines.push("Disallow: /orphan/".into());
            }
            general_group(rng, &mut lines);
        }
    }
    if chance(rng, 45) {
        ai_group(rng, &mut lines);
    }
    if chance(rng, 20) {
        lines.push(String::new());
        lines.push("User-agent: Googlebot".into());
        lines.push(format!("Allow: {}", pick(rng, &ALLOWED)));
        lines.push(format!("Disallow: {}", pick(rng, &DISALLOWED)));
    }
    if chance(rng, 15) {
        lines.push(String::new());
        lines.push("User-agent: Bingbot".into());
        lines.push("Crawl-delay: 5".into());
        lines.push(format!("Disallow: {}", pick(rng, &DISALLOWED)));
    }
    if chance(rng, 55) {
        lines.push(String::new());
        lines.push(format!("Sitemap: https://{host}/sitemap.xml"));
    }
    let crlf = chance(rng, 15);
    let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
    if !chance(rng, 5) {
        text.push_str(if crlf { "\r\n" } else { "\n" });
    }
    let mut body = Vec::new();
    if chance(rng, 4) {
        body.extend_from_slice(b"\xEF\xBB\xBF");
    }
    body.extend_from_slice(text.as_bytes());
    body
}

/// The `User-agent: *` group: a few disallowed paths, maybe an allowed
/// one, a crawl delay, and now and then a typo or odd spelling.
fn general_group(rng: &mut SplitMix, lines: &mut Vec<String>) {
    lines.push("User-agent: *".into());
    let rules = 1 + rng.next_u64() % 6;
    for _ in 0..rules {
        let path = pick(rng, &DISALLOWED);
        let line = match rng.next_u64() % 40 {
            0 => format!("Disalow: {path}"),
            1 => format!("DISALLOW: {path}"),
            2 => format!("Disallow {path}"),
            3 => format!("Disallow: {path}   # keep out"),
            _ => format!("Disallow: {path}"),
        };
        lines.push(line);
    }
    if chance(rng, 35) {
        lines.push(format!("Allow: {}", pick(rng, &ALLOWED)));
    }
    if chance(rng, 10) {
        lines.push(format!("Crawl-delay: {}", 1 + rng.next_u64() % 10));
    }
}

/// A group closing the site to some AI crawlers (one user-agent line
/// each), sometimes only a part of it.
fn ai_group(rng: &mut SplitMix, lines: &mut Vec<String>) {
    lines.push(String::new());
    let n = 1 + rng.next_u64() % AI_AGENTS.len() as u64;
    let start = rng.next_u64() % AI_AGENTS.len() as u64;
    for k in 0..n {
        let i = ((start + k) % AI_AGENTS.len() as u64) as usize;
        lines.push(format!("User-agent: {}", AI_AGENTS[i]));
    }
    if chance(rng, 80) {
        lines.push("Disallow: /".into());
    } else {
        lines.push("Disallow: /articles/".into());
        lines.push("Disallow: /*.json$".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_the_same_every_time_and_small() {
        let a = files();
        assert_eq!(a, files());
        let bytes: usize = a.iter().map(|(_, b)| b.len()).sum();
        assert!(
            a.len() > SHAPED && a.len() <= SHAPED + HOSTILE,
            "{}",
            a.len()
        );
        assert!(bytes < 400 * 1024, "{bytes} bytes");
    }

    #[test]
    fn names_are_unique_example_hosts() {
        let a = files();
        let mut names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.iter().all(|n| n.ends_with(".example")));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), a.len());
    }

    #[test]
    fn the_shapes_a_command_exercises_are_all_there() {
        let a = files();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let has = |needle: &str| {
            a.iter().filter(|(_, b)| text(b).contains(needle)).count()
        };
        assert!(a.iter().any(|(_, b)| b.is_empty()), "an empty file");
        assert!(has("User-agent: GPTBot") > 10);
        assert!(has("Disallow: /\n") > 10, "site-wide blocks");
        assert!(has("Sitemap: ") > 50);
        assert!(has("$") > 5, "end anchors");
        assert!(has("\r\n") > 5, "CRLF files");
        assert!(
            a.iter().any(|(_, b)| b.starts_with(b"\xEF\xBB\xBF")),
            "a BOM"
        );
        assert!(has("Disalow:") > 0, "a typo");
    }
}
