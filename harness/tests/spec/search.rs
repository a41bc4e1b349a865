//! The switch-space search, asked on every case's check: `classify` (what
//! `fingerprint`, `lint`, `bugs` and the differential fuzzer use to name
//! the reading a parser follows) must name the switch the plain reading
//! names — the body parsed afresh under each toggled profile and decided
//! by the plain reading (`decide_linear`: no index, no early exit).
//!
//! The search keeps one parse per parse-relevant profile, lexes through
//! `KeptLines`, settles switches that cannot act on a body (`Facts`) and
//! shares parses by `Profile::parsing`; none of that is on the path of
//! the two built-in profiles' answers, so without this the cases would
//! never reach it. Asked here: the verdict the base profile does not give
//! (what a disagreeing parser answers). When some single switch gives it,
//! the search must return exactly the first one, in `switches()` order;
//! when none does, it must return a pair that gives it (checked by a fresh
//! parse) or nothing. Pairs are not enumerated here (they are in
//! `robots-gen`'s `classify_reference` test): that would cost a parse per
//! pair on every check.
//!
//! The candidates are found without `Switch::changes` (a profile toggled
//! differs from its base), so a wrong `changes` is seen too.

use robots_oracle::{
    Classification, Profile, RobotsTxt, Switch, classify, switches,
};

fn names(s: &[&Switch]) -> Vec<&'static str> {
    s.iter().map(|s| s.name).collect()
}

/// Bodies longer than this are left out: the plain reading parses the
/// body once per switch, and the few long bodies (the limits cases) are
/// about the parse limit, which the search's `settle` tests hold.
const MAX_BODY: usize = 8 * 1024;

/// Where `classify` names another reading than the plain one, for the
/// check (`agent`, `url`) on `body` under `base`; `None` when they agree,
/// the URL is not one the base reads, or the body is over [`MAX_BODY`].
pub fn search_differs(
    body: &[u8],
    agent: &str,
    url: &str,
    base: &Profile,
) -> Option<String> {
    if body.len() > MAX_BODY {
        return None;
    }
    let verdict = |p: &Profile| {
        RobotsTxt::parse(body, p)
            .decide_linear(agent, url)
            .ok()
            .map(|d| d.verdict)
    };
    let theirs = !verdict(base)?;
    let got = classify(body, agent, url, base, theirs);
    let first = switches()
        .iter()
        .filter(|s| s.applied_to(base) != *base)
        .find(|s| verdict(&s.applied_to(base)) == Some(theirs));
    let fine = match (&got, first) {
        (Classification::Switches(s), Some(want)) => {
            s.len() == 1 && s[0].name == want.name
        }
        (_, Some(_)) => false,
        (Classification::Switches(s), None) => match s.as_slice() {
            [a, b] => {
                verdict(&b.applied_to(&a.applied_to(base))) == Some(theirs)
            }
            _ => false,
        },
        (Classification::Unexplained, None) => true,
    };
    (!fine).then(|| {
        let got = match &got {
            Classification::Switches(s) => format!("{:?}", names(s)),
            Classification::Unexplained => "unexplained".into(),
        };
        let want = first.map_or("no single switch", |s| s.name);
        format!(
            "the switch-space search ({}) explains {theirs} by {got}; \
             the plain reading by {want}",
            base.name
        )
    })
}
