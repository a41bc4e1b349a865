//! `serve`: the reference oracle over the adapter protocol on
//! stdin/stdout (adapters/PROTOCOL.md), for other harnesses.
//!
//! Every request line gets one answer line, and a bad line (not UTF-8,
//! too long, not JSON, malformed fields) gets an error answer, never the
//! end of the session. A URL that is neither absolute nor a path from
//! `/` is answered an error in its own result slot. The loop itself is
//! `robots_adapters::serve` (also fuzzed there); this command picks the
//! adapter and the line limit.

use std::io::BufReader;

use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host};
use robots_adapters::serve;

/// The longest request line read: a decide line carries a base64 body,
/// and a case body may be up to 64 MiB (86 MiB in base64).
const MAX_REQUEST_LINE: usize = 128 << 20;

/// Speak the adapter protocol with the oracle (or another adapter).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The profile the oracle decides under
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref"])]
    profile: String,
    /// Serve this adapter instead of the oracle (e.g. rust-robotxt, or
    /// the path of an adapter.toml)
    #[arg(long)]
    adapter: Option<String>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let name = a.adapter.clone().unwrap_or_else(|| {
        robots_adapters::reference::Reference::name_for(&a.profile)
    });
    let entry = registry::lookup(&name)?;
    let name = entry.info.name.clone();
    // The parent enforces deadlines by killing this process; here a
    // request may take as long as it takes.
    let limits = Limits {
        base: std::time::Duration::from_secs(3600),
        ..Limits::default()
    };
    let mut oracle = match entry.kind {
        registry::Kind::InProcess => registry::open_in_process(
            &name,
            std::time::Duration::from_secs(3600),
        ),
        _ => registry::open(&entry, limits, &Host::Thread),
    };
    let mut stdin = BufReader::new(std::io::stdin().lock());
    let mut out = std::io::stdout().lock();
    serve::serve(oracle.as_mut(), &mut stdin, &mut out, MAX_REQUEST_LINE)?;
    Ok(0)
}
