//! Holds ARCHITECTURE.md's "Who may import what" to the code: the
//! machine-readable block under the table (one line per crate: `deps`,
//! `dev`, `oracle-in`) is compared with every workspace crate's
//! `Cargo.toml` and with the files of its `src/` that name `robots_oracle`
//! in code, and each such file must be named in the crate's row of the
//! table. Reads only; a breach is reported as `crate: what`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml::{Table, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One crate's line of the block.
#[derive(Debug, Default)]
struct Allowed {
    deps: BTreeSet<String>,
    dev: BTreeSet<String>,
    /// `None`: any file (`*`).
    oracle_in: Option<BTreeSet<String>>,
}

/// The parser crates and each crate's line, from the ```text block that
/// follows the table.
fn block(doc: &str) -> (BTreeSet<String>, BTreeMap<String, Allowed>) {
    let start = doc.find("\nparsers:").expect("the block's `parsers:` line");
    let text = &doc[start + 1..];
    let text = &text[..text.find("```").expect("the block's end")];
    let words = |s: &str| -> BTreeSet<String> {
        s.split_whitespace().filter(|w| *w != "-").map(String::from).collect()
    };
    let mut parsers = BTreeSet::new();
    let mut crates = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (name, rest) = line.split_once(':').expect("`crate: ...`");
        if name == "parsers" {
            parsers = words(rest);
            continue;
        }
        let mut a = Allowed::default();
        for part in rest.split(';') {
            let (key, value) = part.split_once('=').expect("`key = value`");
            match key.trim() {
                "deps" => a.deps = words(value),
                "dev" => a.dev = words(value),
                "oracle-in" if value.trim() == "*" => a.oracle_in = None,
                "oracle-in" => a.oracle_in = Some(words(value)),
                other => panic!("{name}: unknown key {other}"),
            }
        }
        crates.insert(name.to_string(), a);
    }
    (parsers, crates)
}

/// `deps` with the word `parsers` replaced by the parser crates.
fn expand(
    deps: &BTreeSet<String>,
    parsers: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        deps.iter().filter(|d| *d != "parsers").cloned().collect();
    if deps.contains("parsers") {
        out.extend(parsers.iter().cloned());
    }
    out
}

/// The workspace's crates: package name → folder.
fn members() -> BTreeMap<String, PathBuf> {
    let ws: Table = read(&root().join("Cargo.toml")).parse().unwrap();
    let mut dirs = vec![root()];
    let list = ws["workspace"]["members"].as_array().unwrap();
    dirs.extend(list.iter().map(|m| root().join(m.as_str().unwrap())));
    dirs.into_iter()
        .map(|d| {
            let t: Table = read(&d.join("Cargo.toml")).parse().unwrap();
            let name = t["package"]["name"].as_str().unwrap().to_string();
            (name, d)
        })
        .collect()
}

/// The names of a manifest's `section` that are workspace or parser crates.
fn named(
    t: &Table,
    section: &str,
    watched: &BTreeSet<String>,
) -> BTreeSet<String> {
    t.get(section)
        .and_then(Value::as_table)
        .map(|deps| {
            deps.keys().filter(|k| watched.contains(*k)).cloned().collect()
        })
        .unwrap_or_default()
}

/// The `.rs` files under `dir` whose code (comment lines aside) names
/// `robots_oracle`, as paths relative to `dir`.
fn oracle_users(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            oracle_users(&p, base, out);
        } else if p.extension().is_some_and(|x| x == "rs")
            && read(&p).lines().any(|l| {
                let code = l.split("//").next().unwrap_or_default();
                names_the_crate(code)
            })
        {
            let rel = p.strip_prefix(base).unwrap_or(&p);
            out.insert(rel.display().to_string());
        }
    }
}

/// `robots_oracle` as a whole path segment (not `robots_oracle_wasm`).
fn names_the_crate(code: &str) -> bool {
    code.match_indices("robots_oracle").any(|(i, m)| {
        let after = code[i + m.len()..].chars().next();
        let before = code[..i].chars().next_back();
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        !after.is_some_and(ident) && !before.is_some_and(ident)
    })
}

/// The table row of `name` (the line starting `| \`name\` |`).
fn row<'d>(doc: &'d str, name: &str) -> Option<&'d str> {
    let head = format!("| `{name}` |");
    doc.lines().find(|l| l.starts_with(&head))
}

fn breaches(doc: &str) -> Vec<String> {
    let (parsers, allowed) = block(doc);
    let crates = members();
    let mut watched: BTreeSet<String> = crates.keys().cloned().collect();
    watched.extend(parsers.iter().cloned());
    let mut out = Vec::new();
    for name in crates.keys().filter(|n| !allowed.contains_key(*n)) {
        out.push(format!("{name}: a workspace crate the block does not list"));
    }
    for (name, a) in &allowed {
        let Some(dir) = crates.get(name) else {
            out.push(format!(
                "{name}: listed, but no workspace crate has that name"
            ));
            continue;
        };
        let Some(row) = row(doc, name) else {
            out.push(format!("{name}: no row in the table"));
            continue;
        };
        let manifest: Table = read(&dir.join("Cargo.toml")).parse().unwrap();
        for (section, want) in [
            ("dependencies", expand(&a.deps, &parsers)),
            ("dev-dependencies", expand(&a.dev, &parsers)),
        ] {
            let got = named(&manifest, section, &watched);
            for d in got.difference(&want) {
                out.push(format!("{name}: [{section}] names {d}, which the table does not allow"));
            }
            for d in want.difference(&got) {
                out.push(format!("{name}: the table allows {d} in [{section}], which is not there"));
            }
        }
        let mut users = BTreeSet::new();
        let src = dir.join("src");
        oracle_users(&src, &src, &mut users);
        let Some(files) = &a.oracle_in else { continue };
        for f in users.difference(files) {
            out.push(format!("{name}: src/{f} names robots_oracle; the table does not allow it"));
        }
        for f in files.difference(&users) {
            out.push(format!("{name}: the table lists {f}, which does not name robots_oracle"));
        }
        for f in files {
            let stem = f.trim_end_matches(".rs");
            if !row.contains(stem) {
                out.push(format!("{name}: the table's row does not name {f}"));
            }
        }
    }
    out
}

#[test]
fn the_import_table_holds() {
    let doc = read(&root().join("ARCHITECTURE.md"));
    let found = breaches(&doc);
    assert!(
        found.is_empty(),
        "{} breach(es):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn only_the_crate_path_counts() {
    assert!(names_the_crate("use robots_oracle::fetch::Answer;"));
    assert!(names_the_crate("robots_oracle::switches()"));
    assert!(!names_the_crate("const GLUE: &str = \"robots_oracle_wasm.js\";"));
}

#[test]
fn a_breach_is_found() {
    let doc = read(&root().join("ARCHITECTURE.md"));
    // The audit allowed no oracle file, the runner allowed no fixture.
    let doc = doc
        .replace(
            "oracle-in = capture.rs corpus_input.rs",
            "oracle-in = corpus_input.rs",
        )
        .replace(
            "deps = robots-adapters robots-fixture;",
            "deps = robots-adapters;",
        );
    let found = breaches(&doc);
    assert!(
        found.iter().any(|b| b.contains("src/capture.rs names robots_oracle")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|b| b.contains("names robots-fixture")),
        "{found:?}"
    );
}
