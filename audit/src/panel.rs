//! The parsers an audit asks: the oracle under its three profiles (the
//! reference adapters, asked through the fetch op so the oracle's fetch
//! model decides; `aipref` reads the file as the AI preferences drafts
//! update RFC 9309 and answers the `usage` op too) and each selected adapter (asked `decide` on the body
//! the fetch model kept, under the fetch outcome of the profile the
//! adapter claims). Every parser is reached through the `Adapter` trait;
//! a misbehaving adapter costs only its own verdicts (`?`).

use robots_adapters::Adapter;
use robots_adapters::reference::Reference;
use std::time::Duration;

use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host, Kind, Status};

use crate::error::Error;

/// How long one request may take before the parser's answer counts as
/// unanswered. Far above any real file's cost (the parse limit bounds
/// the work), so that the verdicts do not depend on the machine's load:
/// one run and its shards, or its Spark twin, must agree.
pub const DEADLINE: Duration = Duration::from_secs(30);

fn limits() -> Limits {
    Limits { base: DEADLINE, ..Limits::default() }
}

/// The oracle's profiles, in column order.
pub const PROFILES: [&str; 3] = ["rfc9309", "google", "aipref"];

/// The profile whose oracle answers the `usage` op (AI usage
/// preferences, draft-ietf-aipref-attach-05).
pub const USAGE_PROFILE: &str = "aipref";

/// The fetch model a profile of [`PROFILES`] audits with: `google`'s for
/// `google`, RFC 9309's for the others (`aipref` changes only how the
/// file is read, never how it is fetched).
pub fn fetch_model(profile: &str) -> &'static str {
    if profile == "google" { "google" } else { "rfc9309" }
}

/// An adapter and the oracle profile it is compared with.
pub struct Member {
    /// Its registry name.
    pub name: String,
    /// `rfc9309`, `google` or `aipref`: the profile it claims (others:
    /// rfc9309).
    pub base: &'static str,
    /// The adapter.
    pub adapter: Box<dyn Adapter>,
}

/// One worker's parsers.
pub struct Panel {
    /// The oracle, one adapter per profile of [`PROFILES`] (in that
    /// order).
    pub oracle: Vec<Box<dyn Adapter>>,
    /// The selected adapters.
    pub members: Vec<Member>,
}

/// Which adapters were selected: names and base profiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection(pub Vec<(String, &'static str)>);

fn base_of(profile: &str) -> &'static str {
    PROFILES.into_iter().find(|p| *p == profile).unwrap_or("rfc9309")
}

impl Selection {
    /// Every adapter that is ready (installed, its runtime present),
    /// in-process crates and external adapters alike; never the oracle
    /// or a `--command` program.
    pub fn ready() -> Selection {
        Selection(
            registry::all()
                .into_iter()
                .filter(|e| {
                    matches!(e.kind, Kind::InProcess | Kind::External(_))
                })
                .filter(|e| registry::status(e) == Status::Ready)
                .map(|e| {
                    let base = base_of(&e.info.profile);
                    (e.info.name, base)
                })
                .collect(),
        )
    }

    /// `rust` (every in-process crate), `none`, or a comma-separated list
    /// of adapter names.
    pub fn parse(spec: &str) -> Result<Selection, Error> {
        let all = registry::all();
        let chosen: Vec<_> = match spec {
            "none" | "" => Vec::new(),
            "rust" => all
                .into_iter()
                .filter(|e| matches!(e.kind, Kind::InProcess))
                .collect(),
            list => {
                let mut out = Vec::new();
                for name in
                    list.split(',').map(str::trim).filter(|n| !n.is_empty())
                {
                    let entry = registry::lookup(name).map_err(|e| {
                        Error::Adapter {
                            name: name.into(),
                            why: e.to_string(),
                        }
                    })?;
                    if let Kind::Reference(_) = entry.kind {
                        return Err(Error::Adapter {
                            name: name.into(),
                            why: "the oracle is always asked, under every profile".into(),
                        });
                    }
                    if let Status::Unavailable { why, fix } =
                        registry::status(&entry)
                    {
                        return Err(Error::Adapter {
                            name: name.into(),
                            why: format!("{why} ({fix})"),
                        });
                    }
                    out.push(entry);
                }
                out
            }
        };
        Ok(Selection(
            chosen
                .into_iter()
                .map(|e| {
                    let base = base_of(&e.info.profile);
                    (e.info.name, base)
                })
                .collect(),
        ))
    }

    /// Opens one panel (each worker has its own).
    pub fn open(&self) -> Panel {
        let oracle = PROFILES
            .iter()
            .map(|p| {
                // OK: every profile of PROFILES is built in.
                Box::new(Reference::for_profile(p).expect("built-in profile"))
                    as Box<dyn Adapter>
            })
            .collect();
        let members = self
            .0
            .iter()
            .filter_map(|(name, base)| open_member(name, base))
            .collect();
        Panel { oracle, members }
    }
}

/// Opens one selected adapter (`None`: the registry no longer knows the
/// name).
pub fn open_member(name: &str, base: &'static str) -> Option<Member> {
    let entry = registry::find(name)?;
    let adapter = match entry.kind {
        Kind::InProcess => registry::open_in_process(name, DEADLINE),
        _ => registry::open(&entry, limits(), &Host::Thread),
    };
    Some(Member { name: name.to_string(), base, adapter })
}
