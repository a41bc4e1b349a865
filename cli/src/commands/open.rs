//! Opening one adapter for a command: looked up by name or manifest
//! path (`registry::lookup`), refused with its fix when it cannot run
//! here, and hosted so that a hang can be killed (an in-process Rust
//! crate runs in a child process of this binary).
//!
//! Only opens; it never asks the adapter anything.

use std::time::Duration;

use robots_adapters::Adapter;
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Entry, Host, Status};

/// The entry `spec` names, if it can run here.
pub fn ready_entry(spec: &str) -> anyhow::Result<Entry> {
    let entry = registry::lookup(spec)?;
    if let Status::Unavailable { why, fix } = registry::status(&entry) {
        anyhow::bail!(
            "{} is unavailable: {why} (fix: {fix})",
            entry.info.name
        );
    }
    Ok(entry)
}

/// Where in-process crates run: a child process of this binary, or a
/// thread when the binary's own path is unknown.
pub fn host() -> Host {
    std::env::current_exe().map(Host::Process).unwrap_or(Host::Thread)
}

/// The limits of `--timeout SECONDS` (a validated, finite number).
pub fn limits(timeout: f64) -> Limits {
    Limits { base: Duration::from_secs_f64(timeout), ..Limits::default() }
}

/// `entry` opened with `--timeout SECONDS`.
pub fn open(entry: &Entry, timeout: f64) -> Box<dyn Adapter> {
    registry::open(entry, limits(timeout), &host())
}
