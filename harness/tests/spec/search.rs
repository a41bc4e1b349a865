//! The switch-space search, asked on every case's check: `classify` (what
//! `fingerprint`, `lint`, `bugs` and the differential fuzzer use to name
//! the reading a parser follows) must name the switches the plain reading
//! names — the body parsed afresh under each toggled profile and decided
//! by the plain reading (`decide_linear`: no index, no early exit).
//!
//! The search keeps one parse per parse-relevant profile, lexes through
//! `KeptLines`, settles switches that cannot act on a body (`Facts`),
//! shares parses by `Profile::parsing` and skips the pairs that decide
//! like a single; none of that is on the path of the two built-in
//! profiles' answers, so without this the cases would never reach it.
//! Asked here: the verdict the base profile does not give (what a
//! disagreeing parser answers). When some single switch gives it, the
//! search must return exactly the first one, in `switches()` order. When
//! none does, on a short body ([`MAX_PAIR_BODY`]) and one check in
//! [`PAIR_SAMPLE`], it must return exactly the first pair that gives it,
//! in the same order (a pair whose profile is one of its singles' is not
//! asked: that single did not explain); elsewhere, a pair that gives it
//! (checked by a fresh parse) or nothing, as enumerating every pair costs
//! a parse per pair.
//! What the classification says of itself (`name`, `axis`, `clauses`) is
//! held to its switches.
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
/// body once per switch, and the few longer bodies (the limits cases of
/// 500 KiB) are about the parse limit, which the search's `settle` tests
/// hold. Google's line cut (16,663 octets) is within it, so the search's
/// settling of `max_line_bytes` is asked.
const MAX_BODY: usize = 64 * 1024;

/// URLs longer than this are left out: the plain reading matches each
/// long pattern against each (octets of the URL times the pattern's),
/// once per switch; the long-URL cases are about the matcher, which the
/// fast paths' judge holds to the plain reading.
const MAX_URL: usize = 4 * 1024;

/// Bodies up to this long have every pair asked when no single explains,
/// on one check in [`PAIR_SAMPLE`].
const MAX_PAIR_BODY: usize = 1024;

/// Asking every pair costs a fresh parse per pair (about a thousand), so
/// the pairs are asked on the checks whose body and URL hash to 0 modulo
/// this (FNV-1a: the same checks on every run).
const PAIR_SAMPLE: u64 = 8;

/// Whether this check is one of those whose pairs are all asked.
fn pairs_sampled(body: &[u8], url: &str) -> bool {
    let fnv = body
        .iter()
        .chain([0xff].iter())
        .chain(url.as_bytes())
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    fnv % PAIR_SAMPLE == 0
}

/// Where `classify` names another reading than the plain one, for the
/// check (`agent`, `url`) on `body` under `base`; `None` when they agree,
/// the URL is not one the base reads, or the body is over [`MAX_BODY`]
/// or the URL over [`MAX_URL`].
pub fn search_differs(
    body: &[u8],
    agent: &str,
    url: &str,
    base: &Profile,
) -> Option<String> {
    if body.len() > MAX_BODY || url.len() > MAX_URL {
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
    let candidates: Vec<&'static Switch> =
        switches().iter().filter(|s| s.applied_to(base) != *base).collect();
    let first = candidates
        .iter()
        .find(|s| verdict(&s.applied_to(base)) == Some(theirs));
    let first_pair = || {
        candidates.iter().enumerate().find_map(|(i, a)| {
            let pa = a.applied_to(base);
            candidates[i + 1..].iter().find_map(|b| {
                let p = b.applied_to(&pa);
                let like_a_single = p == pa || p == b.applied_to(base);
                (!like_a_single && verdict(&p) == Some(theirs))
                    .then_some([a.name, b.name])
            })
        })
    };
    let fine = match (&got, first) {
        (Classification::Switches(s), Some(want)) => {
            s.len() == 1 && s[0].name == want.name
        }
        (_, Some(_)) => false,
        (got, None)
            if body.len() <= MAX_PAIR_BODY && pairs_sampled(body, url) =>
        {
            let want = first_pair();
            match got {
                Classification::Switches(s) => {
                    Some(names(s)) == want.map(Vec::from)
                }
                Classification::Unexplained => want.is_none(),
            }
        }
        (Classification::Switches(s), None) => match s.as_slice() {
            [a, b] => {
                verdict(&b.applied_to(&a.applied_to(base))) == Some(theirs)
            }
            _ => false,
        },
        (Classification::Unexplained, None) => true,
    };
    let described = describes_itself(&got);
    (!fine || described.is_some()).then(|| {
        let shown = match &got {
            Classification::Switches(s) => format!("{:?}", names(s)),
            Classification::Unexplained => "unexplained".into(),
        };
        let want = first.map_or("no single switch", |s| s.name);
        format!(
            "the switch-space search ({}) explains {theirs} by {shown}; \
             the plain reading by {want}{}",
            base.name,
            described.map_or(String::new(), |d| format!("; {d}"))
        )
    })
}

/// Where a classification's `name`, `axis` or `clauses` is not what its
/// switches say: the names `+`-joined, the axes `+`-joined with
/// neighbours alike once, the switches' clauses sorted without repeats
/// (`unexplained` and no clauses when none).
fn describes_itself(got: &Classification) -> Option<String> {
    let s: &[&Switch] = match got {
        Classification::Switches(s) => s,
        Classification::Unexplained => &[],
    };
    let or_unexplained =
        |x: String| if s.is_empty() { "unexplained".into() } else { x };
    let name = or_unexplained(names(s).join("+"));
    let mut axes: Vec<&str> = s.iter().map(|s| s.axis).collect();
    axes.dedup();
    let axis = or_unexplained(axes.join("+"));
    let mut clauses: Vec<&str> =
        s.iter().flat_map(|s| s.clauses.iter().copied()).collect();
    clauses.sort_unstable();
    clauses.dedup();
    let said = (got.name(), got.axis(), got.clauses());
    (said != (name.clone(), axis.clone(), clauses.clone())).then(|| {
        format!(
            "it describes itself as {said:?}, its switches as \
             {:?}",
            (name, axis, clauses)
        )
    })
}
