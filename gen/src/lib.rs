//! A structured generator of robots.txt checks: a body, a crawler token
//! and URLs, built from groups, user-agent lines, rules and other records,
//! biased towards what breaks parsers (`*` and `$` anywhere, percent
//! escapes, non-ASCII, agents with versions and odd case, split groups,
//! blank lines and sitemaps between user-agent lines, rules before the
//! first user-agent line, BOMs, CR-only and mixed line ends, typos and
//! missing colons, very long lines, bodies past 500 KiB). URLs are derived
//! from the file's own rules so most checks exercise real matches.
//!
//! Everything is drawn from an [`arbitrary::Unstructured`], so the same
//! generator serves cargo-fuzz (bytes from libFuzzer) and the stable
//! `robots-conformance diff` command (bytes from a seeded generator):
//! [`Check::arbitrary`] and [`from_seed`].
//!
//! [`classify`] explains a disagreement with the oracle by toggling the
//! oracle's profile switches.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// The classifier lives in the oracle, next to its switches; re-exported
/// for the generator's users (cargo-fuzz).
pub use robots_oracle::{Classification, classify};

use arbitrary::{Arbitrary, Result, Unstructured};

/// One generated check: a body, the crawler's token, URLs to decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The robots.txt body.
    pub robots: Vec<u8>,
    /// The crawler's product token.
    pub agent: String,
    /// URLs (paths with query, sometimes absolute).
    pub urls: Vec<String>,
}

/// Crawler tokens the generated crawler uses.
const CRAWLERS: &[&str] =
    &["FooBot", "Googlebot", "googlebot-news", "ExampleBot", "BarBot"];

/// Values written on user-agent lines.
const UA_VALUES: &[&str] = &[
    "*",
    "FooBot",
    "foobot",
    "FOOBOT",
    "Googlebot",
    "googlebot-news",
    "googlebot",
    "ExampleBot",
    "BarBot",
    "Foo",
    "Foo Bar",
    "FooBot/1.2",
    "googlebot*",
    "* foo",
    "*foo",
    "Bot2",
    "",
    "Mozilla/5.0 (compatible; FooBot/1.0)",
    "Example",
];

/// Pieces of path patterns and URLs.
const ATOMS: &[&str] = &[
    "a",
    "b",
    "fish",
    "/",
    "/",
    "/",
    ".php",
    ".html",
    "*",
    "*",
    "$",
    "?",
    "=",
    "&",
    "q",
    "%2A",
    "%24",
    "%61",
    "%2F",
    "%2f",
    "%e3%83%84",
    "%E3%83%84",
    "ツ",
    "é",
    "~",
    "%7E",
    "%",
    "index.html",
    "robots.txt",
    "-",
    "_",
    ";",
    " ",
    "A",
    "Fish",
    "%20",
    "#",
];

const KEYS_RULE: &[(&str, bool)] = &[
    ("Disallow", false),
    ("Allow", true),
    ("disallow", false),
    ("allow", true),
    ("DISALLOW", false),
    ("ALLOW", true),
    ("Disalow", false),
    ("Dissallow", false),
    ("Disallowed", false),
    ("Allowed", true),
];

const KEYS_UA: &[&str] = &[
    "User-agent",
    "user-agent",
    "USER-AGENT",
    "User-Agent",
    "useragent",
    "User agent",
];

const OTHER_LINES: &[&str] = &[
    "Sitemap: https://example.com/sitemap.xml",
    "sitemap: https://example.com/s2.xml",
    "Crawl-delay: 5",
    "Content-Signal: search=yes",
    "Content-Usage: train-ai=n",
    "Content-Usage: /p search=y, train-ai=y",
    "# a comment",
    "Host: example.com",
    "this line is junk",
    ":::::",
    "<html>",
];

fn pick<'a, T>(u: &mut Unstructured<'_>, items: &'a [T]) -> Result<&'a T> {
    u.choose(items)
}

/// True with about `percent` % probability. When the bytes run out,
/// `int_in_range` answers its low end, so the rare branch must sit at the
/// high end: an exhausted input then takes the common path.
fn chance(u: &mut Unstructured<'_>, percent: u8) -> Result<bool> {
    Ok(u.int_in_range(0u8..=99)? >= 100 - percent.min(100))
}

