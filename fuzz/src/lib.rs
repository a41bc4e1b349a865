//! What the structured fuzz targets share: [`Input`], the libFuzzer bytes
//! read as a `robots_gen::Check`; [`lines`], the body split as the
//! oracle's lexer splits it; and [`KNOWN`], [`matchers::KNOWN_MATCHERS`]
//! and [`KNOWN_READINGS`], the adapter deviations the `differential`
//! target has already found and no single profile switch or pair explains
//! ([`known_deviation`]).

mod escapes;
pub mod matchers;

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use robots_gen::{Check, Classification, SplitMix, classify};
use robots_oracle::{DotSegments, Profile, RobotsTxt, RuleKind, Verdict};

/// A generated check, drawn from the fuzzer's bytes followed by a fixed
/// pseudo-random tail.
///
/// Why the tail: when an `Unstructured` runs dry, `int_in_range` returns
/// the low end of its range, so every "x % of the time" choice of the
/// generator (`chance(u, p)` is `int_in_range(0..=99) < p`) comes out
/// *yes*: every short input would get the 16,700-byte line and the
/// 512,000-byte filler, and the fuzzer would spend its time parsing
/// filler (decide: about 150 exec/s). With the tail, the bytes the
/// fuzzer does not supply are ordinary random bytes, the same on every
/// run, so an input still maps to one check (artifacts reproduce).
pub struct Input(pub Check);

/// Bodies longer than this are rejected by the structured targets (not
/// run, never kept in the corpus). The generator makes a 512,000-byte
/// body about 1 time in 100, but libFuzzer keeps every input that reaches
/// new code, and the parse-limit path is new code: after a minute about
/// 10 % of the corpus was such bodies and `decide` ran at ~330 exec/s,
/// most of it lexing filler. The parse limit is covered by the `parse`
/// target, `spec-cases/limits/` and the `diff` command. 64 KiB keeps the
/// long-line cases (16,600-16,700-byte lines, Google's line cap).
pub const MAX_BODY: usize = 64 * 1024;

/// The bytes after the fuzzer's own: the same 4 KiB on every run.
fn tail() -> &'static [u8] {
    static TAIL: OnceLock<Vec<u8>> = OnceLock::new();
    TAIL.get_or_init(|| SplitMix::new(0x0b07_5eed).bytes(4096))
}

impl Input {
    /// The check for `data`.
    pub fn from_bytes(data: &[u8]) -> Input {
        let mut bytes = Vec::with_capacity(data.len() + tail().len());
        bytes.extend_from_slice(data);
        bytes.extend_from_slice(tail());
        let check = Check::arbitrary(&mut Unstructured::new(&bytes))
            .unwrap_or_else(|_| Check {
                robots: b"User-agent: *\nDisallow: /\n".to_vec(),
                agent: "FooBot".into(),
                urls: vec!["/".into()],
            });
        Input(check)
    }
}

