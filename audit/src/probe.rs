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
    let mut out = vec!["/".to_string()];
    let Some(body) = body else { return out };
    let robots = RobotsTxt::parse(body, &Profile::aipref());
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
    for (_, value) in paths {
        if out.len() >= max {
            break;
        }
        let literal = &value[..value
            .iter()
            .position(|b| *b == b'*' || *b == b'$')
            .unwrap_or(value.len())];
        if !literal.starts_with(b"/") || literal.len() > MAX_PROBE {
            continue;
        }
        let path = String::from_utf8_lossy(literal).into_owned();
        if !out.contains(&path) {
            out.push(path);
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
}
