//! `check`: one robots.txt file, one agent, some URLs.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use robots_adapters::command::Template;
use robots_adapters::process::Limits;
use robots_adapters::reference::Reference;
use robots_adapters::registry::{self, Status};
use robots_adapters::scenario::{Answer, Response, Scenario};
use robots_adapters::wire;
use robots_adapters::{Adapter, Reply, Request};
use robots_runner::case::fetch::encode_codings;
use robots_runner::run::ask_with_scenario;

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
    #[arg(long, default_value = "rfc9309", value_parser = ["rfc9309", "google", "aipref"])]
    profile: String,
    /// Explain each decision: groups, matching rules, winner, reason
    #[arg(long)]
    explain: bool,
    /// Print the decisions as JSON
    #[arg(long)]
    json: bool,
    /// Also the AI usage preferences of each URL (Content-Usage under
    /// `--profile aipref`; draft-ietf-aipref-attach-05) and the file's
    /// Content-Signal values, if it has any
    #[arg(long, conflicts_with = "command")]
    usage: bool,
    /// Ask this adapter (a name, or the path of its adapter.toml) instead
    /// of the oracle; `all` asks every ready adapter and prints the
    /// answers side by side with the oracle's
    #[arg(long)]
    adapter: Option<String>,
    /// Ask a command-line program instead, run once per URL from this
    /// template (`{robots}`: a file with the body, `{agent}`, `{url}`);
    /// exit status 0 means allowed, 1 disallowed. E.g. Google's
    /// `robots_main {robots} {agent} {url}`
    #[arg(long, value_name = "TEMPLATE", conflicts_with = "adapter")]
    command: Option<String>,
    /// Ask as a crawler that fetches the file and gets this HTTP status
    /// with it (200-599, not a redirect; `text/plain`). The oracle answers
    /// by the profile's fetch rules (RFC 9309 §2.3.1: a 4xx allows all, a
    /// 5xx disallows all); an adapter that fetches by itself fetches it
    /// from a loopback server, one that cannot is not asked
    #[arg(
        long,
        value_name = "CODE",
        value_parser = clap::value_parser!(u16).range(200..=599),
        conflicts_with_all = ["command", "usage"]
    )]
    status: Option<u16>,
    /// Ask as a crawler that fetches the file and gets it with this
    /// `Content-Encoding`: `gzip`, `deflate`, or a list of them in the
    /// order applied (`"gzip, deflate"`). The body is served coded so;
    /// the status is `--status`, else 200
    #[arg(
        long,
        value_name = "CODINGS",
        conflicts_with_all = ["command", "usage"]
    )]
    content_encoding: Option<String>,
    /// URLs: absolute, or paths with optional query
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
}

/// How long one run of a `--command` may take before it is killed.
const COMMAND_DEADLINE: std::time::Duration =
    std::time::Duration::from_secs(10);

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

/// The site `check --status` (and `--content-encoding`) stands for: the
/// file at the default robots.txt URL, answered with `code` and `body`
/// (`text/plain`), coded with `codings` if given.
fn served(
    code: u16,
    codings: Option<&str>,
    body: &Arc<[u8]>,
) -> anyhow::Result<Arc<Scenario>> {
    if (300..400).contains(&code) {
        anyhow::bail!(
            "--status {code}: a redirect needs a target; write a fetch case \
             (spec-cases/README.md) to follow one"
        );
    }
    let mut headers = vec![("Content-Type".into(), "text/plain".into())];
    let body = match codings {
        None => body.clone(),
        Some(c) => {
            let coded = encode_codings(c, body)
                .map_err(|e| anyhow::anyhow!("--content-encoding: {e}"))?;
            headers.push(("Content-Encoding".into(), c.to_string()));
            Arc::from(coded)
        }
    };
    let answer = Answer::Response(Response {
        status: code,
        headers,
        body,
        delay_ms: 0,
    });
    Ok(Arc::new(Scenario::single(answer)))
}

