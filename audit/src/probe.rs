//! The URLs an audit asks about for one file: `/`, then the paths its
//! own allow and disallow rules name (the pattern up to its first `*` or
//! `$`, in file order, deduplicated), up to a cap. Rules are read with
//! the oracle's rfc9309 parse, so every parser is asked the same URLs.

use robots_oracle::{Profile, RobotsTxt};

/// Longest probe path kept, in bytes.
const MAX_PROBE: usize = 256;

/// The probes for `body` (`None`: no file to read rules from), at most
/// `max` of them (at least `/`).
pub fn probes(body: Option<&[u8]>, max: usize) -> Vec<String> {
    let mut out = vec!["/".to_string()];
    let Some(body) = body else { return out };
    let robots = RobotsTxt::parse(body, &Profile::rfc9309());
    for group in robots.groups() {
        for rule in &group.rules {
            if out.len() >= max {
                return out;
            }
            let value: &[u8] = &rule.value;
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
}