impl<'a> Arbitrary<'a> for Input {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Input> {
        Ok(Input::from_bytes(u.bytes(u.len())?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Input> {
        Ok(Input::from_bytes(u.take_rest()))
    }
}

/// Shown by `cargo fuzz fmt` and in crash reports: the body escaped, so
/// CR, BOM and invalid bytes are visible.
impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.0;
        f.debug_struct("Check")
            .field("robots", &format_args!("b\"{}\"", c.robots.escape_ascii()))
            .field("agent", &c.agent)
            .field("urls", &c.urls)
            .finish()
    }
}

/// The byte range of each line's content (index 0 is line 1), without its
/// line end, split exactly as the oracle's lexer splits (CR, LF, CRLF; a
/// last line without NL is a line). A BOM stays on line 1.
pub fn lines(body: &[u8]) -> Vec<Range<usize>> {
    robots_oracle::line_ranges(body).collect()
}

/// `body` with the content of the given lines (1-based) replaced.
pub(crate) fn replace_lines(body: &[u8], with: &[(u32, &[u8])]) -> Vec<u8> {
    let ranges = lines(body);
    let mut out = Vec::with_capacity(body.len() + 16 * with.len());
    let mut at = 0;
    for (i, r) in ranges.iter().enumerate() {
        out.extend_from_slice(&body[at..r.start]);
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        match with.iter().find(|(n, _)| *n == line) {
            Some((_, text)) => out.extend_from_slice(text),
            None => out.extend_from_slice(&body[r.clone()]),
        }
        at = r.end;
    }
    out.extend_from_slice(&body[at..]);
    out
}

/// A pattern no target matches under the google profile (which uses a
/// pattern as written): every target starts with `/`.
pub(crate) const NEVER_MATCHES: &[u8] = b"never-matches";

/// `body` with the pattern of each rule the google profile reads in a
/// group replaced by `pattern(value)` where that gives one; `None` when
/// it gives none. The line keeps its key, separator and comment as
/// written (a parser with other keys still reads it as it did); where
/// the value cannot be found on its line, the line becomes `Allow: ` or
/// `Disallow: ` and the new pattern.
pub(crate) fn rewrite_patterns(
    body: &[u8],
    pattern: impl Fn(&[u8]) -> Option<Vec<u8>>,
) -> Option<Vec<u8>> {
    let google = RobotsTxt::parse(body, &Profile::google());
    let ranges = lines(body);
    let changed: Vec<(u32, Vec<u8>)> = google
        .groups()
        .iter()
        .flat_map(|g| &g.rules)
        .filter_map(|r| {
            let new = pattern(&r.value)?;
            let written = usize::try_from(r.line)
                .ok()
                .and_then(|n| ranges.get(n.checked_sub(1)?))
                .and_then(|at| with_value(&body[at.clone()], &r.value, &new));
            let line = written.unwrap_or_else(|| {
                let mut line = match r.kind {
                    RuleKind::Allow => b"Allow: ".to_vec(),
                    RuleKind::Disallow => b"Disallow: ".to_vec(),
                };
                line.extend_from_slice(&new);
                line
            });
            Some((r.line, line))
        })
        .collect();
    let with: Vec<(u32, &[u8])> =
        changed.iter().map(|(n, l)| (*n, &l[..])).collect();
    (!with.is_empty()).then(|| replace_lines(body, &with))
}

/// `line` with its rule value `value` (the last thing before a comment
/// and trailing blanks) replaced by `new`; `None` when the value is not
/// there or would start the line.
fn with_value(line: &[u8], value: &[u8], new: &[u8]) -> Option<Vec<u8>> {
    let content = line.split(|&b| b == b'#').next()?;
    let end = content
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(0, |e| e + 1);
    let start = end.checked_sub(value.len()).filter(|&s| s > 0)?;
    if &content[start..end] != value {
        return None;
    }
    let mut out = Vec::with_capacity(line.len() + new.len());
    out.extend_from_slice(&line[..start]);
    out.extend_from_slice(new);
    out.extend_from_slice(&line[end..]);
    Some(out)
}

/// A deviation of one adapter that the `differential` target has found and
/// that no profile switch models. Each is recognised by its mechanism,
/// not by its shape: [`Known::rewrite`] turns the body into what the
/// parser effectively reads, and the oracle (the adapter's claimed
/// profile) must then give the parser's verdict, alone or with one
/// switch or pair.
pub struct Known {
    /// The adapter (`Info::name`).
    pub adapter: &'static str,
    /// A short name.
    pub name: &'static str,
    /// What the parser does, with where in its source.
    pub what: &'static str,
    /// The body as the parser reads it, when the reading changes it.
    pub rewrite: fn(&[u8]) -> Option<Vec<u8>>,
}

/// The known deviations (fuzz/README.md, "Findings", has an input for
/// each). The order matters when several apply at once (they are then
/// composed in this order): byte-level readings first, then line syntax,
/// then grouping and matching.
pub const KNOWN: &[Known] = &[
    Known {
        adapter: "rust-texting_robots",
        name: "bom-bytes-each-optional",
        what: "each of the BOM bytes EF, BB, BF is skipped on its own at \
               the start (texting_robots 0.2.2 `robots_txt_parse`: three \
               `opt(tag(..))`), so a lone `BB` or `BF` is dropped; Google \
               skips a BOM or a prefix of one",
        rewrite: |body| {
            let mut rest = body;
            for b in [0xEF, 0xBB, 0xBF] {
                if rest.first() == Some(&b) {
                    rest = &rest[1..];
                }
            }
            // Also when Google skips the same bytes: dropping them changes
            // nothing for the oracle, and later rewrites see line 1 as
            // texting_robots does.
            (rest.len() < body.len()).then(|| rest.to_vec())
        },
    },
    Known {
        adapter: "rust-texting_robots",
        name: "nul-is-a-line-break",
        what: "a NUL byte ends a line (texting_robots 0.2.2 `Robot::new` \
               replaces every 0x00 with \\n)",
        rewrite: |body| {
            body.contains(&0).then(|| {
                body.iter().map(|&b| if b == 0 { b'\n' } else { b }).collect()
            })
        },
    },
    Known {
        adapter: "rust-texting_robots",
        name: "key-space-value",
        what: "`key value` without a colon takes the rest of the line as \
               the value, spaces included, and may be empty (texting_robots \
               0.2.2 `many_statement_builder`: `alt((space0 \":\", space1))`); \
               the google profile accepts a missing colon only with exactly \
               two words (GRT-2)",
        rewrite: |body| {
            let changed: Vec<(u32, Vec<u8>)> = lines(body)
                .into_iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let line = texting_key_space_value(&body[r])?;
                    Some((u32::try_from(i + 1).ok()?, line))
                })
                .collect();
            let with: Vec<(u32, &[u8])> =
                changed.iter().map(|(n, l)| (*n, &l[..])).collect();
            (!with.is_empty()).then(|| replace_lines(body, &with))
        },
    },
    Known {
        adapter: "rust-texting_robots",
        name: "no-user-agent-means-everyone",
        what: "a file without any user-agent line applies its rules to \
               every crawler (texting_robots 0.2.2 `Robot::new`: \"If there \
               are no User-Agent lines then we capture all\"); RFC 9309 \
               ignores rules outside groups (R2.2.2-15)",
        rewrite: |body| {
            // What texting_robots does not read as a user-agent line
            // (`User-Agent\xc3: foobot`) may still be one to Google.
            let ranges = lines(body);
            if ranges.iter().any(|r| texting_user_agent_line(&body[r.clone()]))
            {
                return None;
            }
            let google = RobotsTxt::parse(body, &Profile::google());
            let agents: Vec<(u32, &[u8])> = google
                .groups()
                .iter()
                .flat_map(|g| &g.agents)
                .map(|a| (a.line, &b"#"[..]))
                .collect();
            let mut b = b"User-agent: *\n".to_vec();
            b.extend_from_slice(&replace_lines(body, &agents));
            Some(b)
        },
    },
    Known {
        adapter: "rust-texting_robots",
        name: "empty-disallow-is-allow-all",
        what: "an empty `Disallow:` is read as `Allow: /` (texting_robots \
               0.2.2 `parser.rs` `disallow`: \"Disallow: is equivalent to \
               allow all\"), so it ties with `Disallow: /` in the same \
               group and wins the tie; RFC 9309: an empty rule matches \
               nothing",
        rewrite: |body| {
            let google = RobotsTxt::parse(body, &Profile::google());
            let empty: Vec<(u32, &[u8])> = google
                .groups()
                .iter()
                .flat_map(|g| &g.rules)
                .filter(|r| r.kind == RuleKind::Disallow && r.value.is_empty())
                .map(|r| (r.line, &b"Allow: /"[..]))
                .collect();
            (!empty.is_empty()).then(|| replace_lines(body, &empty))
        },
    },
    Known {
        adapter: "rust-texting_robots",
        name: "dollar-anywhere-is-end-anchor",
        what: "every `$` in a pattern is an end anchor, not only a final \
               one (texting_robots 0.2.2 `minregex.rs`: `\\$` becomes the \
               regex `$`): `/a$b` matches nothing, `/a$$` and `/a$*` are \
               `/a$`; \
               R2.2.3 and Google: only a final `$` is special",
        rewrite: |body| {
            rewrite_patterns(body, |v| {
                let first = v.iter().position(|&b| b == b'$')?;
                if first + 1 == v.len() {
                    return None; // one final `$`: the same reading
                }
                if v[first..].iter().all(|&b| b == b'$' || b == b'*') {
                    Some(v[..=first].to_vec())
                } else {
                    // Text after an end anchor: the rule never matches.
                    Some(NEVER_MATCHES.to_vec())
                }
            })
        },
    },
    Known {
        adapter: "rust-texting_robots",
        name: "pattern-specials-encoded",
        what: "space, `\"`, `<`, `>`, `` ` `` and control bytes in a pattern \
               are percent-encoded before matching (texting_robots 0.2.2 \
               `percent_encode`, the URL fragment set), so `/ *` matches \
               `/%20`; Google escapes only non-ASCII bytes (GRT-11)",
        rewrite: |body| {
            let special =
                |b: u8| b < 0x20 || b == 0x7F || b" \"<>`".contains(&b);
            rewrite_patterns(body, |v| {
                v.iter().any(|&b| special(b)).then(|| {
                    let mut out = Vec::with_capacity(v.len() * 3);
                    for &b in v {
                        if special(b) {
                            out.extend_from_slice(
                                format!("%{b:02X}").as_bytes(),
                            );
                        } else {
                            out.push(b);
                        }
                    }
                    out
                })
            })
        },
    },
    Known {
        adapter: "rust-robotstxt",
        name: "record-ends-user-agent-list",
        what: "a sitemap or unknown record between user-agent lines ends \
               the list, so the next user-agent line starts a new group \
               (robotstxt 0.3.0 `matcher.rs` `handle_sitemap` / \
               `handle_unknown_action` set `seen_separator`; upstream \
               Google C++ keeps one group: adapters-probe.md case 7b)",
        rewrite: |body| {
            // An empty rule ends the user-agent list and matches nothing.
            let google = RobotsTxt::parse(body, &Profile::google());
            let records: Vec<(u32, &[u8])> = google
                .groups()
                .iter()
                .flat_map(|g| &g.records)
                .chain(google.records())
                .map(|r| r.line)
                .chain(sitemap_lines(body))
                .map(|line| (line, &b"Disallow:"[..]))
                .collect();
            (!records.is_empty()).then(|| replace_lines(body, &records))
        },
    },
    Known {
        adapter: "rust-robotstxt",
        name: "lone-percent-swallows-two-octets",
        what: "in a pattern, a `%` takes the next two octets with it even \
               when they are not hex digits, and is then dropped with them \
               when the pattern is rewritten (escapes upper-cased, non-ASCII \
               escaped), or hides them from the scan that decides whether \
               to rewrite (robotstxt 0.3.0 `parser.rs` `escape_pattern`): \
               `/%ツ` is read `/%84`, `/%é` stays raw and matches nothing; \
               Google's parser keeps such a `%` and reads on (GRT-11). Case \
               findings::encoding::lone-percent-before-non-ascii-in-rule",
        rewrite: escapes::port_rewrite,
    },
];

