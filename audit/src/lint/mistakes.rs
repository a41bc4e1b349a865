//! What every reading agrees is a mistake in a robots.txt file, found
//! without asking any parser: a rule or record before any user-agent
//! line, a path that does not start with `/`, a line without a colon, an
//! unknown directive one or two letters away from a known one, a file
//! over 500 KiB (and what is cut), an HTML page served as robots.txt.
//! The lines come from the oracle's own parse (its diagnostics under
//! RFC 9309), so line numbers are the oracle's; this module never
//! decides a verdict.

use robots_oracle::{
    DiagnosticKind, FIVE_HUNDRED_KIB, Profile, RobotsTxt, line_ranges,
};

use super::report::Mistake;
use super::text::Text;

/// Directives some crawler reads, lowercase: an unknown key close to one
/// of these is flagged as a typo.
const KNOWN: [&str; 11] = [
    "user-agent",
    "allow",
    "disallow",
    "sitemap",
    "crawl-delay",
    "content-usage",
    "content-signal",
    "host",
    "clean-param",
    "request-rate",
    "visit-time",
];

/// Mistakes of one kind reported at most (the rest are counted in the
/// last one's message).
const MAX_PER_KIND: usize = 20;

/// The edit distance between `a` and `b` (insertions, deletions,
/// substitutions, and swaps of two neighbours), or `None` past 2.
fn distance(a: &[u8], b: &[u8]) -> Option<usize> {
    if a.len().abs_diff(b.len()) > 2 {
        return None;
    }
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    Some(d[n][m]).filter(|d| *d <= 2)
}

/// The known directive `key` looks like a typo of, if any.
pub(super) fn typo_of(key: &str) -> Option<&'static str> {
    let key = key.to_ascii_lowercase();
    if key.len() < 4 || KNOWN.contains(&key.as_str()) {
        return None;
    }
    KNOWN
        .iter()
        .filter_map(|k| Some((distance(key.as_bytes(), k.as_bytes())?, *k)))
        .min()
        .map(|(_, k)| k)
}

/// Whether `body` looks like an HTML page: its first non-blank octets
/// (after a BOM) open a doctype, `<html`, `<head` or `<body`, or it
/// holds an `<html` tag in its first KiB.
fn is_html(body: &[u8]) -> bool {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let head: Vec<u8> =
        body.iter().take(1024).map(u8::to_ascii_lowercase).collect();
    let start = head.iter().position(|b| !b.is_ascii_whitespace());
    let trimmed = &head[start.unwrap_or(head.len())..];
    [&b"<!doctype html"[..], b"<html", b"<head", b"<body", b"<?xml"]
        .iter()
        .any(|p| trimmed.starts_with(p))
        || head.windows(5).any(|w| w == b"<html")
}

/// The mistakes in `body`.
pub fn find(body: &[u8], text: &Text) -> Vec<Mistake> {
    let mut out: Vec<Mistake> = Vec::new();
    if is_html(body) {
        out.push(Mistake {
            kind: "html".into(),
            line: None,
            message: "this is an HTML page, not a robots.txt file: crawlers read its lines as unknown and find no rules (or stray ones)".into(),
            fix: "serve a plain-text robots.txt (Content-Type: text/plain) at /robots.txt; check the server does not answer it with an error or home page".into(),
        });
    }
    if body.len() > FIVE_HUNDRED_KIB {
        out.push(over_limit(body, text));
    }
    if !out.is_empty() && out[0].kind == "html" {
        // Its lines are markup: one mistake says it all.
        return out;
    }
    let robots = RobotsTxt::parse(body, &Profile::rfc9309());
    let mut per_kind: std::collections::BTreeMap<&str, usize> =
        Default::default();
    for d in robots.diagnostics() {
        let line = Some(d.line);
        let quoted = text.quote(d.line);
        let m = match &d.kind {
            DiagnosticKind::RuleOutsideGroup => Mistake {
                kind: "rule-before-user-agent".into(),
                line,
                message: format!("`{quoted}` comes before any user-agent line: RFC 9309 readers ignore it, others apply it to every crawler"),
                fix: "move it under the user-agent line of the crawlers it is for (`User-agent: *` for all)".into(),
            },
            DiagnosticKind::RecordOutsideGroup => Mistake {
                kind: "record-before-user-agent".into(),
                line,
                message: format!("`{quoted}` comes before any user-agent line: it belongs to no group"),
                fix: "move it under the user-agent line of the crawlers it is for".into(),
            },
            DiagnosticKind::InvalidPattern => {
                let value = quoted
                    .split_once(':')
                    .map(|(_, v)| v.trim())
                    .unwrap_or_default();
                let key = quoted.split_once(':').map(|(k, _)| k.trim()).unwrap_or("Disallow");
                Mistake {
                    kind: "path-without-slash".into(),
                    line,
                    message: format!("`{quoted}`: the path does not start with `/`; RFC 9309 readers ignore the rule"),
                    fix: format!("write `{key}: /{value}`"),
                }
            }
            DiagnosticKind::MissingColon => Mistake {
                kind: "no-colon".into(),
                line,
                message: format!("`{quoted}` has no colon: most readers ignore the line"),
                fix: "write `Key: value`".into(),
            },
            _ => continue,
        };
        let n = per_kind.entry(kind_key(&m.kind)).or_default();
        *n += 1;
        if *n <= MAX_PER_KIND {
            out.push(m);
        }
    }
    let records = robots
        .records()
        .iter()
        .chain(robots.groups().iter().flat_map(|g| &g.records));
    let mut typos: Vec<Mistake> = records
        .filter_map(|r| {
            let known = typo_of(&r.key)?;
            Some(Mistake {
                kind: "typo".into(),
                line: Some(r.line),
                message: format!("unknown directive `{}`: a typo of `{known}`? Strict readers ignore the line; lenient ones read it as `{known}`", r.key),
                fix: format!("spell it `{}`", spelled(known)),
            })
        })
        .collect();
    typos.sort_by_key(|m| m.line);
    let n = typos.len();
    typos.truncate(MAX_PER_KIND);
    out.extend(typos);
    per_kind.insert("typo", n);
    for (kind, n) in per_kind {
        if n > MAX_PER_KIND
            && let Some(last) = out.iter_mut().rev().find(|m| m.kind == kind)
        {
            last.message.push_str(&format!(
                " (and {} more lines like it)",
                n - MAX_PER_KIND
            ));
        }
    }
    out
}

