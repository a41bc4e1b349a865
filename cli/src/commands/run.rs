//! `run`: the corpus against the reference oracle, with a summary.

use std::collections::BTreeMap;

use robots_adapters::reference::Reference;
use robots_runner::case::PROFILES;
use robots_runner::render::failure;
use robots_runner::run::{Outcome, run_cases};
use robots_runner::suite::{Filter, Suite};

use super::CasesDir;

/// Run the corpus against the oracle.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    cases: CasesDir,
    /// The profile(s) to run under
    #[arg(long, default_value = "all", value_parser = ["all", "rfc9309", "google", "aipref"])]
    profile: String,
    /// Only checks whose name contains one of these
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// Leave out checks whose name contains this
    #[arg(long)]
    skip: Vec<String>,
    /// Filters must equal whole check names
    #[arg(long)]
    exact: bool,
    /// Print nothing but the summary
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let suite = Suite::load(&a.cases.root());
    for e in &suite.errors {
        println!("bug in test case: {e}");
    }
    let filter = Filter {
        include: a.filters.clone(),
        skip: a.skip.clone(),
        exact: a.exact,
    };
    let profiles: Vec<&str> = PROFILES
        .iter()
        .copied()
        .filter(|p| a.profile == "all" || a.profile == *p)
        .collect();
    let mut bad = 0;
    for profile in profiles {
        // OK: PROFILES only names built-in profiles.
        let mut oracle = Reference::for_profile(profile).expect("built-in");
        let name = Reference::name_for(profile);
        let selected =
            suite.cases.iter().filter(|c| c.ignore.is_none()).map(|c| {
                (
                    c,
                    c.checks
                        .iter()
                        .filter(|k| filter.selects(&k.name))
                        .collect::<Vec<_>>(),
                )
            });
        let results = run_cases(&mut oracle, profile, selected);
        let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
        for r in &results {
            *counts.entry(r.outcome).or_default() += 1;
            if r.outcome.is_bad() && !a.quiet {
                let (case, check) = suite
                    .cases
                    .iter()
                    .find_map(|c| {
                        c.checks
                            .iter()
                            .find(|k| k.name == r.check)
                            .map(|k| (c, k))
                    })
                    .expect("result of a loaded check");
                println!("FAIL {} [{profile}]", r.check);
                println!(
                    "{}",
                    failure(
                        &suite, case, check, &name, profile, &r.reply,
                        &r.detail
                    )
                );
            }
        }
        let summary: Vec<String> =
            counts.iter().map(|(o, n)| format!("{n} {}", o.word())).collect();
        println!(
            "{name} ({profile}): {} checks: {}",
            results.len(),
            summary.join(", ")
        );
        bad += results.iter().filter(|r| r.outcome.is_bad()).count();
    }
    Ok(if bad == 0 && suite.errors.is_empty() { 0 } else { 1 })
}