/// Whether texting_robots reads `line` as a user-agent line: one of its
/// spellings of the key (any case, after leading blanks), then a colon
/// after optional blanks, or blanks and a value (the `key value` form).
fn texting_user_agent_line(line: &[u8]) -> bool {
    let ws = |b: u8| b == b' ' || b == b'\t';
    let start = line.iter().position(|&b| !ws(b)).unwrap_or(line.len());
    let line = &line[start..];
    ["user-agent", "user agent", "useragent"].iter().any(|key| {
        let Some(head) = line.get(..key.len()) else { return false };
        if !head.eq_ignore_ascii_case(key.as_bytes()) {
            return false;
        }
        let rest = &line[key.len()..];
        let blanks = rest.iter().take_while(|&&b| ws(b)).count();
        match rest.get(blanks) {
            Some(b':') => true,
            Some(b'\r' | b'\n' | b'#') | None => false,
            Some(_) => blanks > 0,
        }
    })
}

/// A line texting_robots reads as `key value` (no colon), rewritten as
/// `Key: value`; `None` for any other line.
fn texting_key_space_value(line: &[u8]) -> Option<Vec<u8>> {
    const KEYS: [(&str, &[&str]); 3] = [
        ("User-agent", &["user-agent", "user agent", "useragent"]),
        ("Allow", &["allow"]),
        (
            "Disallow",
            &[
                "disallow",
                "dissallow",
                "dissalow",
                "disalow",
                "diasllow",
                "disallaw",
            ],
        ),
    ];
    let ws = |b: u8| b == b' ' || b == b'\t';
    let start = line.iter().position(|&b| !ws(b))?;
    let line = &line[start..];
    for (canonical, spellings) in KEYS {
        for key in spellings {
            let Some(head) = line.get(..key.len()) else { continue };
            if !head.eq_ignore_ascii_case(key.as_bytes()) {
                continue;
            }
            let rest = &line[key.len()..];
            let spaces = rest.iter().take_while(|&&b| ws(b)).count();
            if spaces == 0 || rest.get(spaces) == Some(&b':') {
                return None; // the colon form, read alike
            }
            let value = &rest[spaces..];
            let value = value.split(|&b| b == b'#').next().unwrap_or_default();
            let end = value.iter().rposition(|&b| !ws(b)).map_or(0, |e| e + 1);
            let mut out = format!("{canonical}: ").into_bytes();
            out.extend_from_slice(&value[..end]);
            return Some(out);
        }
    }
    None
}

