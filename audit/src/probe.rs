//! The URLs an audit asks about for one file: `/`, then the paths its
//! own allow, disallow and Content-Usage rules name (the pattern up to
//! its first `*` or `$`, in file order, deduplicated), up to a cap. Rules
//! are read with the oracle's aipref parse (rfc9309's Allow and Disallow
//! lines, plus the Content-Usage rules of draft-ietf-aipref-attach-05,
//! which a 2022 reader does not see as rules), so every parser is asked
//! the same URLs. Never decides anything about them.

use robots_oracle::{Profile, RobotsTxt};

/// Longest probe path kept, in bytes.
const MAX_PROBE: usize = 256;

/// The probes for `body` (`None`: no file to read rules from), at most
/// `max` of them (at least `/`).
pub fn probes(body: Option<&[u8]>, max: usize) -> Vec<String> {
    drawn(body, max, false)
}

/// [`probes`], and after each rule's literal path a URL its pattern
/// matches: every `*` matching nothing and a final `$` dropped (`/a/*.pdf$`
/// gives `/a/` and `/a/.pdf`); a `$` inside the pattern is kept as
/// written, the octet parsers read differently. For `lint`, which looks
/// for URLs on which readings part.
pub fn matching(body: &[u8], max: usize) -> Vec<String> {
    drawn(Some(body), max, true)
}

/// The rule values of `body` (allow, disallow, Content-Usage paths), in
/// file order.
fn rule_values(robots: &RobotsTxt) -> Vec<&[u8]> {
    let mut paths: Vec<(u32, &[u8])> = Vec::new();
    for group in robots.groups() {
        paths.extend(group.rules.iter().map(|r| (r.line, &r.value[..])));
        paths.extend(
            group
                .usage
                .iter()
                .filter_map(|u| Some((u.line, &u.path.as_ref()?[..]))),
        );
    }
    paths.sort_by_key(|(line, _)| *line);
    paths.into_iter().map(|(_, v)| v).collect()
}

fn drawn(body: Option<&[u8]>, max: usize, fill: bool) -> Vec<String> {
    let mut out = vec!["/".to_string()];
    let Some(body) = body else { return out };
    let robots = RobotsTxt::parse(body, &Profile::aipref());
    let push = |path: &[u8], out: &mut Vec<String>| {
        if out.len() >= max
            || !path.starts_with(b"/")
            || path.len() > MAX_PROBE
        {
            return;
        }
        let path = String::from_utf8_lossy(path).into_owned();
        if !out.contains(&path) {
            out.push(path);
        }
    };
    for value in rule_values(&robots) {
        let literal = &value[..value
            .iter()
            .position(|b| *b == b'*' || *b == b'$')
            .unwrap_or(value.len())];
        push(literal, &mut out);
        if fill {
            let value = value.strip_suffix(b"$").unwrap_or(value);
            let filled: Vec<u8> =
                value.iter().copied().filter(|b| *b != b'*').collect();
            push(&filled, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_then_rule_paths_in_file_order() {
        let body = b"User-agent: *\nDisallow: /private/*.pdf\nAllow: /\nDisallow: *.gif$\n\nUser-agent: GPTBot\nDisallow: /a$\nDisallow: /private/\n";
        assert_eq!(probes(Some(body), 8), ["/", "/private/", "/a"]);
        assert_eq!(probes(Some(body), 2), ["/", "/private/"]);
        assert_eq!(probes(None, 8), ["/"]);
    }

    #[test]
    fn content_usage_paths_are_probes_in_file_order() {
        let body = b"User-agent: *\nContent-Usage: train-ai=n\nDisallow: /b\n\
            Content-Usage: /ai-ok/*.html train-ai=y\nAllow: /c\n\
            Content-Usage: /b search=n\n";
        assert_eq!(probes(Some(body), 8), ["/", "/b", "/ai-ok/", "/c"]);
        assert_eq!(probes(Some(body), 3), ["/", "/b", "/ai-ok/"]);
    }

    #[test]
    fn matching_adds_a_url_each_pattern_matches() {
        let body = b"User-agent: *\nDisallow: /private/*.pdf$\nAllow: /a$b\nDisallow: /x\n";
        assert_eq!(
            matching(body, 8),
            ["/", "/private/", "/private/.pdf", "/a", "/a$b", "/x"]
        );
        assert_eq!(matching(body, 3), ["/", "/private/", "/private/.pdf"]);
    }
}
