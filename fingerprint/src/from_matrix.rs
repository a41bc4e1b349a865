//! Fits from a finished matrix: each adapter's answers are read back from
//! the run's own cells, so the parser is not asked again.
//!
//! A cell holds the reply as the matrix describes it (`allowed`,
//! `disallowed`, a JSON value, or a failure word); a verdict and a value
//! are all the fit compares, and both survive that description exactly.

use robots_adapters::{Info, Reply, Verdict};
use robots_runner::matrix::Matrix;

use crate::answers::{Answers, Selection};
use crate::fit::{Fit, fingerprint, percent};

/// The reply a matrix cell describes, as far as the fit needs it: the
/// verdict or the value; anything else as an error (not scored).
pub fn reply_of_cell(answer: &str) -> Reply {
    match answer {
        "allowed" => {
            Reply::Verdict { verdict: Verdict::Allowed, explanation: None }
        }
        "disallowed" => {
            Reply::Verdict { verdict: Verdict::Disallowed, explanation: None }
        }
        other => match serde_json::from_str::<serde_json::Value>(other) {
            Ok(value) => Reply::Value { value },
            Err(_) => Reply::Error { message: other.to_string() },
        },
    }
}

/// The answers of the adapter `info` in `m`, in the order of `selection`
/// (the selection the matrix ran); a check without a cell is an error.
pub fn answers_in(m: &Matrix, info: &Info, selection: &Selection) -> Answers {
    let rows: std::collections::HashMap<&str, &robots_runner::matrix::Row> =
        m.checks.iter().map(|r| (r.name.as_str(), r)).collect();
    let replies = selection
        .iter()
        .flat_map(|(_, checks)| checks.iter())
        .map(|check| {
            let reply = rows
                .get(check.name.as_str())
                .and_then(|row| row.results.get(&info.name))
                .map_or_else(
                    || Reply::Error { message: "not in the matrix".into() },
                    |cell| reply_of_cell(&cell.answer),
                );
            (check.name.clone(), reply)
        })
        .collect();
    Answers { info: info.clone(), replies }
}

/// `≈ BASE + switch=value + … (X%)`: the fit in a matrix cell.
pub fn label(fit: &Fit) -> String {
    let mut s = format!("≈ {}", fit.base);
    for c in &fit.changes {
        s.push_str(" + ");
        s.push_str(c);
    }
    s.push_str(&format!(" ({})", percent(fit.agree, fit.scored)));
    s
}

/// Fits every ready adapter of `m` from its own cells and stores the
/// label in its column; returns the fits, in column order.
pub fn fit_matrix(m: &mut Matrix, selection: &Selection) -> Vec<Fit> {
    let ready: Vec<(usize, Answers)> = (0..m.adapters.len())
        .filter(|&i| m.adapters[i].status == "ready")
        .map(|i| {
            let info = m.adapters[i].info.clone();
            (i, answers_in(m, &info, selection))
        })
        .collect();
    let fits = fit_all(&ready, selection);
    for ((i, _), fit) in ready.iter().zip(&fits) {
        m.adapters[*i].fingerprint = Some(label(fit));
    }
    fits
}

/// The fits of `ready`, in order: the adapters shared out over one thread
/// per core (each fit is independent of the others, and re-asks only the
/// oracle, so the result does not depend on the thread count).
fn fit_all(ready: &[(usize, Answers)], selection: &Selection) -> Vec<Fit> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, ready.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Fit)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(
                            1,
                            std::sync::atomic::Ordering::Relaxed,
                        );
                        let Some((_, answers)) = ready.get(k) else {
                            break;
                        };
                        mine.push((k, fingerprint(answers, selection)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            // A fit only panics if the oracle does; pass that on rather
            // than lose a fit.
            .flat_map(|w| {
                w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    });
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, fit)| fit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::agree;

    #[test]
    fn verdicts_and_values_survive_the_cell_and_failures_are_not_answers() {
        let v =
            Reply::Verdict { verdict: Verdict::Disallowed, explanation: None };
        let described = robots_runner::render::describe_reply(&v);
        assert!(agree(&reply_of_cell(&described), &v));
        let value = Reply::Value { value: serde_json::json!(["a", 1.5]) };
        let described = robots_runner::render::describe_reply(&value);
        assert!(agree(&reply_of_cell(&described), &value));
        let s = Reply::Value { value: serde_json::json!("allowed") };
        let described = robots_runner::render::describe_reply(&s);
        assert!(agree(&reply_of_cell(&described), &s));
        for failure in [Reply::TimedOut, Reply::Error { message: "x".into() }]
        {
            let described = robots_runner::render::describe_reply(&failure);
            assert!(!crate::answers::is_answer(&reply_of_cell(&described)));
        }
    }
}
