//! Delta debugging: shrink a check while a predicate keeps holding —
//! first whole lines of the body, then its bytes, then the URL (Zeller's
//! ddmin over each in turn).
//!
//! Generic over the predicate: it never knows what a verdict is, and
//! never exceeds its budget of predicate calls.

// The oracle's line splitter (after the adapter boundary is sealed:
// `robots_adapters::line_ranges`).
use robots_adapters::line_ranges;

/// Shrinks `items` to a smaller list for which `keeps` still holds
/// (`keeps(items)` must hold on entry). Classic ddmin: try dropping
/// chunks of decreasing size. At most `budget` predicate calls.
pub fn ddmin<T: Clone>(
    items: Vec<T>,
    budget: &mut usize,
    keeps: &mut dyn FnMut(&[T]) -> bool,
) -> Vec<T> {
    let mut current = items;
    let mut chunks = 2usize;
    while current.len() >= 2 && *budget > 0 {
        let size = current.len().div_ceil(chunks);
        let mut reduced = false;
        let mut start = 0;
        while start < current.len() && *budget > 0 {
            let end = (start + size).min(current.len());
            let candidate: Vec<T> = current[..start]
                .iter()
                .chain(&current[end..])
                .cloned()
                .collect();
            *budget -= 1;
            if keeps(&candidate) {
                current = candidate;
                chunks = (chunks - 1).max(2);
                reduced = true;
                break;
            }
            start = end;
        }
        if !reduced {
            if size == 1 {
                break;
            }
            chunks = (chunks * 2).min(current.len());
        }
    }
    // A last pass removing single items, if the budget allows.
    let mut i = 0;
    while i < current.len() && *budget > 0 && current.len() > 1 {
        let mut candidate = current.clone();
        candidate.remove(i);
        *budget -= 1;
        if keeps(&candidate) {
            current = candidate;
        } else {
            i += 1;
        }
    }
    current
}

/// Splits a body into lines as the oracle does (CR, LF, CRLF), each
/// keeping its line end.
pub fn lines(body: &[u8]) -> Vec<Vec<u8>> {
    let starts: Vec<usize> = line_ranges(body).map(|r| r.start).collect();
    let ends = starts.iter().skip(1).copied().chain([body.len()]);
    starts.iter().zip(ends).map(|(&s, e)| body[s..e].to_vec()).collect()
}

/// A check being minimised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// The body.
    pub robots: Vec<u8>,
    /// The agent.
    pub agent: String,
    /// The URL.
    pub url: String,
}

/// Minimises `s` while `keeps` holds, with at most `budget` calls.
pub fn minimise(
    s: Subject,
    mut budget: usize,
    keeps: &mut dyn FnMut(&Subject) -> bool,
) -> Subject {
    let mut s = s;
    let line_list = lines(&s.robots);
    let kept = ddmin(line_list, &mut budget, &mut |ls: &[Vec<u8>]| {
        keeps(&Subject { robots: ls.concat(), ..s.clone() })
    });
    s.robots = kept.concat();
    if s.robots.len() <= 2_000 {
        let bytes = s.robots.clone();
        s.robots = ddmin(bytes, &mut budget, &mut |b: &[u8]| {
            keeps(&Subject { robots: b.to_vec(), ..s.clone() })
        });
    }
    let url: Vec<char> = s.url.chars().collect();
    let url = ddmin(url, &mut budget, &mut |c: &[char]| {
        let url: String = c.iter().collect();
        // Never `//x` (a network-path reference) or another non-case URL.
        robots_runner::case::is_case_url(&url)
            && keeps(&Subject { url, ..s.clone() })
    });
    s.url = url.into_iter().collect();
    // The agent is left as generated: it is a short product token already,
    // and a minimised one (`t`) reads worse in a case than `FooBot`.
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_the_two_items_that_matter() {
        let items: Vec<u32> = (0..40).collect();
        let mut budget = 1_000;
        let got = ddmin(items, &mut budget, &mut |xs: &[u32]| {
            xs.contains(&7) && xs.contains(&31)
        });
        assert_eq!(got, [7, 31]);
    }

    #[test]
    fn a_minimised_url_stays_a_case_url() {
        let s = Subject {
            robots: b"x".to_vec(),
            agent: "a".into(),
            url: "/a/b".into(),
        };
        // Keeps while the URL has two slashes: left alone, ddmin would
        // shrink it to `//`, which is not a case URL.
        let got = minimise(s, 1_000, &mut |s: &Subject| {
            s.url.matches('/').count() >= 2
        });
        assert_eq!(got.url, "/a/");
    }

    #[test]
    fn lines_keep_their_ends() {
        assert_eq!(
            lines(b"a\r\nb\rc\nd"),
            [
                b"a\r\n".to_vec(),
                b"b\r".to_vec(),
                b"c\n".to_vec(),
                b"d".to_vec()
            ]
        );
        assert_eq!(
            lines(b"\n\r\n\r"),
            [b"\n".to_vec(), b"\r\n".to_vec(), b"\r".to_vec()]
        );
        assert!(lines(b"").is_empty());
    }
}
