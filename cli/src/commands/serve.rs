//! `serve`: the reference oracle over the adapter protocol on
//! stdin/stdout (adapters/PROTOCOL.md), for other harnesses.
//!
//! Every request line gets one answer line, and a bad line (not UTF-8,
//! too long, not JSON, malformed fields) gets an error answer, never the
//! end of the session. A URL that is neither absolute nor a path from
//! `/` is answered an error in its own result slot.

use std::io::{BufReader, Write};

use robots_adapters::pipes::{self, TooLong};
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host};
use robots_adapters::wire::{self, Call, Hello, WireError};
use robots_adapters::{Adapter, Live, Reply, Request};

/// The longest request line read: a decide line carries a base64 body,
/// and a case body may be up to 64 MiB (86 MiB in base64).
const MAX_REQUEST_LINE: usize = 128 << 20;

/// Speak the adapter protocol with the oracle (or another adapter).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The profile the oracle decides under
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google"])]
    profile: String,
    /// Serve this adapter instead of the oracle (e.g. rust-robotxt, or
    /// the path of an adapter.toml)
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

/// The answer line to a line that cannot be read as text: the error,
/// with the line's id if one can be made out.
fn refuse(line: &[u8], e: &WireError) -> String {
    let (id, _) = Call::decode(&String::from_utf8_lossy(line));
    wire::encode_failure(&id, e)
}

/// The replies to a decide or fetch call whose URLs include some the
/// protocol does not carry: those are errors, the others are asked.
fn answer_some(
    adapter: &mut dyn Adapter,
    call: &Call,
    errors: Vec<Option<String>>,
) -> Vec<Reply> {
    let good: Vec<usize> =
        (0..errors.len()).filter(|&i| errors[i].is_none()).collect();
    let asked: Vec<Request> =
        good.iter().flat_map(|&i| requests(call.only(i))).collect();
    let mut answers = adapter.answer_batch(&asked).into_iter();
    errors
        .into_iter()
        .map(|e| match e {
            Some(message) => Reply::Error { message },
            None => answers.next().unwrap_or(Reply::ProtocolError {
                message: "no answer".into(),
            }),
        })
        .collect()
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
    let errors: Vec<Option<String>> =
        call.urls().iter().map(|u| wire::url_error(u)).collect();
    let replies = if errors.iter().any(Option::is_some) {
        answer_some(adapter, &call, errors)
    } else {
        adapter.answer_batch(&requests(call))
    };
    wire::encode_answer(&id, op, &replies)
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
    while let Some(line) = pipes::next_line(&mut stdin, MAX_REQUEST_LINE)? {
        let answer = match line {
            Ok(bytes) => match std::str::from_utf8(&bytes) {
                Ok(text) => answer(oracle.as_mut(), text),
                Err(_) => refuse(&bytes, &WireError::NotUtf8),
            },
            Err(TooLong) => {
                pipes::skip_line(&mut stdin)?;
                let e = WireError::TooLong(MAX_REQUEST_LINE);
                wire::encode_failure(&serde_json::Value::Null, &e)
            }
        };
        out.write_all(answer.as_bytes())?;
        out.flush()?;
    }
    Ok(0)
}
