//! The oracle's rooms (ARCHITECTURE.md, "The oracle's rooms"): the fast
//! paths depend on the reading, never the reverse. No file of
//! `src/reading/` names a module of `src/fast/`, by its room or by the
//! name lib.rs re-exports it under, in code or in its tests.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a room") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

#[test]
fn the_reading_names_no_fast_path() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let fast: Vec<String> = rust_files(&root.join("fast"))
        .iter()
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
        .filter(|stem| stem != "mod")
        .collect();
    assert!(fast.len() >= 8, "the fast room's modules: {fast:?}");
    let mut named = Vec::new();
    let reading = rust_files(&root.join("reading"));
    assert!(reading.len() >= 12, "the reading's modules: {reading:?}");
    for file in reading {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let paths = ["crate::fast".to_owned()]
                .into_iter()
                .chain(fast.iter().map(|m| format!("crate::{m}::")))
                .chain(fast.iter().map(|m| format!("crate::{m};")))
                .chain(fast.iter().map(|m| format!("crate::{m}}}")));
            for path in paths {
                if code.contains(&path) {
                    named.push(format!(
                        "{}:{}: {path}",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        named.is_empty(),
        "the reading names the fast room:\n{}",
        named.join("\n")
    );
}