/// The lines the google profile reads as sitemaps: the key (before `:`,
/// or the first of exactly two words) starts with `sitemap` or
/// `site-map`, ignoring case. (The oracle keeps sitemap line numbers
/// private.)
fn sitemap_lines(body: &[u8]) -> Vec<u32> {
    let ws = |b: &u8| *b == b' ' || *b == b'\t';
    lines(body)
        .into_iter()
        .enumerate()
        .filter(|(_, r)| {
            let line = &body[r.clone()];
            let line = line.split(|&b| b == b'#').next().unwrap_or_default();
            let key = match line.iter().position(|&b| b == b':') {
                Some(colon) => &line[..colon],
                None => {
                    line.split(ws).find(|w| !w.is_empty()).unwrap_or_default()
                }
            };
            let key: Vec<u8> =
                key.iter().copied().filter(|b| !ws(b)).collect();
            let key = key.to_ascii_lowercase();
            key.starts_with(b"sitemap") || key.starts_with(b"site-map")
        })
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX))
        .collect()
}

/// A reading in which an adapter departs from the profile it claims on
/// every body and URL alike: a whole profile switch, read from the
/// adapter's code and confirmed by its answers. [`known_deviation`]
/// applies them to the claimed profile when the adapter's `KNOWN` entries
/// do not explain an answer on their own, so that they do not take the
/// two switch slots `classify` has.
pub struct KnownReading {
    /// The adapter (`Info::name`).
    pub adapter: &'static str,
    /// A short name.
    pub name: &'static str,
    /// What the parser does, with where in its source.
    pub what: &'static str,
    /// The switch, applied to the claimed profile.
    pub apply: fn(&mut Profile),
}

