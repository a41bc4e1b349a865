//! `case_loader`: any bytes as the contents of a spec-cases TOML file
//! (`spec-cases/syntax/fuzz.toml`, not read from disk), loaded and
//! validated by `robots_runner::case::load_bytes`, the code every command
//! that reads cases runs after reading a file. The clause ids it checks
//! citations against are the real `spec-cases/clauses.toml`.
//!
//! - Nothing may panic (capacity overflow, slicing, arithmetic).
//! - Memory stays bounded: every built body is at most `MAX_BODY_BYTES`
//!   (64 MiB); libFuzzer's `-rss_limit_mb`/`-malloc_limit_mb` catch a
//!   loader that allocates beyond its bounds.
//! - Every error names the file; an error with a line names a line of the
//!   input; an error about a case's content (anything but unreadable,
//!   too large, not UTF-8, TOML syntax/schema) names the line and the id
//!   of the case it is in.
//! - Every loaded case has a line of the input, an id unique in the
//!   file, and its name starts with the file's `<folder>::<stem>` prefix.

#![no_main]

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use robots_runner::case::{
    CaseErrorKind, Known, MAX_BODY_BYTES, load_bytes, name_prefix,
};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec-cases"))
}

/// The ids of the real clause index, loaded once.
fn clause_ids() -> &'static HashSet<String> {
    static IDS: OnceLock<HashSet<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        robots_runner::suite::load_clauses(root())
            .expect("spec-cases/clauses.toml loads")
            .into_iter()
            .map(|c| c.id)
            .collect()
    })
}

/// Errors that concern the whole file, not one case.
fn file_level(kind: &CaseErrorKind) -> bool {
    matches!(
        kind,
        CaseErrorKind::Unreadable(_)
            | CaseErrorKind::FileTooLarge { .. }
            | CaseErrorKind::NotUtf8 { .. }
            | CaseErrorKind::Schema(_)
    )
}

fuzz_target!(|data: &[u8]| {
    let root = root();
    let file = root.join("syntax").join("fuzz.toml");
    let known = Known { clauses: Some(clause_ids()) };
    let (cases, errors) = load_bytes(root, &file, data.to_vec(), &known);
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let prefix = name_prefix(root, &file);
    for e in &errors {
        let shown = e.to_string();
        assert!(shown.starts_with(&*file.to_string_lossy()), "{shown}");
        if let Some(line) = e.line {
            assert!(
                (1..=lines).contains(&line),
                "line {line} of {lines}: {shown}"
            );
        }
        if !file_level(&e.kind) {
            assert!(e.line.is_some(), "no line: {shown}");
            assert!(e.case.is_some(), "no case id: {shown}");
        }
    }
    let mut ids = HashSet::new();
    for c in &cases {
        assert!(
            (1..=lines).contains(&c.line),
            "case line {} of {lines}",
            c.line
        );
        assert!(c.name.starts_with(&prefix), "{} outside {prefix}", c.name);
        assert!(ids.insert(c.name.clone()), "two cases named {}", c.name);
        assert!(
            c.robots.len() as u64 <= MAX_BODY_BYTES,
            "{}-byte body",
            c.robots.len()
        );
    }
});
