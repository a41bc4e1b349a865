//! Synthetic AI preference lines for `audit make-warc --ai-lines N`: the
//! shared corpus predates Content-Usage and most Content-Signal lines,
//! so an archive made from it can carry them, deterministically, to
//! exercise the audit's AI aggregates (and the Spark job's twin) on real
//! files. Every `N`-th 200 response (in corpus order) gets one of
//! [`TEMPLATES`] appended, in turn. Only ever used to *make* inputs:
//! never applied to the input of an audit.

/// What is appended, in turn. Each starts with blank lines, so it never
/// continues a line of the file.
pub const TEMPLATES: [&str; 4] = [
    // Cloudflare's managed style: a signal in a `*` group with no rule
    // (merged with the file's own `*` groups, it changes no verdict).
    "\n\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\n",
    // The grouping change of draft-ietf-aipref-attach-05: one group
    // (GPTBot and CCBot disallowed) for a 2022 reader, two for aipref.
    "\n\nUser-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: CCBot\nDisallow: /\n",
    // Content-Usage for everyone, with a path (a probe) of its own.
    "\n\nUser-agent: *\nContent-Usage: train-ai=y, search=y\nContent-Usage: /private/ train-ai=n\n",
    // Training offered to a crawler that is blocked, and the misspelling.
    "\n\nUser-agent: ClaudeBot\nContent-Signal: ai-train=yes\nContent-Signals: ai-train=yes\nDisallow: /\n",
];

/// The body of the `n`-th 200 response (0-based) with lines added when
/// `every` > 0 picks it: `None` when it is left as it is.
pub fn add(body: &[u8], n: usize, every: usize) -> Option<Vec<u8>> {
    if every == 0 || !n.is_multiple_of(every) {
        return None;
    }
    let template = TEMPLATES[(n / every) % TEMPLATES.len()];
    let mut out = Vec::with_capacity(body.len() + template.len());
    out.extend_from_slice(body);
    out.extend_from_slice(template.as_bytes());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_nth_file_gets_the_templates_in_turn() {
        let picked: Vec<Option<usize>> = (0..9)
            .map(|n| {
                add(b"x", n, 2).map(|b| {
                    TEMPLATES
                        .iter()
                        .position(|t| b[1..] == *t.as_bytes())
                        .unwrap()
                })
            })
            .collect();
        assert_eq!(
            picked,
            [
                Some(0),
                None,
                Some(1),
                None,
                Some(2),
                None,
                Some(3),
                None,
                Some(0)
            ]
        );
        assert_eq!(add(b"x", 0, 0), None);
    }
}
