//! `check --usage`: the AI usage preferences of each URL for one crawler
//! (draft-ietf-aipref-attach-05 §3.1), and the file's Content-Signal
//! values, from the oracle or from one adapter's `usage` answer.
//!
//! Only prints: every answer comes through the `Adapter` door (or, for
//! the oracle's explanation, from the reference adapter).

use robots_adapters::reference::Reference;
use robots_adapters::registry;
use robots_adapters::{Adapter, Reply, Request};
use serde_json::{Value, json};

/// One URL's line: `allowed /x  train-ai=n, search=unknown`.
fn line(url: &str, value: &Value) -> String {
    let crawlable = value["crawlable"].as_bool().unwrap_or(false);
    if !crawlable {
        return format!(
            "disallowed {url}  usage: none (a URL that may not be crawled has no preferences)"
        );
    }
    // The labels in the vocabulary's order (vocab-07 §6.1), then any other.
    let usage = value["usage"].as_object().cloned().unwrap_or_default();
    let mut keys: Vec<&String> = usage.keys().collect();
    let rank = |k: &str| ["train-ai", "search"].iter().position(|l| *l == k);
    keys.sort_by_key(|k| (rank(k).unwrap_or(usize::MAX), k.to_string()));
    let pairs: Vec<String> = keys
        .iter()
        .map(|k| format!("{k}={}", usage[k.as_str()].as_str().unwrap_or("?")))
        .collect();
    format!("allowed {url}  usage: {}", pairs.join(", "))
}

/// The per-URL JSON object: `verdict`, `usage` and, when the file has
/// any, `content_signal`.
fn object(url: &str, value: &Value, signals: Option<&Value>) -> Value {
    let crawlable = value["crawlable"].as_bool().unwrap_or(false);
    let mut o = json!({
        "url": url,
        "verdict": if crawlable { "allowed" } else { "disallowed" },
        "usage": value["usage"].clone(),
    });
    if let Some(s) = signals {
        o["content_signal"] = s.clone();
    }
    o
}

fn signal_line(s: &Value) -> String {
    let lines = s["lines"].as_array().map(|l| {
        l.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
    });
    // In the order of the draft's label table, then `use`.
    let order = ["search", "ai-input", "ai-train", "use"];
    let pairs: Vec<String> = order
        .iter()
        .filter_map(|k| {
            s.get(*k).map(|v| format!("{k}={}", v.as_str().unwrap_or("?")))
        })
        .collect();
    match (pairs.is_empty(), lines) {
        (true, _) => "  content-signal: none applies to this agent".into(),
        (false, Some(l)) => {
            format!("  content-signal (line(s) {l}): {}", pairs.join(", "))
        }
        (false, None) => format!("  content-signal: {}", pairs.join(", ")),
    }
}

/// Runs `check --usage`; exit 0, or 2 when a URL is refused.
pub fn run(
    robots: &std::sync::Arc<[u8]>,
    agent: &str,
    profile: &str,
    adapter: Option<&str>,
    urls: &[String],
    (as_json, explain): (bool, bool),
) -> anyhow::Result<i32> {
    let mut code = 0;
    let mut out = Vec::new();
    let mut other: Option<Box<dyn Adapter>> = match adapter {
        Some(name) => {
            let entry = super::open::ready_entry(name)?;
            Some(registry::open(
                &entry,
                Default::default(),
                &super::open::host(),
            ))
        }
        None => None,
    };
    // OK: clap restricts --profile to the built-in names.
    let mut oracle =
        Reference::for_profile(profile).expect("built-in profile");
    for url in urls {
        let report = oracle.usage_report(robots, agent, url);
        let (value, text, signals) = match (&mut other, report) {
            (_, Err(message)) => {
                eprintln!("robots-conformance: {message}");
                code = 2;
                continue;
            }
            (Some(a), Ok(r)) => {
                let request = Request::Usage {
                    robots: robots.clone(),
                    agent: agent.to_string(),
                    url: url.clone(),
                };
                let reply = match a.info().capabilities.admits(&request) {
                    Ok(()) => a.answer(&request),
                    Err(why) => why.into(),
                };
                match reply {
                    Reply::Value { value } => (value, None, r.signals),
                    other => {
                        println!(
                            "{} {url}  usage: {}",
                            other.word(),
                            other.word()
                        );
                        continue;
                    }
                }
            }
            (None, Ok(r)) => (r.value, Some(r.explanation), r.signals),
        };
        if as_json {
            out.push(object(url, &value, signals.as_ref()));
            continue;
        }
        println!("{}", line(url, &value));
        if let (true, Some(t)) = (explain, text) {
            print!("{t}");
        }
        if let Some(s) = &signals {
            println!("{}", signal_line(s));
        }
    }
    if as_json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(code)
}
