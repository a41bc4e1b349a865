//! `serve`: the reference oracle over the adapter protocol on
//! stdin/stdout (adapters/PROTOCOL.md), for other harnesses.

use std::io::{BufRead, Write};
use std::sync::Arc;

use base64::Engine;
use robots_adapters::process::Limits;
use robots_adapters::registry::{self, Host};
use robots_adapters::{Adapter, Reply, Request};
use serde_json::{Value, json};

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

fn result(r: &Reply) -> Value {
    match r {
        Reply::Verdict { verdict, .. } => json!({"verdict": verdict.as_str()}),
        Reply::Error { message } => json!({"error": message}),
        other => json!({"error": other.word()}),
    }
}

fn answer(oracle: &mut dyn Adapter, v: &Value) -> Value {
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let text = |k: &str| {
        v.get(k).and_then(Value::as_str).unwrap_or_default().to_string()
    };
    let robots = || -> Result<Arc<[u8]>, String> {
        base64::engine::general_purpose::STANDARD
            .decode(text("robots"))
            .map(Into::into)
            .map_err(|e| format!("robots is not base64: {e}"))
    };
    let request = |op: &str| -> Result<Request, String> {
        Ok(match op {
            "governs" => Request::Governs {
                robots_url: text("robots_url"),
                url: text("url"),
            },
            "sitemaps" => Request::Sitemaps { robots: robots()? },
            "crawl-delay" => {
                Request::CrawlDelay { robots: robots()?, agent: text("agent") }
            }
            "valid-token" => Request::ValidToken { token: text("token") },
            "robots-url" => Request::RobotsUrl { url: text("url") },
            other => return Err(format!("unsupported op {other}")),
        })
    };
    match v.get("op").and_then(Value::as_str).unwrap_or_default() {
        "hello" => {
            json!({"id": id, "name": oracle.info().name, "version": oracle.info().version,
                          "language": "rust", "profile": oracle.info().profile})
        }
        "decide" => {
            let robots = match robots() {
                Ok(r) => r,
                Err(e) => return json!({"id": id, "error": e}),
            };
            let urls = v
                .get("urls")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let reqs: Vec<Request> = urls
                .iter()
                .map(|u| Request::Decide {
                    robots: robots.clone(),
                    agent: text("agent"),
                    url: u.as_str().unwrap_or_default().to_string(),
                })
                .collect();
            let results: Vec<Value> =
                oracle.answer_batch(&reqs).iter().map(result).collect();
            json!({"id": id, "results": results})
        }
        "fetch" => {
            let urls = v
                .get("urls")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let timeout =
                v.get("timeout").and_then(Value::as_f64).unwrap_or(5.0);
            let reqs: Vec<Request> = urls
                .iter()
                .map(|u| {
                    let live = robots_adapters::Live {
                        robots_url: text("robots_url"),
                        url: u.as_str().unwrap_or_default().to_string(),
                        timeout: std::time::Duration::from_secs_f64(
                            timeout.max(0.0),
                        ),
                    };
                    Request::live_fetch(live, text("agent"))
                })
                .collect();
            let results: Vec<Value> =
                oracle.answer_batch(&reqs).iter().map(result).collect();
            json!({"id": id, "results": results})
        }
        op => match request(op) {
            Ok(req) => match oracle.answer(&req) {
                Reply::Value { value } => json!({"id": id, "value": value}),
                other => json!({"id": id, "error": other.word()}),
            },
            Err(e) if e.starts_with("unsupported") => {
                json!({"id": id, "unsupported": e})
            }
            Err(e) => json!({"id": id, "error": e}),
        },
    }
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
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(v) => answer(oracle.as_mut(), &v),
            Err(e) => json!({"id": null, "error": format!("not JSON: {e}")}),
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(0)
}
