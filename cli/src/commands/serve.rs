//! `serve`: the reference oracle over the adapter protocol on
//! stdin/stdout (adapters/PROTOCOL.md), for other harnesses.

use std::io::{BufRead, Write};

use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host};
use robots_adapters::wire::{self, Call, Hello};
use robots_adapters::{Adapter, Live, Request};

/// Speak the adapter protocol with the oracle (or another adapter).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The profile the oracle decides under
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google"])]
    profile: String,
    /// Serve this adapter instead of the oracle (e.g. rust-robotxt)
    #[arg(long)]
    adapter: Option<String>,
}

/// The requests a call stands for (one per URL for decide and fetch).
fn requests(call: Call) -> Vec<Request> {
    match call {
        Call::Hello => Vec::new(),
        Call::Decide { robots, agent, urls } => urls
            .into_iter()
            .map(|url| Request::Decide {
                robots: robots.clone(),
                agent: agent.clone(),
                url,
            })
            .collect(),
        Call::Fetch { robots_url, agent, urls, timeout } => urls
            .into_iter()
            .map(|url| {
                let live =
                    Live { robots_url: robots_url.clone(), url, timeout };
                Request::live_fetch(live, agent.clone())
            })
            .collect(),
        Call::Sitemaps { robots } => vec![Request::Sitemaps { robots }],
        Call::CrawlDelay { robots, agent } => {
            vec![Request::CrawlDelay { robots, agent }]
        }
        Call::ValidToken { token } => vec![Request::ValidToken { token }],
        Call::RobotsUrl { url } => vec![Request::RobotsUrl { url }],
        Call::Governs { robots_url, url } => {
            vec![Request::Governs { robots_url, url }]
        }
    }
}

/// The answer line to one request line.
fn answer(adapter: &mut dyn Adapter, line: &str) -> String {
    let (id, call) = Call::decode(line);
    let call = match call {
        Ok(c) => c,
        Err(e) => return wire::encode_failure(&id, &e),
    };
    let op = call.op();
    if call == Call::Hello {
        let info = adapter.info();
        let hello = Hello {
            name: Some(info.name),
            version: Some(info.version),
            language: Some(info.language),
            profile: Some(info.profile),
        };
        return hello.encode(&id);
    }
    let replies = adapter.answer_batch(&requests(call));
    wire::encode_answer(&id, op, &replies)
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let name = a.adapter.clone().unwrap_or_else(|| {
        robots_adapters::reference::Reference::name_for(&a.profile)
    });
    let entry = registry::find(&name)
        .ok_or_else(|| anyhow::anyhow!("no adapter `{name}`"))?;
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
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        out.write_all(answer(oracle.as_mut(), &line).as_bytes())?;
        out.flush()?;
    }
    Ok(0)
}
