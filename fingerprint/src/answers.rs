//! The parser's answers, asked once, and how many of them the oracle
//! gives back under a reading.
//!
//! Answers are compared with answers (verdict with verdict, value with
//! value), never with a case's expectation: a check whose expectation is
//! implementation-defined still tells which reading a parser follows.

use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Info, Reply};
use robots_runner::case::{Case, Check};
use robots_runner::run::run_cases;

use crate::reading::Reading;

/// The checks asked, in order: a case and the checks of it selected.
pub type Selection<'a> = Vec<(&'a Case, Vec<&'a Check>)>;

/// What one parser answered to every selected check.
#[derive(Clone, Debug)]
pub struct Answers {
    /// The parser.
    pub info: Info,
    /// Each check's full name and the parser's reply, in selection order.
    pub replies: Vec<(String, Reply)>,
}

impl Answers {
    /// Asks `parser` every check of `selection`, once.
    pub fn collect(
        parser: &mut dyn Adapter,
        selection: &Selection,
    ) -> Answers {
        let info = parser.info();
        let results = run_cases(
            parser,
            &info.profile,
            selection.iter().map(|(c, k)| (*c, k.clone())),
        );
        Answers {
            info,
            replies: results.into_iter().map(|r| (r.check, r.reply)).collect(),
        }
    }

    /// The checks the parser gave an answer to (a verdict or a value):
    /// the ones a reading can agree with. Errors, crashes, time-outs and
    /// checks it cannot express are not scored.
    pub fn scored(&self) -> usize {
        self.replies.iter().filter(|(_, r)| is_answer(r)).count()
    }
}

/// Whether a reply is an answer (a verdict or a value).
pub fn is_answer(r: &Reply) -> bool {
    matches!(r, Reply::Verdict { .. } | Reply::Value { .. })
}

/// Whether the parser's reply and the oracle's are the same answer:
/// the same verdict, or the same value. Explanations are not compared
/// (parsers rarely give one).
pub fn agree(parser: &Reply, oracle: &Reply) -> bool {
    match (parser, oracle) {
        (
            Reply::Verdict { verdict: a, .. },
            Reply::Verdict { verdict: b, .. },
        ) => a == b,
        (Reply::Value { value: a }, Reply::Value { value: b }) => a == b,
        _ => false,
    }
}

/// The oracle's replies under `reading`, in selection order.
pub fn oracle_replies(reading: &Reading, selection: &Selection) -> Vec<Reply> {
    let mut oracle = Reference::with_fetch_profile(
        reading.profile.clone(),
        reading.fetch.clone(),
    );
    let profile = oracle.info().profile;
    run_cases(
        &mut oracle,
        &profile,
        selection.iter().map(|(c, k)| (*c, k.clone())),
    )
    .into_iter()
    .map(|r| r.reply)
    .collect()
}

/// The part of `selection` at the flat check positions `at` (increasing),
/// in the same order.
pub fn subset<'a>(selection: &Selection<'a>, at: &[usize]) -> Selection<'a> {
    let mut out: Selection<'a> = Vec::new();
    let mut next = at.iter().copied().peekable();
    let mut flat = 0;
    for (case, checks) in selection {
        let mut kept = Vec::new();
        for check in checks {
            if next.peek() == Some(&flat) {
                kept.push(*check);
                next.next();
            }
            flat += 1;
        }
        if !kept.is_empty() {
            out.push((*case, kept));
        }
    }
    out
}

/// How many of the parser's answers the oracle gives under `reading`.
pub fn agreements(
    answers: &Answers,
    reading: &Reading,
    selection: &Selection,
) -> usize {
    answers
        .replies
        .iter()
        .zip(oracle_replies(reading, selection))
        .filter(|((_, p), o)| agree(p, o))
        .count()
}
