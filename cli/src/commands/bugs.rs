//! `bugs`: after the fit, one upstream-ready Markdown report per distinct
//! residual disagreement of a parser, and an index.

use std::path::PathBuf;

use anyhow::Context;
use robots_fingerprint::fit::evaluate;
use robots_fingerprint::{
    About, Answers, Reading, find_bugs, fingerprint, write_bugs,
};
use robots_runner::matrix::selection;
use robots_runner::output::atomic_write;
use robots_runner::suite::Filter;

use super::CasesDir;

/// Report a parser's bugs: what its fitted reading does not explain.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// The adapter whose bugs to report
    #[arg(long)]
    adapter: String,
    /// The folder to write index.md, bug-NNN.md and bugs.json into
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Only checks whose name contains one of these
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// Leave out checks whose name contains this
    #[arg(long)]
    skip: Vec<String>,
    /// Use the fit in this `fingerprint --json` file (its `base` and
    /// `changes`) instead of fitting again
    #[arg(long, value_name = "FILE")]
    fit: Option<PathBuf>,
    /// Seconds the adapter gets per request (plus 20 ms per URL in a
    /// batch) before it is killed and the check reported `timeout`
    #[arg(long, default_value_t = 1.0, value_parser = super::parse_timeout)]
    timeout: f64,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = a.cases.valid_suite()?;
    let entry = super::open::ready_entry(&a.adapter)?;
    let filter = Filter {
        include: a.filters.clone(),
        skip: a.skip.clone(),
        exact: false,
    };
    let sel = selection(&suite, &filter);
    let mut parser = super::open::open(&entry, a.timeout);
    let answers = Answers::collect(parser.as_mut(), &sel);
    let fit = match &a.fit {
        None => fingerprint(&answers, &sel),
        Some(file) => {
            let (base, reading) = read_fit(file)?;
            evaluate(&answers, &sel, &base, reading)
        }
    };
    let bugs =
        find_bugs(parser.as_mut(), &answers, &sel, &fit, &suite.clauses);
    drop(parser);
    let about = About {
        adapter: answers.info.name.clone(),
        language: answers.info.language.clone(),
        version: answers.info.version.clone(),
    };
    write_bugs(&a.out, &about, &fit, &bugs)
        .with_context(|| format!("writing {}", a.out.display()))?;
    let proposed = a.out.join("proposed.toml");
    let text = robots_fingerprint::register::propose(
        &about.adapter,
        &about.version,
        &answers.info.profile,
        &bugs,
    );
    atomic_write(&proposed, text.as_bytes())
        .with_context(|| format!("writing {}", proposed.display()))?;
    let fit_json = a.out.join("fit.json");
    atomic_write(&fit_json, serde_json::to_string_pretty(&fit)?.as_bytes())
        .with_context(|| format!("writing {}", fit_json.display()))?;
    println!("{}", fit.line());
    println!(
        "{}: {} residual checks in {} distinct bugs; {}",
        fit.adapter,
        fit.residual.len(),
        bugs.len(),
        a.out.join("index.md").display()
    );
    Ok(0)
}

/// The base and the reading of a `fingerprint --json` file.
fn read_fit(file: &std::path::Path) -> anyhow::Result<(String, Reading)> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("reading {}", file.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| {
            format!("{} is not fingerprint JSON", file.display())
        })?;
    let base = v
        .get("base")
        .and_then(|b| b.as_str())
        .with_context(|| format!("{}: no `base`", file.display()))?
        .to_string();
    let changes: Vec<String> = v
        .get("changes")
        .map(|c| serde_json::from_value(c.clone()))
        .transpose()?
        .with_context(|| format!("{}: no `changes`", file.display()))?;
    let reading = Reading::from_names(&base, &changes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    Ok((base, reading))
}
