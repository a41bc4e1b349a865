//! Delta debugging: shrink a check while a predicate keeps holding —
//! first whole lines of the body (after one try without repeated lines),
//! then its bytes, then the URL (Zeller's ddmin over each in turn).
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
    let mut one = |c: &[Vec<T>]| c.iter().map(|c| keeps(c)).collect();
    ddmin_by(items, budget, 1, &mut one)
}

/// Most candidates [`ddmin_batched`] judges together.
pub const MAX_BATCH: usize = 16;

/// [`ddmin`] with the next candidates judged together (`keeps_all` gets
/// up to [`MAX_BATCH`] and says, for each, whether it keeps): one round
/// trip to a parser instead of one per candidate. The batch starts at
/// one candidate and doubles after each batch where none keeps. Same
/// result and same budget use as [`ddmin`] with the same (deterministic)
/// predicate: candidates after the first that keeps were judged in
/// vain, and are not charged.
pub fn ddmin_batched<T: Clone>(
    items: Vec<T>,
    budget: &mut usize,
    keeps_all: &mut dyn FnMut(&[Vec<T>]) -> Vec<bool>,
) -> Vec<T> {
    ddmin_by(items, budget, MAX_BATCH, keeps_all)
}

/// The batch width: 1 after a candidate kept, doubled (up to `max`)
/// after a batch where none did.
struct Width {
    now: usize,
    max: usize,
}

impl Width {
    fn after(&mut self, kept: bool) {
        self.now = if kept { 1 } else { (self.now * 2).min(self.max) };
    }
}

/// The first candidate of `candidates` that keeps, charging `budget`
/// for the candidates up to it (all of them when none keeps). A judge
/// that answers nothing gives up: the whole budget is spent.
fn first_kept<T>(
    candidates: Vec<Vec<T>>,
    budget: &mut usize,
    keeps_all: &mut dyn FnMut(&[Vec<T>]) -> Vec<bool>,
) -> (usize, Option<Vec<T>>) {
    let verdicts = keeps_all(&candidates);
    if verdicts.is_empty() && !candidates.is_empty() {
        // The judge gives up (see `minimise_by`): the budget is spent.
        *budget = 0;
        return (candidates.len(), None);
    }
    let first = verdicts.iter().position(|&k| k);
    let charged = first.map_or(candidates.len(), |j| j + 1);
    *budget -= charged;
    let kept = first.and_then(|j| candidates.into_iter().nth(j));
    (charged, kept)
}

