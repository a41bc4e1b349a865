//! What a matrix run is given: the checks, the adapters, the profile it
//! counts under, and how it asks — one value, [`Options`], built with
//! [`Options::new`] and struct update for what differs from the defaults.
//!
//! It only describes a run; it never asks, judges or reads a file.

use robots_adapters::process::Limits;
use robots_adapters::registry::{Entry, Host};

use crate::budget::Budget;
use crate::cache::Cache;
use crate::suite::{Filter, Suite};

/// The filter that selects every check (the default of [`Options`]).
static EVERY_CHECK: Filter =
    Filter { include: Vec::new(), skip: Vec::new(), exact: false };

/// The progress callback that reports nowhere.
fn no_progress(_adapter: &str, _done: usize) {}

/// Everything a matrix run needs, in one value.
///
/// ```no_run
/// use robots_runner::matrix::{self, Options};
/// use robots_runner::suite::{Filter, Suite};
///
/// let suite = Suite::load(std::path::Path::new("spec-cases"));
/// let entries = robots_adapters::registry::all();
/// let filter = Filter { include: vec!["wildcard".into()], ..Filter::default() };
/// let m = matrix::run(&Options {
///     filter: &filter,
///     ..Options::new(&suite, &entries, "rfc9309")
/// });
/// println!("{} rows", m.checks.len());
/// ```
pub struct Options<'a> {
    /// The loaded case corpus; its non-ignored cases are the rows.
    pub suite: &'a Suite,
    /// Which checks of `suite` the run covers, by name (default: every
    /// check).
    pub filter: &'a Filter,
    /// The adapters, one column each, in this order.
    pub entries: &'a [Entry],
    /// The profile outcomes are counted under (`claimed`: each adapter's
    /// own claimed profile).
    pub profile: &'a str,
    /// Deadlines per request, startup, kill grace and confirmation of
    /// timeouts ([`Limits::confirm`]; default: [`Limits::default`]).
    pub limits: Limits,
    /// Where the in-process Rust crates run (default: [`Host::Thread`]).
    pub host: Host,
    /// Called with (adapter, checks done) as each case of its column
    /// finishes (default: reports nowhere).
    pub progress: &'a (dyn Fn(&str, usize) + Sync),
    /// The answer cache: what it holds is judged without asking, what is
    /// asked is filed there ([`crate::cache`]; default: none, everything
    /// is asked).
    pub cache: Option<&'a Cache>,
    /// At most this many adapter instances ask at once across the run
    /// ([`crate::budget`]; default: [`Budget::for_cores`]).
    pub budget: Budget,
}

impl<'a> Options<'a> {
    /// Every check of `suite` against `entries`, counted under `profile`,
    /// with the defaults of each field: default limits, the Rust crates on
    /// threads, no progress, no cache, a budget of 4 instances per core.
    pub fn new(
        suite: &'a Suite,
        entries: &'a [Entry],
        profile: &'a str,
    ) -> Options<'a> {
        Options {
            suite,
            filter: &EVERY_CHECK,
            entries,
            profile,
            limits: Limits::default(),
            host: Host::Thread,
            progress: &no_progress,
            cache: None,
            budget: Budget::for_cores(),
        }
    }
}