/// The known whole readings (fuzz/README.md, "Findings").
pub const KNOWN_READINGS: &[KnownReading] = &[
    KnownReading {
        adapter: "rust-texting_robots",
        name: "url-non-ascii-encoded",
        what: "the URL is percent-encoded before matching, non-ASCII octets \
               included (texting_robots 0.2.2 `Robot::prepare_url`: the url \
               crate, or `percent_encode` for a relative URL), as \
               `encode_url_non_ascii=true`; Google matches the URL as given",
        apply: |p| p.encode_url_non_ascii = true,
    },
    KnownReading {
        adapter: "rust-texting_robots",
        name: "keys-exact",
        what: "a key is one of its spellings followed by `:` or blanks \
               (texting_robots 0.2.2 `parser.rs`: `tag_no_case`, then \
               `alt((space0 \":\", space1))`), so `Allowed: /x` is no rule, \
               as `key_prefix_match=false`; Google reads every key that \
               starts with `allow` as allow (GRT-3)",
        apply: |p| p.key_prefix_match = false,
    },
    KnownReading {
        adapter: "rust-texting_robots",
        name: "url-dot-segments-removed",
        what: "the dot segments of an absolute URL's path are removed \
               before matching (texting_robots 0.2.2 `Robot::prepare_url`: \
               the url crate's WHATWG parsing), so `https://example.com/a/../` \
               is `/`, as `dot_segments=absolute-urls`; Google matches the \
               path as given. The campaign's open stop of 2026-12-01 23:00",
        apply: |p| p.dot_segments = DotSegments::AbsoluteUrls,
    },
];

/// The known deviation of `adapter` that explains why it answered
/// `theirs` for this check, if one does: its rewrite alone, or all the
/// adapter's rewrites that apply together, make the oracle under
/// `profile` answer `theirs`, as it is or with a switch or pair; failing
/// that, the same under `profile` read with the adapter's
/// [`KNOWN_READINGS`] (then the body as it is, too).
pub fn known_deviation(
    adapter: &str,
    body: &[u8],
    agent: &str,
    url: &str,
    profile: &Profile,
    theirs: Verdict,
) -> Option<String> {
    let claimed = Claim { adapter, body, agent, url, theirs };
    if let Some(name) = claimed.deviation_under(profile, false) {
        return Some(name);
    }
    let readings: Vec<&KnownReading> =
        KNOWN_READINGS.iter().filter(|r| r.adapter == adapter).collect();
    let mut read = profile.clone();
    for r in &readings {
        (r.apply)(&mut read);
    }
    if read == *profile {
        return None;
    }
    let names: Vec<&str> = readings.iter().map(|r| r.name).collect();
    let names = names.join("+");
    claimed.deviation_under(&read, true).map(|more| {
        if more.is_empty() { names } else { format!("{names}+{more}") }
    })
}