fn kind_key(kind: &str) -> &'static str {
    [
        "rule-before-user-agent",
        "record-before-user-agent",
        "path-without-slash",
        "no-colon",
        "typo",
    ]
    .into_iter()
    .find(|k| *k == kind)
    .unwrap_or("other")
}

/// A known directive as usually written (`crawl-delay` → `Crawl-delay`).
fn spelled(known: &str) -> String {
    let mut c = known.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// The mistake of a file over 500 KiB: where a reader that stops there
/// cuts, and how many lines (and rules) it loses.
fn over_limit(body: &[u8], text: &Text) -> Mistake {
    let cut = FIVE_HUNDRED_KIB;
    let mut first_cut = None;
    let mut lost = 0usize;
    let mut rules_lost = 0usize;
    for (i, r) in line_ranges(body).enumerate() {
        if r.end > cut {
            first_cut.get_or_insert(i as u32 + 1);
            lost += 1;
            let line = body[r].to_ascii_lowercase();
            let line = line.trim_ascii_start();
            if line.starts_with(b"allow") || line.starts_with(b"disallow") {
                rules_lost += 1;
            }
        }
    }
    let line = first_cut.unwrap_or(1);
    Mistake {
        kind: "over-500-kib".into(),
        line: Some(line),
        message: format!(
            "{} bytes, over 500 KiB ({cut} bytes): readers may stop there, cutting line {line} (`{}`) and the {} after it ({} allow/disallow lines lost)",
            body.len(),
            text.quote(line),
            lost.saturating_sub(1),
            rules_lost,
        ),
        fix: "keep the file under 500 KiB: merge rules with a common prefix, drop rules for paths that no longer exist, put the rules that matter first".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_close_to_one_known_key() {
        assert_eq!(typo_of("Dissallow"), Some("disallow"));
        assert_eq!(typo_of("useragent"), Some("user-agent"));
        assert_eq!(typo_of("Crawl-dealy"), Some("crawl-delay"));
        assert_eq!(typo_of("Disallow"), None);
        assert_eq!(typo_of("Noindex"), None);
        assert_eq!(typo_of("foo"), None);
    }

    #[test]
    fn html_is_seen_at_the_start_or_as_a_tag() {
        assert!(is_html(b"\n  <!DOCTYPE html><html>"));
        assert!(is_html(b"<HTML><body>robots</body>"));
        assert!(!is_html(b"User-agent: *\nDisallow: /<html\n"[..12].as_ref()));
        assert!(!is_html(b"User-agent: *\nDisallow: /\n"));
    }

    #[test]
    fn a_file_over_the_limit_says_where_it_is_cut() {
        let mut body = b"User-agent: *\n".to_vec();
        while body.len() <= FIVE_HUNDRED_KIB + 100 {
            body.extend_from_slice(b"Disallow: /some/long/path/0123456789\n");
        }
        let text = Text::new(&body);
        let m = find(&body, &text);
        let over = m.iter().find(|m| m.kind == "over-500-kib").unwrap();
        let line = over.line.unwrap() as usize;
        // The line cut is the one that crosses the limit.
        let ranges: Vec<_> = line_ranges(&body).collect();
        assert!(ranges[line - 1].end > FIVE_HUNDRED_KIB);
        assert!(ranges[line - 2].end <= FIVE_HUNDRED_KIB);
        assert!(over.message.contains("allow/disallow lines lost"));
    }
}