/// Every ready adapter's answer for each URL, beside the oracle's.
fn side_by_side(
    a: &Args,
    scenario: Option<&Scenario>,
    requests: &[Request],
) -> anyhow::Result<i32> {
    let host = super::open::host();
    let entries: Vec<_> = registry::all()
        .into_iter()
        .filter(|e| registry::status(e) == Status::Ready)
        .collect();
    let answers: Vec<(String, Vec<Reply>)> = std::thread::scope(|s| {
        let handles: Vec<_> = entries
            .iter()
            .map(|e| {
                let host = &host;
                s.spawn(move || {
                    let mut adapter =
                        registry::open(e, Limits::default(), host);
                    let replies = ask_with_scenario(
                        adapter.as_mut(),
                        scenario,
                        requests.to_vec(),
                    );
                    (e.info.name.clone(), replies)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("adapter thread"))
            .collect()
    });
    let oracle_name = Reference::name_for(&a.profile);
    for (i, url) in a.urls.iter().enumerate() {
        println!("{url}");
        let oracle = answers
            .iter()
            .find(|(n, _)| *n == oracle_name)
            .map(|(_, r)| r[i].word());
        for (name, replies) in &answers {
            let word = replies[i].word();
            let mark = match (oracle, &replies[i]) {
                (_, Reply::NotApplicable { .. }) => "",
                (Some(o), _) if o != word => "  <- differs from the oracle",
                _ => "",
            };
            println!("  {word:<15} {name}{mark}");
        }
    }
    Ok(0)
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    // The protocol's rule: `""`, `?q` or `#/x` would be read as different
    // URLs by different parsers. Only the oracle under a profile that reads
    // them as Google's library does, or an adapter that says it takes
    // them (`library_urls`), is asked them: checked once the answerer is
    // known.
    let plain = a.adapter.is_none() && a.command.is_none() && !a.usage;
    let single = a.adapter.as_deref().is_some_and(|n| n != "all");
    if let Some(e) = a.urls.iter().find_map(|u| {
        let later = (plain || single) && wire::is_library_url(u);
        if later { None } else { wire::url_error_for(u, false) }
    }) {
        anyhow::bail!("{e}");
    }
    let robots: Arc<[u8]> = read_body(&a.robots)?.into();
    if a.usage {
        return super::check_usage::run(
            &robots,
            &a.agent,
            &a.profile,
            a.adapter.as_deref(),
            &a.urls,
            (a.json, a.explain),
        );
    }
    let fetched = a.status.is_some() || a.content_encoding.is_some();
    let scenario = fetched
        .then(|| {
            let code = a.status.unwrap_or(200);
            served(code, a.content_encoding.as_deref(), &robots)
        })
        .transpose()?;
    let requests: Vec<Request> = a
        .urls
        .iter()
        .map(|url| match &scenario {
            Some(s) => Request::Fetch {
                scenario: s.clone(),
                agent: a.agent.clone(),
                url: url.clone(),
                live: None,
            },
            None => Request::Decide {
                robots: robots.clone(),
                agent: a.agent.clone(),
                url: url.clone(),
            },
        })
        .collect();
    let mut adapter: Box<dyn Adapter> = match a.adapter.as_deref() {
        _ if a.command.is_some() => {
            let template = a.command.as_deref().unwrap_or_default();
            Box::new(
                Template::new(template, None, COMMAND_DEADLINE)
                    .map_err(|e| anyhow::anyhow!("--command: {e}"))?,
            )
        }
        Some("all") => {
            return side_by_side(&a, scenario.as_deref(), &requests);
        }
        Some(name) => {
            let entry = super::open::ready_entry(name)?;
            registry::open(&entry, Limits::default(), &super::open::host())
        }
        // OK: clap restricts --profile to the built-in names.
        None => Box::new(
            Reference::for_profile(&a.profile).expect("built-in profile"),
        ),
    };
    let library_urls = adapter.info().capabilities.library_urls;
    if let Some(e) =
        a.urls.iter().find_map(|u| wire::url_error_for(u, library_urls))
    {
        anyhow::bail!("{e}");
    }
    let replies = match &scenario {
        // A fetch: served live to an adapter that fetches by itself, not
        // asked of one that cannot fetch.
        Some(s) => ask_with_scenario(adapter.as_mut(), Some(s), requests),
        None => adapter.answer_batch(&requests),
    };
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
            Reply::NotApplicable { why } => {
                println!("not-applicable {url} ({why})");
            }
            other => println!("{} {url}", other.word()),
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json)?);
    }
    Ok(code)
}