/// One check and the adapter's answer to it.
struct Claim<'a> {
    adapter: &'a str,
    body: &'a [u8],
    agent: &'a str,
    url: &'a str,
    theirs: Verdict,
}

impl Claim<'_> {
    /// Whether the oracle under `profile` gives their answer for `body`,
    /// as it is or with a switch or pair.
    fn explains(&self, b: &[u8], profile: &Profile) -> bool {
        let d = RobotsTxt::parse(b, profile).decide(self.agent, self.url).ok();
        d.is_some_and(|d| d.verdict == self.theirs)
            || classify(b, self.agent, self.url, profile, self.theirs)
                != Classification::Unexplained
    }

    /// The adapter's `KNOWN` and `KNOWN_MATCHERS` entries that explain
    /// the answer under `profile` (an empty name: the body as it is,
    /// tried first when `plain`).
    fn deviation_under(
        &self,
        profile: &Profile,
        plain: bool,
    ) -> Option<String> {
        let (adapter, body) = (self.adapter, self.body);
        if plain && self.explains(body, profile) {
            return Some(String::new());
        }
        let explains = |b: &[u8]| self.explains(b, profile);
        let mine: Vec<&Known> =
            KNOWN.iter().filter(|k| k.adapter == adapter).collect();
        for k in &mine {
            if let Some(b) = (k.rewrite)(body)
                && explains(&b)
            {
                return Some(k.name.to_string());
            }
        }
        // Several at once, in list order.
        let mut b = body.to_vec();
        let mut names = Vec::new();
        for k in &mine {
            if let Some(next) = (k.rewrite)(&b) {
                b = next;
                names.push(k.name);
            }
        }
        if names.len() > 1 && explains(&b) {
            return Some(names.join("+"));
        }
        // A matcher's deviation, on the body as it is and after the
        // rewrites.
        let matchers = matchers::KNOWN_MATCHERS.iter();
        for m in matchers.filter(|m| m.adapter == adapter) {
            for (start, before) in
                [(body, Vec::new()), (&b[..], names.clone())]
            {
                if let Some(seen) = matchers::as_matched_by(
                    m, start, self.agent, self.url, profile,
                ) && explains(&seen)
                {
                    let mut all = before;
                    all.push(m.name);
                    return Some(all.join("+"));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texting(body: &[u8], agent: &str, url: &str) -> Option<String> {
        let google = Profile::google();
        known_deviation(
            "rust-texting_robots",
            body,
            agent,
            url,
            &google,
            Verdict::Disallowed,
        )
    }

    #[test]
    fn rules_outside_any_group_texting_can_see_apply_to_everyone() {
        // The README's minimised input, and the campaign's finding: a key
        // Google reads as user-agent (`User-Agent\xc3`) but texting_robots
        // does not, so it sees no user-agent line at all.
        assert!(texting(b"Disallow: /a\n", "FooBot", "/a").is_some());
        let found = b"User-Agent\xc3:  foobot\r\nALLOW:\t\r\ndisallow : /\xc3\xa9$a-a\r\nALLOW:/\r\ndisallow:\t/;;/\xc3\xa9\r\n";
        let why = texting(found, "googlebot-news", "/;;/\u{e9}?x=1");
        assert!(
            why.as_deref()
                .is_some_and(|w| w.contains("no-user-agent-means-everyone")),
            "{why:?}"
        );
        // With a user-agent line texting_robots reads, it does not apply.
        let named = b"User-agent: foobot\nDisallow: /a\n";
        assert_eq!(texting(named, "BarBot", "/a"), None);
    }

    #[test]
    fn texting_s_user_agent_lines() {
        assert!(texting_user_agent_line(b"User-agent: x"));
        assert!(texting_user_agent_line(b"  USERAGENT :x"));
        assert!(texting_user_agent_line(b"user agent x"));
        assert!(!texting_user_agent_line(b"User-Agent\xc3: x"));
        assert!(!texting_user_agent_line(b"User-agentx: y"));
        assert!(!texting_user_agent_line(b"user-agent"));
        assert!(!texting_user_agent_line(b"Disallow: /"));
    }

    fn known(
        adapter: &str,
        body: &[u8],
        url: &str,
        theirs: Verdict,
    ) -> Option<String> {
        known_deviation(
            adapter,
            body,
            "FooBot",
            url,
            &Profile::google(),
            theirs,
        )
    }

    #[test]
    fn the_port_s_lone_percent_is_recognised_and_nothing_else() {
        // The campaign's finding (16:34): the port allows, Google's
        // parser disallows.
        let body = "User-agent: FooBot\nDisallow: /%ツ\n".as_bytes();
        let name = Some("lone-percent-swallows-two-octets");
        let port = |url, v| known("rust-robotstxt", body, url, v);
        assert_eq!(port("/%%E3%83%84", Verdict::Allowed).as_deref(), name);
        // What the port reads instead, `/%84`, it matches.
        assert_eq!(port("/%84", Verdict::Disallowed).as_deref(), name);
        assert_eq!(port("/", Verdict::Disallowed), None);
        let raw = "User-agent: FooBot\nDisallow: /%é\n".as_bytes();
        assert_eq!(
            known("rust-robotstxt", raw, "/%%C3%A9", Verdict::Allowed)
                .as_deref(),
            name
        );
        assert_eq!(
            known(
                "rust-texting_robots",
                body,
                "/%%E3%83%84",
                Verdict::Allowed
            ),
            None
        );
    }

    #[test]
    fn texting_s_kept_escape_case_is_recognised_and_nothing_else() {
        // The campaign's finding: texting_robots allows.
        let body = b"User-agent: *\ndisallow: /%e3%83%84\n";
        let url = "/%E3%83%84/a";
        assert_eq!(
            known("rust-texting_robots", body, url, Verdict::Allowed)
                .as_deref(),
            Some("escape-case-kept")
        );
        assert_eq!(known("rust-robotstxt", body, url, Verdict::Allowed), None);
        let upper = b"User-agent: *\ndisallow: /%E3%83%84\n";
        assert_eq!(
            known("rust-texting_robots", upper, url, Verdict::Allowed),
            None
        );
    }

    #[test]
    fn texting_s_whole_readings_free_the_switch_slots() {
        // The campaign's hunting stop (2026-12-01 20:58, artifact
        // crash-3eb08c46): texting_robots encodes the URL's `ツツ`, does
        // not read `Allowed *ツツツツツ` (an allow to Google, tying with
        // the disallow) and compares the rule's `%e3` with the URL's
        // `%e3`: three readings, one more than `classify` pairs.
        let body = "User agent :  foobot\nAllowed *ツツツツツ\nDISALLOW /%e3%83%84ツツツツ\n"
            .as_bytes();
        let url = "/%e3%83%84%E3%83%84%E3%83%84ツツ";
        // Since issue 25 the kept escape case is the oracle's switch
        // `uppercase_rule_hex=false`: the `key value` rewrite and a pair
        // of switches explain it, the whole readings are no longer needed.
        let texting =
            known("rust-texting_robots", body, url, Verdict::Disallowed);
        assert_eq!(texting.as_deref(), Some("key-space-value"));
        // Google's verdict needs no excuse, and another parser gets none.
        let google = RobotsTxt::parse(body, &Profile::google());
        assert_eq!(
            google.decide("FooBot", url).map(|d| d.verdict),
            Ok(Verdict::Allowed)
        );
        assert_eq!(
            known("rust-robotstxt", body, url, Verdict::Disallowed),
            None
        );
    }

    #[test]
    fn texting_s_dot_segment_removal_is_a_known_reading() {
        // The campaign's open stop (2026-12-01 23:00, artifact
        // crash-663711ab): texting_robots resolves an absolute URL's dot
        // segments, so `/.` and `/a/../` are `/`, which `/$` disallows.
        // Alone, the switch `dot_segments=absolute-urls` explains it
        // (`classify`); with two more readings, only the known readings
        // do.
        let body = b"User-agent: *\nDisallow: /$\n";
        for url in ["https://example.com/.", "https://example.com/a/../"] {
            let google = RobotsTxt::parse(body, &Profile::google());
            assert_eq!(
                google.decide("FooBot", url).map(|d| d.verdict),
                Ok(Verdict::Allowed)
            );
            let texting =
                known("rust-texting_robots", body, url, Verdict::Disallowed);
            assert!(
                texting.as_deref().is_some_and(|n| n
                    .split('+')
                    .any(|r| r == "url-dot-segments-removed")),
                "{url}: {texting:?}"
            );
            assert_eq!(
                known("rust-robotstxt", body, url, Verdict::Disallowed),
                None
            );
        }
    }

    #[test]
    fn a_rewritten_pattern_keeps_its_line_s_key_and_comment() {
        let body =
            b"\xEF\xBB\xBFUser-agent: *\nDISALLOW /a$b # c\nAllowed:\t/x$y\n";
        let got = rewrite_patterns(body, |v| {
            v.contains(&b'$').then(|| b"/z".to_vec())
        });
        assert_eq!(
            got.as_deref(),
            Some(
                &b"\xEF\xBB\xBFUser-agent: *\nDISALLOW /z # c\nAllowed:\t/z\n"
                    [..]
            )
        );
        assert_eq!(with_value(b"/a", b"/a", b"/z"), None); // no key before it
        assert_eq!(with_value(b"Allow: /b", b"/a", b"/z"), None);
    }

    #[test]
    fn a_rewrite_keeps_a_line_texting_does_not_read_out_of_its_rules() {
        // The campaign's hunting stop (2026-12-01 22:17, artifact
        // crash-afb110c7): texting_robots reads no `Allowed` line, so the
        // two user-agent lines are one group and `/$$$$` (an end anchor
        // to it) disallows `/`. Rewriting `Allowed: /index.html$$` as
        // `Allow: /index.html$` made it a rule (whose `/$` ties and wins);
        // keeping the key as written does not.
        let body = b"User-Agent:foobot\nAllowed /%index.htmlindex.htmlindex.htmlindex.html\nAllowed /index.htmlindex.htmlindex.html\nAllowed: /index.html$$\nUser-Agent: ExampleBot\nAllowed : /index.htmlindex.htmlindex.html\nALLOW:/*b_b%\nDisallow: /$$$$\n";
        let why = known("rust-texting_robots", body, "/", Verdict::Disallowed);
        assert!(
            why.as_deref()
                .is_some_and(|w| w.contains("dollar-anywhere-is-end-anchor")),
            "{why:?}"
        );
        assert_eq!(
            known("rust-robotstxt", body, "/", Verdict::Disallowed),
            None
        );
    }

    #[test]
    fn a_matcher_s_misses_count_in_groups_a_switch_brings_in() {
        // The campaign's hunting stop (2026-12-01 22:39, artifact
        // crash-bdb9f5b8): texting_robots also obeys the groups of
        // `Mozilla/5.0 (compatible; FooBot/1.0)`, and misses their
        // lowercase-escaped allows as it misses its own group's, so only
        // `Disallow: /` matches.
        let body = b"User agent :  Mozilla/5.0 (compatible; FooBot/1.0)\nUser-agent: *\nAllow:/%e3%83%84%e3%83%84\nDisallow:/\nUser agent :  FooBot/1.2\nAllow:/%e3%83%84%e3%83%84\n";
        let url = "/%E3%83%84%E3%83%84";
        let google = RobotsTxt::parse(body, &Profile::google());
        assert_eq!(
            google.decide("FooBot", url).map(|d| d.verdict),
            Ok(Verdict::Allowed)
        );
        let why = known("rust-texting_robots", body, url, Verdict::Disallowed);
        assert!(
            why.as_deref().is_some_and(|w| w.contains("escape-case-kept")),
            "{why:?}"
        );
        assert_eq!(
            known("rust-robotstxt", body, url, Verdict::Disallowed),
            None
        );
    }

    #[test]
    fn a_matcher_s_misses_count_for_rules_a_switch_makes_match() {
        // The campaign's hunting stop (2026-12-01 22:56, artifact
        // crash-9cbd982b): under google neither rule matches the URL's
        // lowercase escapes; upper-casing the URL (the switch standing
        // for texting_robots' literal lowercase match) makes both match,
        // but texting_robots misses the mixed-case allow.
        // Since issue 25 the kept escape case is also the oracle's switch
        // `uppercase_rule_hex=false`, so the `key value` rewrite and a
        // pair of switches explain it before the matcher is needed.
        let body = b"User-agent: *\nALLOW /*%E3%83%84%e3%83%84$\nDISALLOW /%e3%83%84%e3%83%84$\n";
        let url = "/%e3%83%84%e3%83%84";
        let why = known("rust-texting_robots", body, url, Verdict::Disallowed);
        assert_eq!(why.as_deref(), Some("key-space-value"));
        let port = known("rust-robotstxt", body, url, Verdict::Disallowed);
        assert_eq!(port, None);
    }
}
