//! Every adapter the harness knows by name: the reference oracle (one per
//! profile), the in-process Rust crates, the out-of-process adapters
//! under `adapters/ext/` and those plugged in from elsewhere
//! ([`crate::plugin`]), and a command template ([`command_entry`]).
//!
//! It names and opens adapters; it never asks them anything itself and
//! never chooses expectations (the runner does).

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::breaker::Breaker;
use crate::command::Template;
use crate::manifest::{self, Manifest};
use crate::plugin::{self, PluginError};
use crate::process::{Limits, Process};
use crate::reference::Reference;
use crate::{Adapter, Info};

/// How an adapter is run.
#[derive(Clone, Debug)]
pub enum Kind {
    /// The oracle under a profile.
    Reference(String),
    /// A crate linked into the harness.
    InProcess,
    /// A process speaking the protocol.
    External(Box<Manifest>),
    /// A program run once per check from a template
    /// ([`crate::command::Template`]): its words, placeholders unfilled.
    Command(Vec<String>),
}

/// A known adapter.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Who it is (static: no process is started to learn it).
    pub info: Info,
    /// How it runs.
    pub kind: Kind,
    /// One line for listings.
    pub note: String,
}

/// Whether an adapter can run here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Installed.
    Ready,
    /// Not installed or its runtime is missing: why, and what fixes it.
    Unavailable {
        /// Why.
        why: String,
        /// The command that fixes it.
        fix: String,
    },
}

/// Deadline for one request to an in-process adapter.
pub const IN_PROCESS_DEADLINE: Duration = Duration::from_secs(1);

macro_rules! in_process {
    ($out:ident, $feature:literal, $ty:path, $note:literal) => {
        #[cfg(feature = $feature)]
        {
            use crate::isolate::Parser;
            $out.push(Entry {
                info: <$ty>::default().info(),
                kind: Kind::InProcess,
                note: $note.into(),
            });
        }
    };
}

/// Every adapter, references first, then Rust crates, then external ones
/// (manifest errors are skipped here; see [`Manifest::discover`]).
pub fn all() -> Vec<Entry> {
    let mut out = Vec::new();
    for profile in ["rfc9309", "google", "aipref"] {
        if let Some(r) = Reference::for_profile(profile) {
            out.push(Entry {
                info: r.info(),
                kind: Kind::Reference(profile.into()),
                note: format!("the oracle, profile {profile}"),
            });
        }
    }
    in_process!(
        out,
        "robotstxt",
        crate::rust::robotstxt::Robotstxt,
        "Rust port of Google's C++ parser"
    );
    in_process!(
        out,
        "texting_robots",
        crate::rust::texting_robots::TextingRobots,
        ""
    );
    in_process!(out, "robotxt", crate::rust::robotxt::Robotxt, "");
    in_process!(out, "robotparser", crate::rust::robotparser::Robotparser, "");
    in_process!(
        out,
        "robots_txt",
        crate::rust::robots_txt::RobotsTxt,
        "first-match, no wildcards"
    );
    in_process!(
        out,
        "robotstxt-rs",
        crate::rust::robotstxt_rs::RobotstxtRs,
        ""
    );
    let plugged = plugin::manifests();
    let discovered = Manifest::discover().into_iter().flatten();
    let shadowed = |m: &Manifest| plugged.iter().any(|p| p.name == m.name);
    let external: Vec<Manifest> = plugged
        .iter()
        .cloned()
        .chain(discovered.filter(|m| !shadowed(m)))
        .collect();
    for m in external {
        let info = Info {
            name: m.name.clone(),
            language: m.language.clone(),
            version: m.version.clone(),
            profile: m.profile.clone(),
            capabilities: m.capabilities.clone(),
        };
        out.push(Entry {
            info,
            note: m.note.clone(),
            kind: Kind::External(Box::new(m)),
        });
    }
    out
}

/// The adapter named `name`, or given by its manifest's path (which
/// plugs it in: see [`lookup`]).
pub fn find(name: &str) -> Option<Entry> {
    lookup(name).ok()
}

