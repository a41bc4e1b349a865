//! A reading of robots.txt, rules and fetch alike, and the single-switch
//! moves between readings.
//!
//! Data only: it never decides anything. Every move is one of the
//! oracle's own switches ([`robots_oracle::switches`],
//! [`robots_oracle::fetch::fetch_switches`]); none is invented here.

use robots_oracle::fetch::{FetchProfile, FetchSwitch, fetch_switches};
use robots_oracle::{Profile, Switch, switches};

/// The oracle's behaviour under one assignment of every switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The rule-level switches.
    pub profile: Profile,
    /// The fetch-level switches.
    pub fetch: FetchProfile,
}

impl Reading {
    /// The built-in reading of that name (`rfc9309` or `google`), rules
    /// and fetch alike.
    pub fn built_in(name: &str) -> Option<Reading> {
        Some(Reading {
            profile: Profile::by_name(name)?,
            fetch: FetchProfile::by_name(name)?,
        })
    }

    /// The built-in reading `base` with the moves named `changes` (as in
    /// a fit's `base` and `changes`) applied in order.
    ///
    /// # Errors
    ///
    /// The name of the base or the move the oracle does not know.
    pub fn from_names(
        base: &str,
        changes: &[String],
    ) -> Result<Reading, String> {
        let mut r = Reading::built_in(base)
            .ok_or_else(|| format!("no built-in reading `{base}`"))?;
        let all = moves();
        for c in changes {
            let m = all
                .iter()
                .find(|m| m.name() == c)
                .ok_or_else(|| format!("no switch `{c}`"))?;
            r = m.applied_to(&r);
        }
        Ok(r)
    }

    /// The moves that turn `base` into this reading, in the order of
    /// [`moves`]: each names a value this reading holds and `base` does
    /// not.
    pub fn changes_from(&self, base: &Reading) -> Vec<Move> {
        moves()
            .into_iter()
            .filter(|m| m.changes(base) && !m.changes(self))
            .collect()
    }
}

/// One single-switch change of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A switch of the rule profile.
    Rules(&'static Switch),
    /// A switch of the fetch profile.
    Fetch(&'static FetchSwitch),
}

impl Move {
    /// `field=value`, as the oracle names the switch.
    pub fn name(&self) -> &'static str {
        match self {
            Move::Rules(s) => s.name,
            Move::Fetch(s) => s.name,
        }
    }

    /// The clause ids the switch concerns.
    pub fn clauses(&self) -> &'static [&'static str] {
        match self {
            Move::Rules(s) => s.clauses,
            Move::Fetch(s) => s.clauses,
        }
    }

    /// The reading with this move applied.
    pub fn applied_to(&self, r: &Reading) -> Reading {
        match self {
            Move::Rules(s) => {
                Reading { profile: s.applied_to(&r.profile), ..r.clone() }
            }
            Move::Fetch(s) => {
                Reading { fetch: s.applied_to(&r.fetch), ..r.clone() }
            }
        }
    }

    /// Whether applying it to `r` changes anything.
    pub fn changes(&self, r: &Reading) -> bool {
        match self {
            Move::Rules(s) => s.changes(&r.profile),
            Move::Fetch(s) => s.changes(&r.fetch),
        }
    }
}

/// Every move: the rule switches, then the fetch switches.
pub fn moves() -> Vec<Move> {
    switches()
        .iter()
        .map(Move::Rules)
        .chain(fetch_switches().iter().map(Move::Fetch))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changes_between_two_readings_rebuild_the_second_from_the_first() {
        let rfc = Reading::built_in("rfc9309").unwrap();
        let google = Reading::built_in("google").unwrap();
        let changes = google.changes_from(&rfc);
        assert!(!changes.is_empty());
        let mut rebuilt = rfc.clone();
        for m in &changes {
            rebuilt = m.applied_to(&rebuilt);
        }
        // `name` is not a switch: compare everything else.
        rebuilt.profile.name = google.profile.name;
        rebuilt.fetch.name = google.fetch.name;
        rebuilt.fetch.cites = google.fetch.cites;
        assert_eq!(rebuilt, google);
        assert!(rfc.changes_from(&rfc).is_empty());
    }

    #[test]
    fn a_reading_is_rebuilt_from_its_names_and_unknown_names_are_errors() {
        let rfc = Reading::built_in("rfc9309").unwrap();
        let google = Reading::built_in("google").unwrap();
        let names: Vec<String> = google
            .changes_from(&rfc)
            .iter()
            .map(|m| m.name().to_string())
            .collect();
        let rebuilt = Reading::from_names("rfc9309", &names).unwrap();
        assert!(rebuilt.changes_from(&google).is_empty());
        assert!(google.changes_from(&rebuilt).is_empty());
        assert!(Reading::from_names("nope", &[]).is_err());
        assert!(Reading::from_names("rfc9309", &["x=y".into()]).is_err());
    }

    #[test]
    fn move_names_are_unique() {
        let all = moves();
        for (i, m) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|n| n.name() != m.name()));
        }
    }
}