fn ddmin_by<T: Clone>(
    items: Vec<T>,
    budget: &mut usize,
    max: usize,
    keeps_all: &mut dyn FnMut(&[Vec<T>]) -> Vec<bool>,
) -> Vec<T> {
    let mut width = Width { now: 1, max };
    let mut current = items;
    let mut chunks = 2usize;
    while current.len() >= 2 && *budget > 0 {
        let size = current.len().div_ceil(chunks);
        let mut reduced = false;
        let mut start = 0;
        while start < current.len() && *budget > 0 {
            // The chunks from `start` on, as many as the width and the
            // budget allow, each dropped from `current`.
            let n = width.now.min(*budget);
            let candidates: Vec<Vec<T>> = (0..n)
                .map(|k| start + k * size)
                .take_while(|&a| a < current.len())
                .map(|a| {
                    let b = (a + size).min(current.len());
                    current[..a].iter().chain(&current[b..]).cloned().collect()
                })
                .collect();
            let (charged, kept) = first_kept(candidates, budget, keeps_all);
            width.after(kept.is_some());
            if let Some(c) = kept {
                current = c;
                chunks = (chunks - 1).max(2);
                reduced = true;
                break;
            }
            start += charged * size;
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
        let n = width.now.min(*budget).min(current.len() - i);
        let candidates: Vec<Vec<T>> = (i..i + n)
            .map(|r| {
                let mut c = current.clone();
                c.remove(r);
                c
            })
            .collect();
        let (charged, kept) = first_kept(candidates, budget, keeps_all);
        width.after(kept.is_some());
        match kept {
            // Those before it did not keep: the next to try is the
            // item that took the removed one's place.
            Some(c) => {
                current = c;
                i += charged - 1;
            }
            None => i += charged,
        }
    }
    current
}

/// Splits a body into lines as the oracle does (CR, LF, CRLF), each
/// keeping its line end.
pub fn lines(body: &[u8]) -> Vec<Vec<u8>> {
    line_spans(body).into_iter().map(|(s, e)| body[s..e].to_vec()).collect()
}

/// The (start, end) of each of [`lines`], line end included.
fn line_spans(body: &[u8]) -> Vec<(usize, usize)> {
    let starts: Vec<usize> = line_ranges(body).map(|r| r.start).collect();
    let ends = starts.iter().skip(1).copied().chain([body.len()]);
    starts.iter().copied().zip(ends).collect()
}

/// The octets of candidate bodies one minimisation's line pass asks
/// about at most: a body that cannot shrink
/// (a disagreement past the 500 KiB parse limit) would otherwise cost its
/// whole budget in half-megabyte bodies; one that can shrink needs a few
/// times its size (halves, then quarters, ...).
pub const MAX_ASKED_BYTES: usize = 8 * 1024 * 1024;

/// `ranges` (of `body`'s lines) without each line equal to the one
/// before it, when there is such a line.
fn without_repeats(
    body: &[u8],
    ranges: &[(usize, usize)],
) -> Option<Vec<(usize, usize)>> {
    let line = |&(a, b): &(usize, usize)| &body[a..b];
    let mut kept: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for r in ranges {
        if kept.last().is_none_or(|last| line(last) != line(r)) {
            kept.push(*r);
        }
    }
    (kept.len() < ranges.len()).then_some(kept)
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
    budget: usize,
    keeps: &mut dyn FnMut(&Subject) -> bool,
) -> Subject {
    let mut one = |c: &[Subject]| c.iter().map(&mut *keeps).collect();
    minimise_by(s, budget, 1, &mut one)
}

/// [`minimise`] with the next candidates judged together (see
/// [`ddmin_batched`]): `keeps_all` says, for each subject, whether it
/// keeps. Same result and budget use as [`minimise`] with the same
/// deterministic predicate, while the line pass stays under
/// [`MAX_ASKED_BYTES`] (a batch asks about candidates `minimise` would
/// not have, and they count).
pub fn minimise_batched(
    s: Subject,
    budget: usize,
    keeps_all: &mut dyn FnMut(&[Subject]) -> Vec<bool>,
) -> Subject {
    minimise_by(s, budget, MAX_BATCH, keeps_all)
}

fn minimise_by(
    s: Subject,
    mut budget: usize,
    max: usize,
    keeps_all: &mut dyn FnMut(&[Subject]) -> Vec<bool>,
) -> Subject {
    let mut s = s;
    // Lines are shrunk as ranges of the body (no copy of a line per
    // candidate).
    let ranges: Vec<(usize, usize)> = line_spans(&s.robots);
    let body = std::mem::take(&mut s.robots);
    let (agent, url) = (s.agent.clone(), s.url.clone());
    let with_body = |robots: Vec<u8>| Subject {
        robots,
        agent: agent.clone(),
        url: url.clone(),
    };
    let join = |rs: &[(usize, usize)]| -> Vec<u8> {
        let mut out = Vec::with_capacity(rs.iter().map(|(a, b)| b - a).sum());
        for &(a, b) in rs {
            out.extend_from_slice(&body[a..b]);
        }
        out
    };
    // The octets of the bodies asked about so far, against
    // `MAX_ASKED_BYTES`: past it, the judge gives up (and the line pass
    // ends; the byte pass, on a body of 2,000 octets at most, and the
    // URL pass go on with what is left of the budget).
    let mut asked = 0usize;
    let mut ask_lines = |cs: &[Vec<(usize, usize)>]| -> Vec<bool> {
        let bytes: usize =
            cs.iter().flatten().map(|(a, b)| b - a).sum::<usize>();
        if asked.saturating_add(bytes) > MAX_ASKED_BYTES {
            return Vec::new();
        }
        asked += bytes;
        let subjects: Vec<Subject> =
            cs.iter().map(|rs| with_body(join(rs))).collect();
        keeps_all(&subjects)
    };
    // First one candidate without repeated lines (a line equal to the
    // one before it): a long run of filler goes in one call.
    let ranges = match without_repeats(&body, &ranges) {
        Some(fewer) if budget > 0 => {
            budget -= 1;
            match ask_lines(std::slice::from_ref(&fewer))[..] {
                [true] => fewer,
                _ => ranges,
            }
        }
        _ => ranges,
    };
    let kept = ddmin_by(ranges, &mut budget, max, &mut ask_lines);
    s.robots = join(&kept);
    if s.robots.len() <= 2_000 {
        let bytes = s.robots.clone();
        s.robots = ddmin_by(bytes, &mut budget, max, &mut |cs| {
            let subjects: Vec<Subject> =
                cs.iter().map(|b| with_body(b.clone())).collect();
            keeps_all(&subjects)
        });
    }
    let url: Vec<char> = s.url.chars().collect();
    let url = ddmin_by(url, &mut budget, max, &mut |cs| {
        // Never `//x` (a network-path reference) or another non-case URL:
        // such candidates do not keep, and are not asked about.
        let subjects: Vec<Subject> = cs
            .iter()
            .map(|c| Subject { url: c.iter().collect(), ..s.clone() })
            .collect();
        let asked: Vec<usize> = (0..subjects.len())
            .filter(|&i| robots_runner::case::is_case_url(&subjects[i].url))
            .collect();
        let picked: Vec<Subject> =
            asked.iter().map(|&i| subjects[i].clone()).collect();
        let mut out = vec![false; subjects.len()];
        for (&i, k) in asked.iter().zip(keeps_all(&picked)) {
            out[i] = k;
        }
        out
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
    fn body_lines_then_bytes_then_url_are_shrunk() {
        let s = Subject {
            robots: b"User-agent: *\r\nAllow: /b\nDisallow: /a\rx\n".to_vec(),
            agent: "FooBot".into(),
            url: "/a/b/c".into(),
        };
        let mut calls = 0;
        let got = minimise(s, 1_000, &mut |s: &Subject| {
            calls += 1;
            let body = String::from_utf8_lossy(&s.robots);
            body.contains("Disallow: /a") && s.url.starts_with("/a")
        });
        assert_eq!(got.robots, b"Disallow: /a");
        assert_eq!(got.url, "/a");
        assert_eq!(got.agent, "FooBot");
        assert!(calls <= 1_000);
    }

    /// Batched and one-at-a-time ddmin agree on the result and on the
    /// budget used, whatever the budget, for predicates that need a
    /// few items, that need items in order, and that hold rarely.
    #[test]
    fn batched_ddmin_is_ddmin() {
        type Pred = fn(&[u32]) -> bool;
        let preds: [Pred; 4] = [
            |xs| xs.contains(&7) && xs.contains(&31),
            |xs| xs.iter().filter(|&&x| x % 3 == 0).count() >= 4,
            |xs| xs.windows(2).any(|w| w[1] == w[0] + 1) && xs.len() > 5,
            |xs| xs.iter().sum::<u32>() % 7 == 0 || xs.len() > 30,
        ];
        for pred in preds {
            for n in [1u32, 2, 9, 40] {
                let items: Vec<u32> = (0..n).collect();
                if !pred(&items) {
                    continue;
                }
                for budget in [0, 1, 3, 10, 37, 1_000] {
                    let (mut b1, mut b2) = (budget, budget);
                    let one = ddmin(items.clone(), &mut b1, &mut |x| pred(x));
                    let mut calls = 0;
                    let all =
                        ddmin_batched(items.clone(), &mut b2, &mut |cs| {
                            calls += 1;
                            assert!(cs.len() <= MAX_BATCH);
                            cs.iter().map(|c| pred(c)).collect()
                        });
                    assert_eq!(one, all, "n {n}, budget {budget}");
                    assert_eq!(b1, b2, "n {n}, budget {budget}");
                    assert!(calls <= budget - b2.min(budget), "{calls}");
                }
            }
        }
    }

    #[test]
    fn batched_minimise_is_minimise() {
        let s = Subject {
            robots: b"User-agent: *\r\nAllow: /b\nDisallow: /a\rx\n".to_vec(),
            agent: "FooBot".into(),
            url: "/a/b/c".into(),
        };
        let keeps = |s: &Subject| {
            let body = String::from_utf8_lossy(&s.robots);
            body.contains("llow: /") && s.url.contains('b')
        };
        for budget in [5, 40, 400] {
            let one = minimise(s.clone(), budget, &mut |s| keeps(s));
            let all = minimise_batched(s.clone(), budget, &mut |cs| {
                cs.iter().map(keeps).collect()
            });
            assert_eq!(one, all, "budget {budget}");
        }
    }

    /// 20,000 lines of filler around the two that matter: gone in the
    /// first call, and the rest minimised on a few lines.
    #[test]
    fn a_run_of_filler_goes_in_one_call() {
        let filler = b"# filler filler filler filler\n".repeat(10_000);
        let body =
            [&b"User-agent: *\n"[..], &filler, b"Disallow: /x\n", &filler]
                .concat();
        let s = Subject { robots: body, agent: "a".into(), url: "/x".into() };
        let (mut calls, mut bytes) = (0, 0);
        let small = minimise(s, 400, &mut |c| {
            calls += 1;
            bytes += c.robots.len();
            let t = String::from_utf8_lossy(&c.robots);
            t.contains("User-agent: *") && t.contains("Disallow: /x")
        });
        let t = String::from_utf8_lossy(&small.robots);
        assert!(t.len() <= 27, "{t:?}");
        // The first call had the whole body; the next ones a few lines.
        assert!(bytes < 600_000 + 50_000, "{calls} calls, {bytes} bytes");
    }

    /// A body that cannot shrink costs at most `MAX_ASKED_BYTES` of
    /// candidates, whatever the budget.
    #[test]
    fn a_body_that_cannot_shrink_costs_a_bounded_number_of_bytes() {
        let body: Vec<u8> = (0..5_000)
            .flat_map(|i| format!("Disallow: /{i}\n").into_bytes())
            .collect();
        let s = Subject { robots: body, agent: "a".into(), url: "/x".into() };
        let mut bytes = 0;
        let whole = s.robots.len();
        let same = minimise_batched(s, 100_000, &mut |cs| {
            bytes += cs.iter().map(|c| c.robots.len()).sum::<usize>();
            cs.iter().map(|c| c.robots.len() == whole).collect()
        });
        assert_eq!(same.robots.len(), whole);
        assert!(bytes <= MAX_ASKED_BYTES, "{bytes} bytes asked");
        assert!(bytes > MAX_ASKED_BYTES / 2, "{bytes} bytes asked");
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
