//! `cargo test` runs every check of every case under `spec-cases/` as its
//! own trial, against the reference oracle under each profile the case
//! states an expectation for.
//!
//! Trial names are the checks' names (`grouping::merging::figure-2::1`),
//! so the usual filters work: `cargo test -- encoding`, `--exact`,
//! `--list`, `--ignored`. Under nextest (one process per trial, run as
//! `spec --exact NAME`) only the trial's own file is loaded.
//!
//! Each decide check also asks the oracle's paths directly: the fast one
//! (`decide`, with every group indexed), one parse asked the case's other
//! URLs first (so the adaptive path builds its index and memos; then
//! `is_allowed`, whose early exit for long URLs uses them), and the
//! file parsed for the one crawler (`parse_for`: `decide`, `is_allowed`)
//! must each give the plain reading's decision (`decide_linear`),
//! explanation included; and the switch-space search (`classify`, which
//! fingerprints and lint name readings with) must name the switches the
//! plain reading names (`spec/search.rs`); and what the library hands
//! out beside the verdict (a refusal, `parse_for`'s agent, crawl-delay
//! and groups, a matched rule's normalised pattern) must agree with it
//! (`spec/library.rs`). A check's `explains` phrases hold the oracle's
//! explanation, under each profile, to its words (a usage entry's, the
//! usage explanation: `spec/usage_explains.rs`), and its `readings` hold
//! the oracle's switches to the answers they state (`spec/readings.rs`).
//! The oracle under each profile must also say it is that profile's
//! reference (`matrix --profile claimed` judges it by its claim), and word
//! a verdict as the case language does (`Verdict::as_str`, and `Display`). Once per
//! case, the heap a parse of its body holds after every decide check was
//! asked of it must be no more than `RobotsTxt::heap_bytes` says, and
//! not vastly less (`spec/memory.rs`: the binary counts its allocations).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use robots_adapters::reference::Reference;
use robots_adapters::{Adapter, Request};
use robots_oracle::{Profile, RobotsTxt, Verdict};
use robots_runner::case::{Case, Check, Expected, PROFILES};
use robots_runner::render::failure;
use robots_runner::run::{Outcome, run_cases};
use robots_runner::suite::{Suite, default_root};

#[path = "spec/library.rs"]
mod library;
#[path = "spec/memory.rs"]
mod memory;

#[global_allocator]
static COUNTING: memory::Counting = memory::Counting;
#[path = "spec/readings.rs"]
mod readings;
#[path = "spec/search.rs"]
mod search;
#[path = "spec/usage_explains.rs"]
mod usage_explains;

/// The file a full check name lives in: all but the last two parts.
fn file_of(root: &Path, name: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = name.split("::").collect();
    let n = parts.len().checked_sub(2).filter(|&n| n > 0)?;
    let mut path = root.to_path_buf();
    for p in &parts[..n] {
        path.push(p);
    }
    Some(path.with_extension("toml"))
}

/// The fast path's decision, when it differs from the plain reading's.
fn paths_differ(case: &Case, check: &Check, profile: &str) -> Option<String> {
    let q = &check.request;
    if let Request::ContentSignal { robots, agent } = q {
        let parsed_as = Profile::by_name(profile)?;
        return library::signals_differ(robots, &parsed_as, agent);
    }
    if let Request::Usage { robots, agent, url } = q {
        let parsed_as = Profile::by_name(profile)?;
        return library::usage_differs(robots, &parsed_as, agent, url);
    }
    let Request::Decide { agent, url, .. } = q else { return None };
    let parsed_as = Profile::by_name(profile)?;
    let robots = RobotsTxt::parse(&case.robots, &parsed_as);
    let plain = robots.decide_linear(agent, url);
    if let Some(d) = library::library_differs(
        &case.robots,
        &robots,
        agent,
        url,
        plain.as_ref(),
    ) {
        return Some(d);
    }
    let plain = plain.ok()?;
    // The oracle words its verdict as the case language does (`check`'s
    // first word, the reports, the protocol's replies).
    let expected = check.expected(profile);
    let same = match plain.verdict {
        Verdict::Allowed => Expected::Allowed,
        Verdict::Disallowed => Expected::Disallowed,
    };
    // `Display` (what `{}` prints for a library user) words it the
    // same way.
    let shown = plain.verdict.to_string();
    if *expected == same
        && (plain.verdict.as_str() != expected.describe()
            || shown != expected.describe())
    {
        return Some(format!(
            "the oracle ({profile}) words its verdict {:?} (shown {shown:?}); \
             the case says {:?}",
            plain.verdict.as_str(),
            expected.describe()
        ));
    }
    let fast = robots.decide_indexed(agent, url).ok()?;
    if fast != plain {
        return Some(format!(
            "fast path ({profile}) differs:\n{fast:#?}\nplain:\n{plain:#?}"
        ));
    }
    // One parse asked every URL of the case first, then this one: the way a
    // crawler uses it, and the way the adaptive path reaches its index
    // (built on a group's fourth consultation) and its memos.
    let mut warm = 0;
    for q in &case.checks {
        if let Request::Decide { agent: a, url: u, .. } = &q.request {
            let _ = robots.decide(a, u);
            warm += 1;
        }
    }
    for _ in 0..4 {
        let again = robots.decide(agent, url).ok()?;
        if again != plain {
            return Some(format!(
                "decide ({profile}) after {warm} other questions differs:\n\
                 {again:#?}\nplain:\n{plain:#?}"
            ));
        }
    }
    // The verdict-only path on the warmed parse: its early exit for long
    // URLs settles on the raw path through the indexes built by now.
    if robots.is_allowed(agent, url) != plain.is_allowed() {
        return Some(format!(
            "is_allowed ({profile}) after {warm} other questions says {}; \
             plain:\n{plain:#?}",
            robots.is_allowed(agent, url)
        ));
    }
    // The file parsed for the one crawler (`parse_for`), as the bindings
    // and crawlers that ask one agent many URLs use it.
    if let Some(d) =
        search::search_differs(&case.robots, agent, url, &parsed_as)
    {
        return Some(d);
    }
    let mine = RobotsTxt::parse_for(&case.robots, &parsed_as, agent);
    let focused = mine.decide(url).ok()?;
    let quick = mine.is_allowed(url);
    (focused != plain || quick != plain.is_allowed()).then(|| {
        format!(
            "parse_for ({profile}) differs: is_allowed {quick}, decide:\n\
             {focused:#?}\nplain:\n{plain:#?}"
        )
    })
}

