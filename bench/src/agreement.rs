//! Correctness inside the benchmark: how often each peer's answers on a
//! workload equal the oracle's under the profile the peer's adapter
//! claims, which peers are `wrong` on it (agreement below
//! [`WRONG_BELOW`]), and which peer is the fastest correct one that the
//! ratio lines compare the oracle with.
//!
//! The oracle's answers here come from its plain reading
//! (`decide_linear`: every rule, octet by octet), not from the fast path
//! being timed, so a bug in the fast path cannot vouch for itself.
//!
//! Pure bookkeeping over figures the caller measured: nothing here times
//! anything, and nothing asserts a timing.

use std::collections::HashMap;
use std::time::Duration;

use robots_oracle::{Profile, RobotsTxt};

use crate::{AGENT, Subject};

/// A peer agreeing with the oracle on less than this share of a
/// workload's answers is marked `wrong` on it.
pub const WRONG_BELOW: f64 = 0.99;

/// Answers compared on one workload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Answers equal to the oracle's.
    pub agree: usize,
    /// Answers compared.
    pub total: usize,
}

impl Tally {
    /// Counts `peer` against `oracle`, answer by answer (the shorter
    /// sequence decides how many are compared; the caller passes equal
    /// lengths).
    pub fn of(peer: &[bool], oracle: &[bool]) -> Tally {
        let total = peer.len().min(oracle.len());
        let agree = peer.iter().zip(oracle).filter(|(p, o)| p == o).count();
        Tally { agree, total }
    }

    /// The share of answers that agree, `None` when none were compared.
    pub fn share(&self) -> Option<f64> {
        (self.total > 0).then(|| self.agree as f64 / self.total as f64)
    }

    /// Below [`WRONG_BELOW`]; a workload with no answers compared is not
    /// held against anyone.
    pub fn is_wrong(&self) -> bool {
        self.share().is_some_and(|s| s < WRONG_BELOW)
    }

    /// `99.7%`, or `-` when nothing was compared.
    pub fn percent(&self) -> String {
        match self.share() {
            Some(s) => format!("{:.1}%", s * 100.0),
            None => "-".into(),
        }
    }
}

/// One parser's figure on one workload, as the ratio lines see it.
#[derive(Clone, Debug)]
pub struct Row {
    /// The subject's name.
    pub name: &'static str,
    /// One of the oracle's own subjects (never a peer).
    pub is_oracle: bool,
    /// Time per unit of work.
    pub time: Duration,
    /// Timed on the same input as the oracle (not a cut-down variant).
    pub comparable: bool,
    /// Its answers against the oracle's; `None` for the oracle itself.
    pub tally: Option<Tally>,
}

impl Row {
    /// Marked `wrong` on this workload.
    pub fn is_wrong(&self) -> bool {
        self.tally.is_some_and(|t| t.is_wrong())
    }
}

/// The fastest peer that is neither the oracle, nor `wrong`, nor timed
/// on a cut-down input; ties go to the first listed.
pub fn fastest_correct(rows: &[Row]) -> Option<&Row> {
    rows.iter().filter(|r| !r.is_oracle && r.comparable && !r.is_wrong()).fold(
        None,
        |best: Option<&Row>, r| match best {
            Some(b) if b.time <= r.time => Some(b),
            _ => Some(r),
        },
    )
}

/// The fastest correct peer's time over the row named `oracle`'s (above
/// 1: the oracle is faster), and that peer; `None` when either is
/// missing or the oracle's time is zero.
pub fn ratio<'r>(rows: &'r [Row], oracle: &str) -> Option<(f64, &'r Row)> {
    let o = rows.iter().find(|r| r.name == oracle)?.time;
    let peer = fastest_correct(rows)?;
    (!o.is_zero()).then(|| (peer.time.as_secs_f64() / o.as_secs_f64(), peer))
}

/// The oracle's answer (allowed?) for `agent` and `path` on a parsed
/// file, by the plain reading; a URL the oracle cannot read is allowed,
/// as `RobotsTxt::is_allowed` has it.
pub fn oracle_answer(robots: &RobotsTxt, agent: &str, path: &str) -> bool {
    robots.decide_linear(agent, path).map_or(true, |d| d.is_allowed())
}

/// The oracle's answers for [`AGENT`] on one workload (bodies and the
/// paths asked of each), under each profile a peer claims, each profile
/// worked out once.
pub struct Judge<'w> {
    bodies: Vec<(&'w [u8], Vec<&'w str>)>,
    answers: HashMap<&'static str, Vec<bool>>,
}