/// A path pattern: mostly starting with `/`, built from atoms.
fn pattern(u: &mut Unstructured<'_>) -> Result<String> {
    let mut p = String::new();
    // Rare branches sit at the high end (see `chance`).
    match u.int_in_range(0u8..=19)? {
        19 => p.push('*'),
        18 => {}
        _ => p.push('/'),
    }
    for _ in 0..u.int_in_range(0u8..=5)? {
        p.push_str(pick(u, ATOMS)?);
    }
    if chance(u, 15)? {
        p.push('$');
    }
    Ok(p.replace('#', ""))
}

/// A URL derived from a pattern: wildcards filled, `$` dropped or
/// defeated, characters encoded or decoded, queries appended.
fn url_from(u: &mut Unstructured<'_>, pattern: &str) -> Result<String> {
    let mut out = String::from("/");
    let body = pattern.trim_start_matches('/');
    for c in body.chars() {
        match c {
            '*' => {
                for _ in 0..u.int_in_range(0u8..=2)? {
                    out.push_str(pick(
                        u,
                        &["a", "b", "/", ".php", "x/y", "?q=1", "*"],
                    )?);
                }
            }
            '$' => {}
            'a' if chance(u, 10)? => out.push_str("%61"),
            'ツ' if chance(u, 50)? => out.push_str("%E3%83%84"),
            c => out.push(c),
        }
    }
    match u.int_in_range(0u8..=9)? {
        9 => out.push_str("?x=1"),
        8 => out.push('/'),
        7 => out.push_str(pick(u, ATOMS)?),
        6 => {
            let keep = u.int_in_range(1..=out.chars().count())?;
            out = out.chars().take(keep).collect();
        }
        _ => {}
    }
    let mut out = out.replace(['#', ' '], "");
    // `//x` would be a network-path reference (host `x`), not a path.
    while out.starts_with("//") {
        out.remove(0);
    }
    Ok(if chance(u, 10)? { format!("https://example.com{out}") } else { out })
}

/// A rule line, with the profile-splitting variations.
fn rule_line(
    u: &mut Unstructured<'_>,
    patterns: &mut Vec<String>,
) -> Result<String> {
    let (key, _) = *pick(u, KEYS_RULE)?;
    let value = if chance(u, 5)? { String::new() } else { pattern(u)? };
    if !value.is_empty() {
        patterns.push(value.clone());
    }
    let sep = *pick(u, &[": ", ":", " : ", ":\t", " "])?;
    let comment = if chance(u, 10)? { " # note" } else { "" };
    Ok(format!("{key}{sep}{value}{comment}"))
}

fn ua_line(u: &mut Unstructured<'_>) -> Result<String> {
    let key = pick(u, KEYS_UA)?;
    let value = pick(u, UA_VALUES)?;
    let sep = *pick(u, &[": ", ":", " :  "])?;
    Ok(format!("{key}{sep}{value}"))
}

/// How lines end.
fn line_end(u: &mut Unstructured<'_>, style: u8) -> Result<&'static str> {
    Ok(match style {
        0 => "\n",
        1 => "\r\n",
        2 => "\r",
        _ => pick(u, &["\n", "\r\n", "\r"])?,
    })
}

impl<'a> Arbitrary<'a> for Check {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Check> {
        let mut lines: Vec<String> = Vec::new();
        let mut patterns = Vec::new();
        if chance(u, 5)? {
            lines.push(rule_line(u, &mut patterns)?);
        }
        for _ in 0..u.int_in_range(0u8..=4)? {
            for _ in 0..u.int_in_range(1u8..=3)? {
                lines.push(ua_line(u)?);
                if chance(u, 10)? {
                    lines.push(
                        pick(
                            u,
                            &["", "Sitemap: https://example.com/s.xml", "# c"],
                        )?
                        .to_string(),
                    );
                }
            }
            for _ in 0..u.int_in_range(0u8..=5)? {
                if chance(u, 10)? {
                    lines.push(pick(u, OTHER_LINES)?.to_string());
                }
                if chance(u, 8)? {
                    lines.push(String::new());
                }
                lines.push(rule_line(u, &mut patterns)?);
            }
        }
        if chance(u, 2)? {
            // A very long line, past Google's 16,663-byte line cap.
            let n = u.int_in_range(16_600usize..=16_700)?;
            lines.push(format!("Disallow: /{}", "a".repeat(n)));
            patterns.push(format!("/{}", "a".repeat(16_700)));
        }
        let style = u.int_in_range(0u8..=4)?;
        let mut robots = Vec::new();
        match u.int_in_range(0u8..=39)? {
            39 => robots.extend_from_slice(b"\xEF\xBB\xBF"),
            38 => robots.extend_from_slice(b"\xEF\xBB"),
            _ => {}
        }
        for l in &lines {
            robots.extend_from_slice(l.as_bytes());
            robots.extend_from_slice(line_end(u, style)?.as_bytes());
        }
        if chance(u, 1)? {
            // Past the 500 KiB parse limit, then one more rule.
            while robots.len() < 512_000 - 20 {
                robots.extend_from_slice(b"# filler filler filler filler\n");
            }
            robots.extend_from_slice(b"Disallow: /late\n");
            patterns.push("/late".into());
        }
        if chance(u, 3)? && !robots.is_empty() {
            let at = u.choose_index(robots.len())?;
            robots[at] = *pick(u, &[0x00u8, 0xFF, 0xC3, 0x80, b'\r', b'#'])?;
        }
        let agent = pick(u, CRAWLERS)?.to_string();
        let mut urls = Vec::new();
        for _ in 0..u.int_in_range(1u8..=6)? {
            let url = match patterns.is_empty() || chance(u, 15)? {
                true => {
                    let p = pattern(u)?;
                    url_from(u, &p)?
                }
                false => {
                    let p = pick(u, &patterns)?.clone();
                    url_from(u, &p)?
                }
            };
            urls.push(url);
        }
        if chance(u, 5)? {
            urls.push("/robots.txt".into());
        }
        Ok(Check { robots, agent, urls })
    }
}

/// A small deterministic byte source (SplitMix64), so that a seed gives
/// the same checks on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// Seeded.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n.div_ceil(8))
            .flat_map(|_| self.next_u64().to_le_bytes())
            .take(n)
            .collect()
    }
}

