//! The fit: a hill climb over the oracle's switches for the reading under
//! which the oracle agrees with a parser on the most checks.
//!
//! From a built-in reading (the parser's claimed profile first), every
//! single-switch move is tried; the one that raises agreement most is
//! kept (the first in switch order on a tie), and the climb repeats until
//! no move raises it. A move can only gain on the checks the current
//! reading gets wrong, so every move is first scored on those alone (its
//! gain, an upper bound of its net gain), and only the moves whose gain
//! could still win are scored on every check: the same move is kept as by
//! scoring every move on every check, at a fraction of the cost. Unless that explains every answer, the other
//! built-in reading is climbed from too, and the better end wins (more
//! agreement, then fewer changes, then the claimed start). The parser is never asked again: only the oracle is.

use robots_adapters::Reply;
use serde::Serialize;

use crate::answers::{
    Answers, Selection, agree, is_answer, oracle_replies, subset,
};
use crate::reading::{Move, Reading, moves};

/// The climbs start from these built-in readings.
const STARTS: [&str; 2] = ["rfc9309", "google"];

/// Moves kept in one climb at most (there are fewer fields than this, so
/// it only bounds a climb that could not end otherwise).
const MAX_STEPS: usize = 64;

/// A check the fitted reading does not explain.
#[derive(Clone, Debug, Serialize)]
pub struct Residual {
    /// The check's full name.
    pub check: String,
    /// What the parser answered.
    pub parser: String,
    /// What the oracle answers under the fitted reading.
    pub fitted: String,
}

/// The reading that best explains one parser.
#[derive(Clone, Debug, Serialize)]
pub struct Fit {
    /// The parser's adapter name.
    pub adapter: String,
    /// The profile the parser claims.
    pub claimed: String,
    /// The built-in reading the winning climb started from.
    pub base: String,
    /// The switches changed from `base`, as `field=value`.
    pub changes: Vec<&'static str>,
    /// Checks the parser answered (a verdict or a value).
    pub scored: usize,
    /// Of those, the ones the fitted reading agrees with.
    pub agree: usize,
    /// Of those, the ones the claimed profile agrees with.
    pub claimed_agree: usize,
    /// Checks the parser did not answer (error, crash, time-out,
    /// protocol error, not applicable).
    pub unanswered: usize,
    /// The scored checks the fitted reading does not explain.
    pub residual: Vec<Residual>,
    /// The fitted reading itself.
    #[serde(skip)]
    pub reading: Option<Reading>,
}

impl Fit {
    /// `NAME ≈ BASE + switch=value + …: agrees X% of scored checks
    /// (claimed profile Y%)`.
    pub fn line(&self) -> String {
        let mut reading = self.base.clone();
        for c in &self.changes {
            reading.push_str(" + ");
            reading.push_str(c);
        }
        format!(
            "{} ≈ {reading}: agrees {} of scored checks (claimed profile {})",
            self.adapter,
            percent(self.agree, self.scored),
            percent(self.claimed_agree, self.scored)
        )
    }
}