impl<'w> Judge<'w> {
    /// A workload: each body with the paths asked of it, in the order
    /// the peers' answers are given.
    pub fn new(bodies: Vec<(&'w [u8], Vec<&'w str>)>) -> Judge<'w> {
        Judge { bodies, answers: HashMap::new() }
    }

    /// The oracle's answers under `profile`, in workload order.
    pub fn answers(&mut self, profile: &Profile) -> &[bool] {
        let bodies = &self.bodies;
        self.answers.entry(profile.name).or_insert_with(|| {
            bodies
                .iter()
                .flat_map(|(body, paths)| {
                    let robots = RobotsTxt::parse(body, profile);
                    paths
                        .iter()
                        .map(|p| oracle_answer(&robots, AGENT, p))
                        .collect::<Vec<_>>()
                })
                .collect()
        })
    }

    /// `peer`'s answers (in workload order) against the oracle's under
    /// the profile `subject`'s adapter claims; `None` for the oracle's
    /// own subjects and for a subject whose claim is unknown.
    pub fn tally(
        &mut self,
        subject: &Subject,
        peer: &[bool],
    ) -> Option<Tally> {
        let profile = claimed_profile(subject.adapter?)?;
        Some(Tally::of(peer, self.answers(&profile)))
    }
}

/// The profile a subject's adapter claims, by the adapter's name, from
/// the registry's static listing (no process is started); `None` for an
/// unknown name or an unknown profile.
pub fn claimed_profile(adapter: &str) -> Option<Profile> {
    let entry = robots_adapters::registry::find(adapter)?;
    Profile::by_name(&entry.info.profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &'static str, micros: u64, agree: Option<usize>) -> Row {
        Row {
            name,
            is_oracle: name.starts_with("oracle"),
            time: Duration::from_micros(micros),
            comparable: true,
            tally: agree.map(|agree| Tally { agree, total: 1000 }),
        }
    }

    #[test]
    fn agreement_below_99_percent_is_wrong() {
        assert!(!Tally { agree: 990, total: 1000 }.is_wrong());
        assert!(Tally { agree: 989, total: 1000 }.is_wrong());
        assert!(Tally { agree: 0, total: 1 }.is_wrong());
        assert!(!Tally { agree: 1, total: 1 }.is_wrong());
        assert!(!Tally::default().is_wrong());
        assert_eq!(Tally { agree: 997, total: 1000 }.percent(), "99.7%");
        assert_eq!(Tally::default().percent(), "-");
        let t = Tally::of(&[true, false, true], &[true, true, true]);
        assert_eq!(t, Tally { agree: 2, total: 3 });
    }

    #[test]
    fn the_fastest_peer_is_the_fastest_correct_one() {
        let rows = [
            row("oracle", 100, None),
            row("oracle-linear", 10, None),
            row("quick-but-wrong", 20, Some(980)),
            row("bounded", 5, Some(1000)),
            row("slow", 400, Some(1000)),
            row("right", 150, Some(995)),
        ];
        let mut rows = rows.to_vec();
        rows[3].comparable = false;
        let best = fastest_correct(&rows).map(|r| r.name);
        assert_eq!(best, Some("right"));
        let (x, peer) = ratio(&rows, "oracle").unwrap();
        assert_eq!(peer.name, "right");
        assert!((x - 1.5).abs() < 1e-9, "{x}");
        assert!(rows[2].is_wrong() && !rows[5].is_wrong());
    }

    #[test]
    fn no_correct_peer_gives_no_ratio() {
        let rows =
            [row("oracle", 100, None), row("wrong", 1, Some(0))].to_vec();
        assert!(fastest_correct(&rows).is_none());
        assert!(ratio(&rows, "oracle").is_none());
        let ties = [
            row("oracle", 100, None),
            row("first", 50, Some(1000)),
            row("second", 50, Some(1000)),
        ];
        assert_eq!(fastest_correct(&ties).map(|r| r.name), Some("first"));
    }

    #[test]
    fn claimed_profiles_come_from_the_registry() {
        let p = claimed_profile("rust-robotstxt").map(|p| p.name);
        assert_eq!(p, Profile::by_name("google").map(|p| p.name));
        assert!(claimed_profile("no-such-adapter").is_none());
    }
}