fn check_trial(suite: &Arc<Suite>, case_ix: usize, check_ix: usize) -> Trial {
    let case = &suite.cases[case_ix];
    let name = case.checks[check_ix].name.clone();
    let ignored = case.ignore.is_some();
    let suite = Arc::clone(suite);
    Trial::test(name, move || {
        let case = &suite.cases[case_ix];
        let check = &case.checks[check_ix];
        let mut failures = Vec::new();
        // What a parse of the body says it holds, once per case.
        if check_ix == 0 {
            for profile in PROFILES.iter().filter_map(|p| Profile::by_name(p))
            {
                failures.extend(memory::heap_differs(case, &profile));
            }
        }
        match &check.request {
            Request::Decide { robots, agent, url } => failures
                .extend(readings::readings_differ(check, robots, agent, url)),
            fetch @ Request::Fetch { .. } => {
                failures.extend(readings::fetch_readings_differ(check, fetch));
                failures.extend(library::network_names_differ(fetch));
            }
            Request::Usage { .. } => {
                failures.extend(readings::usage_readings_differ(case, check));
                failures.extend(usage_explains::usage_explains_differ(check));
            }
            Request::ContentSignal { .. } => {
                failures.extend(readings::usage_readings_differ(case, check));
            }
            _ => {}
        }
        for profile in PROFILES {
            // OK: PROFILES only names built-in profiles.
            let mut oracle =
                Reference::for_profile(profile).expect("built-in profile");
            let name = Reference::name_for(profile);
            // `matrix --profile claimed` judges the oracle under the
            // profile it claims: it must be the one it answers under.
            let info = oracle.info();
            if info.profile != profile || info.name != name {
                failures.push(format!(
                    "the oracle under {profile} says it is {} under {}",
                    info.name, info.profile
                ));
            }
            let results =
                run_cases(&mut oracle, profile, [(case, vec![check])]);
            failures.extend(paths_differ(case, check, profile));
            for r in results {
                // A profile that refuses the URL (a library-shaped one
                // under rfc9309) is not asked; its expectation says so.
                let open = matches!(
                    check.expected(profile),
                    Expected::ImplementationDefined
                );
                let unasked = r.outcome == Outcome::NotApplicable && !open;
                if r.outcome.is_bad() || unasked {
                    failures.push(failure(
                        &suite, case, check, &name, profile, &r.reply,
                        &r.detail,
                    ));
                }
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Failed::from(failures.join("\n")))
        }
    })
    .with_ignored_flag(ignored)
}

fn main() {
    let args = Arguments::from_args();
    let root = default_root();
    let only = match (&args.filter, args.exact) {
        (Some(name), true) => file_of(&root, name),
        _ => None,
    };
    let suite = Arc::new(Suite::load_only(&root, |f| {
        only.as_ref().is_none_or(|o| o == f)
    }));
    let mut trials = Vec::new();
    for e in &suite.errors {
        let prefix = robots_runner::case::name_prefix(&root, &e.file);
        let message = format!("bug in test case: {e}");
        trials.push(Trial::test(format!("{prefix}::<load>"), move || {
            Err(message.into())
        }));
    }
    for (ci, case) in suite.cases.iter().enumerate() {
        for ki in 0..case.checks.len() {
            trials.push(check_trial(&suite, ci, ki));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
