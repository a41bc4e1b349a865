//! The mutation campaign's triage holds to its outcomes (mutation/README.md):
//! every drawn mutant that a committed sample's spec cases missed has exactly one
//! entry in `mutation/triage.toml`; every entry names a survivor of its
//! sample; a "case" or "judge" entry names a check that exists in the suite
//! (so what now catches the mutant cannot be renamed away silently); the
//! other verdicts carry their argument.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use robots_runner::suite::{Suite, default_root};
use serde::Deserialize;

#[derive(Deserialize)]
struct Triage {
    #[serde(default)]
    survivor: Vec<Survivor>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Survivor {
    mutant: String,
    sample: String,
    verdict: String,
    why: String,
    case: Option<String>,
}

/// The outcome files of one sample folder, in the order they count (a
/// later outcome of a mutant replaces an earlier one), each with the
/// names its mutants were drawn under when they were run later under
/// others (a subfolder with recheck.py's `map.tsv`: later → drawn).
fn runs(sample: &Path) -> Vec<(PathBuf, BTreeMap<String, String>)> {
    let sorted = |dir: &Path| {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut out = Vec::new();
    let mut later = Vec::new();
    for dir in sorted(sample) {
        let file = dir.join("mutants.out/outcomes.json");
        if file.is_file() {
            out.push((file, BTreeMap::new()));
        } else if let Ok(map) = std::fs::read_to_string(dir.join("map.tsv")) {
            let names: BTreeMap<String, String> = map
                .lines()
                .filter_map(|l| l.split_once('\t'))
                .filter(|(_, now)| !now.is_empty())
                .map(|(drawn, now)| (now.to_owned(), drawn.to_owned()))
                .collect();
            for shard in sorted(&dir) {
                let file = shard.join("mutants.out/outcomes.json");
                if file.is_file() {
                    later.push((file, names.clone()));
                }
            }
        }
    }
    out.extend(later);
    out
}

/// The missed mutants of each sample folder, from its shards'
/// outcomes.json (a mutant's last outcome counts).
fn missed(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let Ok(samples) = std::fs::read_dir(root) else { return out };
    for sample in samples.flatten().filter(|e| e.path().is_dir()) {
        let name = sample.file_name().to_string_lossy().into_owned();
        // Only the mutants drawn count: cargo-mutants 27.1.0 also runs
        // every struct-field deletion of the files it examines
        // (mutation/README.md), and those are counted apart.
        let Ok(drawn) =
            std::fs::read_to_string(sample.path().join("sample.txt"))
        else {
            continue;
        };
        let drawn: BTreeSet<&str> =
            drawn.lines().filter(|l| !l.starts_with('#')).collect();
        let mut last: BTreeMap<String, bool> = BTreeMap::new();
        for (file, drawn_as) in runs(&sample.path()) {
            let text = std::fs::read_to_string(&file).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for o in v["outcomes"].as_array().expect("outcomes") {
                let Some(now) = o["scenario"]["Mutant"]["name"].as_str()
                else {
                    continue;
                };
                let name = drawn_as.get(now).map_or(now, String::as_str);
                if drawn.contains(name) {
                    last.insert(
                        name.to_owned(),
                        o["summary"] == "MissedMutant",
                    );
                }
            }
        }
        let set = out.entry(name).or_default();
        set.extend(last.into_iter().filter(|(_, m)| *m).map(|(n, _)| n));
    }
    out
}

#[test]
fn every_survivor_is_triaged_and_every_triage_names_a_survivor() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mutation");
    let text = std::fs::read_to_string(dir.join("triage.toml")).unwrap();
    let triage: Triage = toml::from_str(&text).unwrap();
    let missed = missed(&dir);
    let suite = Suite::load(&default_root());
    let checks: BTreeSet<&str> = suite
        .cases
        .iter()
        .flat_map(|c| c.checks.iter().map(|k| k.name.as_str()))
        .collect();
    let mut seen = BTreeSet::new();
    let mut wrong = Vec::new();
    for s in &triage.survivor {
        let key = (s.sample.as_str(), s.mutant.as_str());
        if !seen.insert(key) {
            wrong.push(format!("{}: triaged twice: {}", s.sample, s.mutant));
        }
        if !missed.get(&s.sample).is_some_and(|m| m.contains(&s.mutant)) {
            wrong.push(format!(
                "{}: not a survivor there: {}",
                s.sample, s.mutant
            ));
        }
        match (s.verdict.as_str(), &s.case) {
            ("case" | "judge", Some(c)) if checks.contains(c.as_str()) => {}
            ("case" | "judge", c) => {
                wrong.push(format!("{}: no such check {c:?}", s.mutant))
            }
            ("equivalent" | "unreachable" | "open", None)
                if s.why.len() >= 40 => {}
            (v, _) => wrong.push(format!(
                "{}: verdict {v} without its argument",
                s.mutant
            )),
        }
    }
    for (sample, names) in &missed {
        for n in names {
            if !seen.contains(&(sample.as_str(), n.as_str())) {
                wrong.push(format!(
                    "{sample}: missed mutant without triage: {n}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
