//! `validate`: load every case file and report mistakes, running nothing.
//! A folder without its own `clauses.toml` (a `diff --out` folder) is
//! checked against the project's clause index.

use std::path::PathBuf;

use robots_runner::suite::Suite;

/// Check the case files without running them.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The spec-cases folder, or a `diff --out` folder [default:
    /// ./spec-cases, else the built-in one]
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The folder whose clauses.toml to check clause ids against [default:
    /// DIR if it has one, else the project's spec-cases folder]
    #[arg(long, value_name = "DIR")]
    clauses_from: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let root = a.dir.unwrap_or_else(robots_runner::suite::default_root);
    anyhow::ensure!(root.is_dir(), "{} is not a folder", root.display());
    let index = match a.clauses_from {
        Some(dir) => dir,
        None if root.join("clauses.toml").is_file() => root.clone(),
        None => {
            let project = robots_runner::suite::default_root();
            println!(
                "{} has no clauses.toml: using {}",
                root.display(),
                project.join("clauses.toml").display()
            );
            project
        }
    };
    let suite = Suite::load_with_index(&root, &index, |_| true);
    for e in &suite.errors {
        println!("error: {e}");
    }
    let checks: usize = suite.cases.iter().map(|c| c.checks.len()).sum();
    let files: std::collections::BTreeSet<_> =
        suite.cases.iter().map(|c| &c.file).collect();
    println!(
        "{} clauses, {} files, {} cases, {} checks: {}",
        suite.clauses.len(),
        files.len(),
        suite.cases.len(),
        checks,
        if suite.errors.is_empty() {
            "ok".to_string()
        } else {
            format!("{} error(s)", suite.errors.len())
        }
    );
    Ok(if suite.errors.is_empty() { 0 } else { 1 })
}
