//! `check`: one robots.txt file, one agent, some URLs.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Reply, Request};

/// Decide URLs against one robots.txt file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The robots.txt file, read as raw bytes (`-` for stdin)
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// The crawler's product token (e.g. FooBot)
    #[arg(long, value_name = "TOKEN")]
    agent: String,
    /// The profile the oracle decides under
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google"])]
    profile: String,
    /// Explain each decision: groups, matching rules, winner, reason
    #[arg(long)]
    explain: bool,
    /// Print the decisions as JSON
    #[arg(long)]
    json: bool,
    /// URLs: absolute, or paths with optional query
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
}

fn read_body(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut body = Vec::new();
        std::io::stdin()
            .read_to_end(&mut body)
            .context("reading robots.txt from stdin")?;
        return Ok(body);
    }
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let robots: Arc<[u8]> = read_body(&a.robots)?.into();
    // OK: clap restricts --profile to the built-in names.
    let mut adapter =
        Reference::for_profile(&a.profile).expect("built-in profile");
    let requests: Vec<Request> = a
        .urls
        .iter()
        .map(|url| Request::Decide {
            robots: robots.clone(),
            agent: a.agent.clone(),
            url: url.clone(),
        })
        .collect();
    let replies = adapter.answer_batch(&requests);
    let mut code = 0;
    let mut json = Vec::new();
    for (url, reply) in a.urls.iter().zip(&replies) {
        if a.json {
            json.push(serde_json::json!({ "url": url, "reply": reply }));
            continue;
        }
        match reply {
            Reply::Verdict { verdict, explanation } => {
                println!("{} {url}", verdict.as_str());
                if let (true, Some(ex)) = (a.explain, explanation) {
                    print!("{}", ex.text);
                }
            }
            Reply::Error { message } => {
                eprintln!("robots-conformance: {message}");
                code = 2;
            }
            other => println!("{} {url}", other.word()),
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json)?);
    }
    Ok(code)
}