/// The `index`-th check of the stream for `seed`: deterministic, and
/// independent of every other index (so runs can resume anywhere).
pub fn from_seed(seed: u64, index: u64) -> Check {
    let mut rng =
        SplitMix::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let bytes = rng.bytes(4096);
    let mut u = Unstructured::new(&bytes);
    Check::arbitrary(&mut u).unwrap_or_else(|_| Check {
        robots: b"User-agent: *\nDisallow: /\n".to_vec(),
        agent: "FooBot".into(),
        urls: vec!["/".into()],
    })
}

/// Checks for a real robots.txt file: one per agent taken from the file's
/// own user-agent lines (at most `max_agents`) plus the generic `FooBot`,
/// each with URLs derived from the rules of the groups that agent obeys
/// and a few from other rules.
pub fn from_file(
    body: &[u8],
    seed: u64,
    max_agents: usize,
    urls_per_agent: usize,
) -> Vec<Check> {
    use robots_oracle::{AgentToken, Profile, RobotsTxt};
    let robots = RobotsTxt::parse(body, &Profile::google());
    let mut agents: Vec<String> = Vec::new();
    for g in robots.groups() {
        for a in &g.agents {
            if let AgentToken::Named(t) = &a.token
                && !t.is_empty()
                && !agents.iter().any(|x| x.eq_ignore_ascii_case(t))
            {
                agents.push(t.clone());
            }
        }
    }
    agents.truncate(max_agents);
    agents.push("FooBot".into());
    let patterns: Vec<String> = robots
        .groups()
        .iter()
        .flat_map(|g| &g.rules)
        .map(|r| String::from_utf8_lossy(&r.value).into_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let mut rng = SplitMix::new(seed);
    agents
        .into_iter()
        .map(|agent| {
            let bytes = rng.bytes(1024);
            let mut u = Unstructured::new(&bytes);
            let mut urls = vec!["/".to_string()];
            for _ in 0..urls_per_agent {
                let url = match patterns.is_empty() {
                    true => pattern(&mut u).and_then(|p| url_from(&mut u, &p)),
                    false => pick(&mut u, &patterns)
                        .cloned()
                        .and_then(|p| url_from(&mut u, &p)),
                };
                if let Ok(url) = url {
                    urls.push(url);
                }
            }
            Check { robots: body.to_vec(), agent, urls }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_deterministic_and_varied() {
        assert_eq!(from_seed(7, 3), from_seed(7, 3));
        let bodies: std::collections::HashSet<Vec<u8>> =
            (0..200).map(|i| from_seed(7, i).robots).collect();
        assert!(bodies.len() > 150, "{}", bodies.len());
    }

    #[test]
    fn urls_mostly_come_from_rules() {
        let mut starts_with_slash = 0;
        for i in 0..500 {
            for url in from_seed(1, i).urls {
                assert!(!url.contains('#'), "{url}");
                starts_with_slash += usize::from(url.starts_with('/'));
            }
        }
        assert!(starts_with_slash > 1000);
    }
}