/// Why an adapter name does not name an adapter.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// No adapter has that name.
    #[error("no adapter `{name}`; known: {}", known.join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
        /// Every name there is.
        known: Vec<String>,
    },
    /// A manifest's path that cannot be plugged in.
    #[error(transparent)]
    Plugin(#[from] PluginError),
    /// `NAME@VERSION` that cannot be had.
    #[error(transparent)]
    Release(#[from] crate::release::ReleaseError),
    /// The manifest of `NAME@VERSION` cannot be read again.
    #[error(transparent)]
    Manifest(#[from] manifest::ManifestError),
}

/// Whether `name` is taken by an adapter that is not a manifest (the
/// oracle, a Rust crate): a plugged-in adapter may not take it.
pub fn built_in(name: &str) -> bool {
    all().iter().any(|e| {
        e.info.name == name
            && matches!(e.kind, Kind::Reference(_) | Kind::InProcess)
    })
}

/// Plugs in every adapter in `dir` (`--adapter-dir`): see
/// [`plugin::add_dir`].
///
/// # Errors
///
/// As [`plugin::add_dir`].
pub fn add_dir(dir: &std::path::Path) -> Result<Vec<String>, PluginError> {
    plugin::add_dir(dir, &built_in)
}

/// The adapter `spec` names: an adapter's name, `NAME@VERSION` (another
/// release of an external adapter's parser, see [`crate::release`]), or
/// the path of an `adapter.toml` (or of a folder holding one), which is
/// plugged in for the rest of the process and then known by its name
/// too.
///
/// # Errors
///
/// When no adapter has that name (the error lists the known ones), the
/// manifest cannot be plugged in, or the release cannot be had (a bad
/// version, an adapter that runs only its pin).
pub fn lookup(spec: &str) -> Result<Entry, LookupError> {
    let (name, version) = if plugin::is_path(spec) {
        (plugin::add_manifest(std::path::Path::new(spec), &built_in)?, None)
    } else {
        let (name, version) = crate::release::split(spec)?;
        (name.to_string(), version)
    };
    let all = all();
    let Some(base) = all.iter().find(|e| e.info.name == name) else {
        return Err(LookupError::Unknown {
            name,
            known: all.into_iter().map(|e| e.info.name).collect(),
        });
    };
    match version {
        None => Ok(base.clone()),
        Some(v) => at_release(base, v),
    }
}

/// `base` at release `version`: the pin gives `base` itself; another
/// release of an external adapter with a `[release]` table gives its
/// own entry; the oracle, the Rust crates linked into the harness and a
/// command run only what they are.
///
/// # Errors
///
/// [`crate::release::ReleaseError::PinnedOnly`] for those, or when the
/// manifest cannot be read again.
pub fn at_release(base: &Entry, version: &str) -> Result<Entry, LookupError> {
    let version = crate::release::normalise(version);
    let pinned_only = |why: &str| {
        let pinned = base.info.version.rsplit(' ').next().unwrap_or_default();
        if pinned == version {
            return Ok(base.clone());
        }
        Err(LookupError::Release(crate::release::ReleaseError::PinnedOnly {
            name: base.info.name.clone(),
            pinned: pinned.to_string(),
            asked: version.to_string(),
            why: why.to_string(),
        }))
    };
    match &base.kind {
        Kind::External(m) => {
            if m.pinned == version {
                return Ok(base.clone());
            }
            let m = m.at_release(version)?;
            let info = Info {
                name: m.name.clone(),
                version: m.version.clone(),
                ..base.info.clone()
            };
            Ok(Entry {
                info,
                note: base.note.clone(),
                kind: Kind::External(Box::new(m)),
            })
        }
        Kind::InProcess => pinned_only(
            "a Rust crate is linked into the harness at the version Cargo.lock pins",
        ),
        Kind::Reference(_) => pinned_only("it is this build's oracle"),
        Kind::Command(_) => pinned_only("a command runs what is installed"),
    }
}

/// The entry for a command template (`--command`): named `command`,
/// claiming `profile`, answering `decide` only.
///
/// # Errors
///
/// When the template does not split into words or lacks `{url}`.
pub fn command_entry(
    template: &str,
    profile: &str,
) -> Result<Entry, crate::command::TemplateError> {
    let argv = crate::command::parse(template)?;
    Ok(Entry {
        info: Info {
            name: crate::command::NAME.into(),
            language: "any".into(),
            version: argv[0].clone(),
            profile: profile.into(),
            capabilities: crate::Capabilities::decide_only(),
        },
        kind: Kind::Command(argv),
        note: format!(
            "the command `{template}` (exit 0 allowed, 1 disallowed)"
        ),
    })
}

/// Whether `entry` can run here.
pub fn status(entry: &Entry) -> Status {
    if let Kind::Command(argv) = &entry.kind {
        let program = &argv[0];
        if manifest::on_path(program) {
            return Status::Ready;
        }
        return Status::Unavailable {
            why: format!("{program} not found (not on PATH, nor a path)"),
            fix: format!("install {program}, or give its path"),
        };
    }
    let Kind::External(m) = &entry.kind else { return Status::Ready };
    let missing = crate::runtime::missing(m);
    if !missing.is_empty() {
        let what: Vec<&str> =
            missing.iter().map(|r| r.what.as_str()).collect();
        return Status::Unavailable {
            why: format!("{} missing", what.join(", ")),
            fix: crate::runtime::fix_line(&missing),
        };
    }
    let Some(ready) = &m.ready else { return Status::Ready };
    let ok = Command::new(&ready[0])
        .args(&ready[1..])
        .current_dir(&m.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Status::Ready
    } else {
        Status::Unavailable {
            why: "not installed".into(),
            fix: format!("robots-conformance adapters setup {}", m.name),
        }
    }
}

/// Where in-process crates run.
#[derive(Clone, Debug)]
pub enum Host {
    /// On a worker thread of this process (fast; a hung parser's thread
    /// cannot be killed and is abandoned).
    Thread,
    /// In a child process running `PROGRAM serve --adapter NAME` (the
    /// harness binary), killed on a timeout like any external adapter.
    Process(std::path::PathBuf),
}

/// Starts (lazily) the adapter for `entry`.
pub fn open(entry: &Entry, limits: Limits, host: &Host) -> Box<dyn Adapter> {
    open_sharing(entry, limits, host, &Breaker::default())
}

/// [`open`], for one of several instances of the adapter in a run: a
/// process counts its failed starts with the others on `breaker`.
pub fn open_sharing(
    entry: &Entry,
    limits: Limits,
    host: &Host,
    breaker: &Breaker,
) -> Box<dyn Adapter> {
    let process = |argv: Vec<String>| {
        Process::new(entry.info.clone(), argv, limits).sharing(breaker.clone())
    };
    if let (Kind::InProcess, Host::Process(program)) = (&entry.kind, host) {
        let argv = vec![
            program.to_string_lossy().into_owned(),
            "serve".into(),
            "--adapter".into(),
            entry.info.name.clone(),
        ];
        return Box::new(process(argv));
    }
    match &entry.kind {
        Kind::Reference(p) => {
            // OK: references are only listed for built-in profiles.
            Box::new(Reference::for_profile(p).expect("built-in profile"))
        }
        Kind::External(m) => Box::new(process(m.run.clone())),
        Kind::Command(argv) => Box::new(Template::from_argv(
            argv.clone(),
            None,
            limits.base,
            entry.info.clone(),
        )),
        Kind::InProcess => open_in_process(
            &entry.info.name,
            IN_PROCESS_DEADLINE.max(limits.base),
        ),
    }
}

/// An in-process crate on a worker thread with deadline `d`.
pub fn open_in_process(name: &str, d: Duration) -> Box<dyn Adapter> {
    use crate::isolate::Isolated;
    match name {
        #[cfg(feature = "robotstxt")]
        "rust-robotstxt" => {
            Box::new(Isolated::new(crate::rust::robotstxt::Robotstxt, d))
        }
        #[cfg(feature = "texting_robots")]
        "rust-texting_robots" => Box::new(Isolated::new(
            crate::rust::texting_robots::TextingRobots::default(),
            d,
        )),
        #[cfg(feature = "robotxt")]
        "rust-robotxt" => Box::new(Isolated::new(
            crate::rust::robotxt::Robotxt::default(),
            d,
        )),
        #[cfg(feature = "robotparser")]
        "rust-robotparser" => {
            Box::new(Isolated::new(crate::rust::robotparser::Robotparser, d))
        }
        #[cfg(feature = "robots_txt")]
        "rust-robots_txt" => {
            Box::new(Isolated::new(crate::rust::robots_txt::RobotsTxt, d))
        }
        #[cfg(feature = "robotstxt-rs")]
        "rust-robotstxt-rs" => Box::new(Isolated::new(
            crate::rust::robotstxt_rs::RobotstxtRs::default(),
            d,
        )),
        other => unreachable!("{other} is not an in-process adapter"),
    }
}