/// `n` of `of` as a percentage with one decimal (`100%` and `0%` exact).
pub fn percent(n: usize, of: usize) -> String {
    if of == 0 {
        return "n/a".into();
    }
    if n == of {
        return "100%".into();
    }
    let tenths = (n as u128 * 1000 / of as u128) as usize;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// The reading under which the oracle gives most of `answers`, searched
/// over `selection` (the checks the answers are to).
pub fn fingerprint(answers: &Answers, selection: &Selection) -> Fit {
    let claimed = answers.info.profile.clone();
    let mut starts: Vec<&str> = vec![claimed.as_str()];
    starts.extend(STARTS.iter().copied().filter(|s| *s != claimed));
    let all = moves();
    let mut best: Option<(String, Reading, usize, Vec<Move>)> = None;
    let mut claimed_agree = None;
    for start in starts {
        let Some(base) = Reading::built_in(start) else { continue };
        let mut here = base.clone();
        let mut here_replies = oracle_replies(&here, selection);
        let mut here_score = agreeing(answers, &here_replies);
        if start == claimed {
            claimed_agree = Some(here_score);
        }
        for _ in 0..MAX_STEPS {
            match best_move(answers, selection, &all, &here, &here_replies) {
                Some((next, replies)) => {
                    here_score = agreeing(answers, &replies);
                    here = next;
                    here_replies = replies;
                }
                None => break,
            }
        }
        let changes = here.changes_from(&base);
        let explains_all = here_score == answers.scored();
        let better = match &best {
            None => true,
            Some((_, _, s, c)) => {
                here_score > *s
                    || (here_score == *s && changes.len() < c.len())
            }
        };
        if better {
            best = Some((start.to_string(), here, here_score, changes));
        }
        if explains_all {
            // Nothing left to explain: another start could only tie.
            break;
        }
    }
    let scored = answers.scored();
    let Some((base, reading, agree_n, changes)) = best else {
        // No built-in reading of that name and none of the others:
        // unreachable with STARTS non-empty, reported as an empty fit.
        return Fit {
            adapter: answers.info.name.clone(),
            claimed,
            base: String::new(),
            changes: Vec::new(),
            scored,
            agree: 0,
            claimed_agree: 0,
            unanswered: answers.replies.len() - scored,
            residual: Vec::new(),
            reading: None,
        };
    };
    let residual = answers
        .replies
        .iter()
        .zip(oracle_replies(&reading, selection))
        .filter(|((_, p), o)| is_answer(p) && !agree(p, o))
        .map(|((check, p), o)| Residual {
            check: check.clone(),
            parser: describe(p),
            fitted: describe(&o),
        })
        .collect();
    Fit {
        adapter: answers.info.name.clone(),
        claimed_agree: claimed_agree.unwrap_or(0),
        claimed,
        base,
        changes: changes.iter().map(Move::name).collect(),
        scored,
        agree: agree_n,
        unanswered: answers.replies.len() - scored,
        residual,
        reading: Some(reading),
    }
}

/// The fit of a reading known already (a `fingerprint --json` file's
/// `base` and `changes`, rebuilt with [`Reading::from_names`]): the
/// counts and the residual of `answers` under it, without a climb.
pub fn evaluate(
    answers: &Answers,
    selection: &Selection,
    base: &str,
    reading: Reading,
) -> Fit {
    let claimed = answers.info.profile.clone();
    let claimed_agree = Reading::built_in(&claimed)
        .map_or(0, |r| agreeing(answers, &oracle_replies(&r, selection)));
    let replies = oracle_replies(&reading, selection);
    let scored = answers.scored();
    let changes = Reading::built_in(base)
        .map(|b| reading.changes_from(&b))
        .unwrap_or_default();
    let residual = answers
        .replies
        .iter()
        .zip(&replies)
        .filter(|((_, p), o)| is_answer(p) && !agree(p, o))
        .map(|((check, p), o)| Residual {
            check: check.clone(),
            parser: describe(p),
            fitted: describe(o),
        })
        .collect();
    Fit {
        adapter: answers.info.name.clone(),
        claimed,
        base: base.to_string(),
        changes: changes.iter().map(Move::name).collect(),
        scored,
        agree: agreeing(answers, &replies),
        claimed_agree,
        unanswered: answers.replies.len() - scored,
        residual,
        reading: Some(reading),
    }
}

/// How many of the parser's answers are among `oracle` (replies in
/// selection order).
fn agreeing(answers: &Answers, oracle: &[Reply]) -> usize {
    answers
        .replies
        .iter()
        .zip(oracle)
        .filter(|((_, p), o)| agree(p, o))
        .count()
}

/// The single move from `here` (whose replies are `here_replies`) that
/// raises agreement most, the first in `all`'s order on a tie, with its
/// replies; none when no move raises it.
fn best_move(
    answers: &Answers,
    selection: &Selection,
    all: &[Move],
    here: &Reading,
    here_replies: &[Reply],
) -> Option<(Reading, Vec<Reply>)> {
    let wrong: Vec<usize> = answers
        .replies
        .iter()
        .zip(here_replies)
        .enumerate()
        .filter(|(_, ((_, p), o))| is_answer(p) && !agree(p, o))
        .map(|(i, _)| i)
        .collect();
    if wrong.is_empty() {
        return None;
    }
    let wrong_sel = subset(selection, &wrong);
    let candidates: Vec<Reading> = all
        .iter()
        .filter(|m| m.changes(here))
        .map(|m| m.applied_to(here))
        .collect();
    // A move's gain on the checks `here` gets wrong bounds its net gain.
    let gains = in_parallel(&candidates, &|r: &Reading| {
        oracle_replies(r, &wrong_sel)
            .iter()
            .zip(&wrong)
            .filter(|(o, i)| agree(&answers.replies[**i].1, o))
            .count()
    });
    let here_score = agreeing(answers, here_replies);
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&c| std::cmp::Reverse(gains[c]));
    // (net gain, candidate, its replies)
    let mut won: Option<(usize, usize, Vec<Reply>)> = None;
    for c in order {
        let bound = gains[c];
        let beaten = match &won {
            None => bound == 0,
            Some((net, at, _)) => bound < *net || (bound == *net && c > *at),
        };
        if beaten {
            if won.as_ref().is_none_or(|(net, ..)| bound < *net) {
                break;
            }
            continue;
        }
        let replies = oracle_replies(&candidates[c], selection);
        let score = agreeing(answers, &replies);
        if score <= here_score {
            continue;
        }
        let net = score - here_score;
        let better = match &won {
            None => true,
            Some((n, at, _)) => net > *n || (net == *n && c < *at),
        };
        if better {
            won = Some((net, c, replies));
        }
    }
    won.map(|(_, c, replies)| (candidates[c].clone(), replies))
}

/// `score` of every reading, in order, on as many threads as the
/// machine has cores (at most one per reading). Each thread re-asks its
/// own oracle; the result does not depend on the thread count.
fn in_parallel(
    readings: &[Reading],
    score: &(impl Fn(&Reading) -> usize + Sync),
) -> Vec<usize> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(readings.len())
        .max(1);
    let chunk = readings.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = readings
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(score).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            // A scoring thread only panics if the oracle does, which it
            // must never do: re-raise it rather than guess a score.
            .flat_map(|h| {
                h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    })
}

/// A reply in a few words: the verdict, the value, or what went wrong.
fn describe(r: &Reply) -> String {
    match r {
        Reply::Verdict { verdict, .. } => verdict.as_str().to_string(),
        Reply::Value { value } => value.to_string(),
        other => other.word().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percentages_round_down_and_are_exact_at_the_ends() {
        assert_eq!(percent(0, 7), "0.0%");
        assert_eq!(percent(7, 7), "100%");
        assert_eq!(percent(2, 3), "66.6%");
        assert_eq!(percent(999, 1000), "99.9%");
        assert_eq!(percent(1, 0), "n/a");
    }
}
